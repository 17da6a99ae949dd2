import FontRegCore
import FontRegJSON

/// Reads the text styles of a Figma Variables export (the REST API's `variables/local` JSON).
///
/// Figma variables are single values, not composite styles, so a text style is a group of
/// variables (the name without its last `/` part) holding a font family (scope `FONT_FAMILY`, or a
/// name ending in `family`) and a weight (`FONT_WEIGHT`, a number) or a style (`FONT_STYLE`, a Figma
/// name such as `Semi Bold Italic`), and optionally a font size (`FONT_SIZE`, or a name ending in
/// `size`) and a line height (`LINE_HEIGHT`, or a name ending in `lineheight`). A number bound to
/// font size or line height is in pixels, as Figma applies a number variable to either; a string
/// takes the audit's forms (`24px`, `1.5`, `150%`). Aliases (`VARIABLE_ALIAS`) are followed; each
/// mode of the collection whose values differ adds a style named `group (mode)`.
struct FigmaVariablesReader {
    /// The file read.
    let file: String
    /// Its parsed root.
    let root: SourceJSONValue

    /// The `variables` object, at the top or under `meta`, when `variableCollections` is next to it.
    static func variables(in root: SourceJSONValue) -> SourceJSONValue? {
        for container in [root["meta"], root].compactMap({ $0 }) {
            if let variables = container["variables"], variables.members != nil,
                container["variableCollections"]?.members != nil
            {
                return variables
            }
        }
        return nil
    }

    /// What a variable contributes to its group.
    private enum Role { case family, weight, style, size, lineHeight }

    /// One variable of a text style group.
    private struct Member {
        var role: Role
        var variable: SourceJSONValue
        var position: SourcePosition
    }

    /// Reads every text style group.
    ///
    /// - Throws: ``AuditInputError`` for a broken alias or a weight that is neither a number nor a Figma name.
    func read() throws(AuditInputError) -> TypographyDocument {
        guard let variables = Self.variables(in: root), let members = variables.members else {
            throw .invalidStyle(
                file: file, location: "top level", position: root.position,
                reason: "a Figma Variables export needs meta.variables and meta.variableCollections")
        }
        var groups: [String: [Member]] = [:]
        var order: [String] = []
        for member in members {
            guard let name = member.value["name"]?.stringValue, let role = Self.role(of: member.value, name: name)
            else { continue }
            let group = name.split(separator: "/").dropLast().joined(separator: ".")
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(Member(role: role, variable: member.value, position: member.keyPosition))
        }
        var uses: [TypographyUse] = []
        for group in order {
            uses += try styles(group: group, members: groups[group]!, variables: variables)
        }
        var notes: [String] = []
        if uses.isEmpty {
            notes.append(
                "\(file): no text styles found; a text style is a group of variables with a font family and a weight or style"
            )
        }
        return TypographyDocument(file: file, format: .figmaVariables, uses: uses, notes: notes)
    }

    private static func role(of variable: SourceJSONValue, name: String) -> Role? {
        let scopes = variable["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let last = FontWeight.normalizedName(String(name.split(separator: "/").last ?? ""))
        if scopes.contains("FONT_FAMILY") || last.hasSuffix("family") { return .family }
        if scopes.contains("FONT_WEIGHT") || last.hasSuffix("weight") { return .weight }
        if scopes.contains("FONT_STYLE") || last == "fontstyle" { return .style }
        if scopes.contains("FONT_SIZE") || last.hasSuffix("size") { return .size }
        if scopes.contains("LINE_HEIGHT") || last.hasSuffix("lineheight") { return .lineHeight }
        return nil
    }

    /// The text styles of one group: one per mode whose family, weight and style differ from those seen.
    private func styles(group: String, members: [Member], variables: SourceJSONValue) throws(AuditInputError)
        -> [TypographyUse]
    {
        guard let family = members.first(where: { $0.role == .family }),
            members.contains(where: { $0.role != .family })
        else { return [] }
        let modes = family.variable["valuesByMode"]?.members?.map(\.key) ?? []
        var seen = Set<String>()
        var uses: [TypographyUse] = []
        for (offset, mode) in modes.enumerated() {
            guard let name = try value(of: family, mode: mode, variables: variables)?.stringValue else { continue }
            var weight = FontWeight.regular
            var style = FontStyle.normal
            var size: Double?
            var lineHeight: LineHeight?
            for member in members where member.role != .family {
                guard let value = try value(of: member, mode: mode, variables: variables) else { continue }
                switch member.role {
                case .size: size = try readSize(value, member: member)
                case .lineHeight: lineHeight = try readLineHeight(value, member: member)
                default: (weight, style) = try read(value, member: member, current: (weight, style))
                }
            }
            let sizeText = size.map { "\($0)" } ?? ""
            let heightText = lineHeight?.description ?? ""
            guard seen.insert("\(name)|\(weight.value)|\(style.rawValue)|\(sizeText)|\(heightText)").inserted
            else { continue }
            let styleName = offset == 0 ? group : "\(group) (\(mode))"
            var use = TypographyUse(
                familyStack: [name], weight: weight, style: style,
                origin: UseOrigin(file: file, name: styleName, position: family.position))
            use.size = size
            use.lineHeight = lineHeight
            uses.append(use)
        }
        return uses
    }

    private func read(_ value: SourceJSONValue, member: Member, current: (FontWeight, FontStyle))
        throws(AuditInputError) -> (FontWeight, FontStyle)
    {
        let location = member.variable["name"]?.stringValue ?? "variable"
        if let number = value.doubleValue, let whole = Int(exactly: number), let weight = FontWeight(whole) {
            return (weight, current.1)
        }
        if let text = value.stringValue, let parsed = WeightVocabulary.studioWeight(text) {
            return member.role == .style && text.lowercased() == "italic"
                ? (current.0, .italic) : (parsed.weight, parsed.style)
        }
        throw .unknownWeight(
            file: file, location: location, value: value.stringValue ?? value.kindName, position: value.position,
            accepted: WeightVocabulary.studioAcceptedNames)
    }

    /// A font size variable's value in pixels: a number, or a string `16px` / `1rem`.
    private func readSize(_ value: SourceJSONValue, member: Member) throws(AuditInputError) -> Double {
        if let pixels = TokenTypographyReader.pixels(value) { return pixels }
        throw .invalidStyle(
            file: file, location: member.variable["name"]?.stringValue ?? "variable", position: value.position,
            reason: "a font size must be a positive number of pixels (16, \"16px\" or \"1rem\")")
    }

    /// A line height variable's value: a number is pixels (Figma's unit for a bound number), a string
    /// `24px`, `1.5` (a multiple of the size) or `150%`.
    private func readLineHeight(_ value: SourceJSONValue, member: Member) throws(AuditInputError) -> LineHeight {
        if let number = value.doubleValue, number.isFinite, number > 0 { return .pixels(number) }
        if let text = value.stringValue, let parsed = LineHeight(parsing: text) { return parsed }
        throw .invalidStyle(
            file: file, location: member.variable["name"]?.stringValue ?? "variable", position: value.position,
            reason: "a line height must be a positive number of pixels (24), \"24px\", \"1.5\" or \"150%\"")
    }

    /// A variable's value in a mode, following aliases (at most 32 steps); `nil` when the mode has none.
    private func value(of member: Member, mode: String, variables: SourceJSONValue) throws(AuditInputError)
        -> SourceJSONValue?
    {
        var current = member.variable["valuesByMode"]?[mode]
        var steps = 0
        while let value = current, value["type"]?.stringValue == "VARIABLE_ALIAS", let id = value["id"]?.stringValue {
            steps += 1
            guard steps < 32, let target = variables[id] else {
                throw .brokenReference(
                    file: file, tokenPath: member.variable["name"]?.stringValue ?? "variable", reference: id,
                    position: value.position)
            }
            current = target["valuesByMode"]?[mode] ?? target["valuesByMode"]?.members?.first?.value
        }
        return current
    }
}
