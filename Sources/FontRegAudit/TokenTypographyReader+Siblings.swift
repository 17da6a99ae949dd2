import FontRegCore

/// Text styles kept as sibling tokens rather than one composite `typography` token.
///
/// Adobe Spectrum writes `heading-sans-serif-font-family`, `heading-sans-serif-font-weight` and
/// `heading-sans-serif-font-style` side by side; other systems nest a group
/// (`typography.header.md.font-family`, `…font-weight-bolder`). A token whose name ends with
/// `font-family`, `font-weight` or `font-style` (any separator: `-`, `_`, camelCase) belongs to the
/// style named by the rest of its name; one whose name begins with them (or is just `family`,
/// `weight`, `style`) inside a group belongs to the style the group names. A weight or style without
/// a family of its own takes the family of the nearest enclosing style
/// (`heading-sans-serif-light-font-weight` takes `heading-sans-serif-font-family`).
extension TokenTypographyReader {
    /// The part of a text style a sibling token gives.
    enum SiblingRole: String {
        case family = "font-family"
        case weight = "font-weight"
        case style = "font-style"
    }

    /// The style a sibling token belongs to: the group path and the words of the style's own name.
    struct SiblingStem: Hashable {
        /// The dotted path of the enclosing group (empty at the top level).
        var group: [String]
        /// The words before the role in the token's name (`heading`, `sans`, `serif`).
        var words: [String]

        /// The style's name as shown: `typography.header.md`, `heading-sans-serif`.
        var name: String {
            let own = words.joined(separator: "-")
            return (group + (own.isEmpty ? [] : [own])).joined(separator: ".")
        }

        /// This stem, then each shorter one that encloses it, nearest first.
        var enclosing: [SiblingStem] {
            var result: [SiblingStem] = []
            var current = self
            while true {
                if !current.words.isEmpty || !current.group.isEmpty { result.append(current) }
                if !current.words.isEmpty {
                    current.words.removeLast()
                } else if !current.group.isEmpty {
                    current.group.removeLast()
                } else {
                    break
                }
                // A top-level name is no style (`font-family` alone is a palette entry).
                if current.group.isEmpty && current.words.isEmpty { break }
            }
            return result
        }
    }

    /// Splits a token name into lowercase words at `-`, `_`, spaces and camelCase boundaries.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            if character == "-" || character == "_" || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase && previousLower {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The role and style of a token, from its name; `nil` when the name says neither.
    static func siblingRole(ofPath path: String) -> (role: SiblingRole, stem: SiblingStem)? {
        let components = path.split(separator: ".").map(String.init)
        guard let last = components.last else { return nil }
        let group = Array(components.dropLast())
        let words = Self.words(last)
        let roles: [(SiblingRole, [String])] = [
            (.family, ["font", "family"]), (.weight, ["font", "weight"]), (.style, ["font", "style"]),
        ]
        for (role, marker) in roles {
            if words.count > marker.count, Array(words.suffix(marker.count)) == marker {
                return (role, SiblingStem(group: group, words: Array(words.dropLast(marker.count))))
            }
            // `font-weight`, `font-weight-bolder`, `family` inside a group: the group is the style.
            if !group.isEmpty, Array(words.prefix(marker.count)) == marker || words == [marker[1]] {
                return (role, SiblingStem(group: group, words: []))
            }
        }
        return nil
    }

    /// Assembles the sibling styles; marks their tokens reached and notes deprecated ones left out.
    func siblingStyles(reached: inout Set<String>, deprecatedLeftOut: inout [String]) throws(AuditInputError)
        -> [TypographyUse]
    {
        var families: [SiblingStem: TokenTree.Token] = [:]
        var parts: [SiblingStem: [(role: SiblingRole, token: TokenTree.Token)]] = [:]
        var stemOrder: [SiblingStem] = []
        for path in tree.order {
            guard let token = tree.token(at: path), !referenceOnlyFiles.contains(token.file),
                let (role, stem) = Self.siblingRole(ofPath: path)
            else { continue }
            let type = tree.effectiveType(of: token)
            // A composite, or a token typed as something else (`font-weight-scale` of sizes), is not a part.
            if let type, !Self.partTypes[role, default: []].contains(type) { continue }
            if token.deprecated && !includeDeprecated {
                if role != .family { deprecatedLeftOut.append(path) }
                continue
            }
            if role == .family {
                if families[stem] == nil { families[stem] = token }
            } else {
                if parts[stem] == nil { stemOrder.append(stem) }
                parts[stem, default: []].append((role, token))
            }
        }
        var uses: [TypographyUse] = []
        for stem in stemOrder {
            guard let family = stem.enclosing.lazy.compactMap({ families[$0] }).first else { continue }
            let own = parts[stem] ?? []
            // The style token: this style's own, else the nearest enclosing style's.
            let styleToken =
                own.first(where: { $0.role == .style })?.token
                ?? stem.enclosing.dropFirst().lazy.compactMap({ parts[$0]?.first(where: { $0.role == .style })?.token })
                .first
            let weights = own.filter { $0.role == .weight }.map(\.token)
            var visited: [String] = [family.path]
            let stack = try readFamily(family.value, token: family, location: family.path, visited: &visited)
            var fontStyle = FontStyle.normal
            if let styleToken {
                visited.append(styleToken.path)
                fontStyle =
                    try readStyleValue(
                        styleToken.value, token: styleToken, location: styleToken.path, visited: &visited)
                    ?? .normal
            }
            for weightToken in weights.isEmpty ? [nil] : weights.map(Optional.some) {
                var weight = FontWeight.regular
                var style = fontStyle
                var madeOf = ["font-family: \(family.path)"]
                if let weightToken {
                    visited.append(weightToken.path)
                    let parsed = try readWeight(
                        weightToken.value, token: weightToken, location: weightToken.path, visited: &visited)
                    weight = parsed.0
                    if parsed.1 != .normal { style = parsed.1 }
                    madeOf.append("font-weight: \(weightToken.path)")
                }
                if let styleToken { madeOf.append("font-style: \(styleToken.path)") }
                let anchor = weightToken ?? styleToken ?? family
                let name = weights.count > 1 ? anchor.path : stem.name
                var use = TypographyUse(
                    familyStack: stack, weight: weight, style: style,
                    origin: UseOrigin(file: anchor.file, name: originName(name), position: anchor.position))
                use.madeOf = madeOf
                uses.append(use)
            }
            reached.formUnion(visited)
        }
        return uses
    }

    /// The types a part may have (its own or the one its reference leads to); untyped tokens count by name.
    static let partTypes: [SiblingRole: Set<String>] = [
        .family: ["fontFamily", "fontFamilies", "string", "text", "other"],
        .weight: ["fontWeight", "fontWeights", "number", "string", "text", "other"],
        .style: ["fontStyle", "fontStyles", "string", "text", "other", "textCase"],
    ]
}
