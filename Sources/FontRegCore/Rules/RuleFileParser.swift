import FontRegJSON
import FontRegSystem
import Foundation

/// Parses a rule file: one rule object, an array of them, or `{"rules": [...]}`.
///
/// The format is documented in `docs/rules.md`. Weight keys and supported weights may be
/// numbers or names (`"semibold"`, `600`); `heavy` means 800 here, as in Apple's naming.
/// Every error names the line and column of the value at fault.
enum RuleFileParser {
    static let knownKeys: Set<String> = [
        "family", "familyName", "weightNames", "italicSuffix", "supportedWeights", "boldPolicy", "aliases", "$comment",
    ]

    /// The largest rule file read: a rule takes a few hundred bytes; anything this large is not a rule file.
    static let maximumSize = 16 << 20

    /// Reads and parses the file at `path`.
    static func parse(path: String) throws(RuleError) -> [FamilyRule] {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.open(path, as: .file).readAll(limit: maximumSize)
        } catch {
            throw RuleError(file: path, message: "cannot read the file: \(FontScanner.describe(errno: error.errno))")
        }
        return try parse(data: Data(bytes), path: path)
    }

    /// Parses rule JSON; `path` names the source in errors.
    static func parse(data: Data, path: String) throws(RuleError) -> [FamilyRule] {
        let root: SourceJSONValue
        do {
            root = try SourceJSONParser.parse(bytes: [UInt8](data), file: path)
        } catch {
            throw RuleError(
                file: path, line: error.position.line, column: error.position.column,
                message: "not valid JSON: \(error.message)")
        }
        let objects: [SourceJSONValue]
        if let list = root.arrayValue {
            objects = list
        } else if let list = root["rules"]?.arrayValue {
            objects = list
        } else {
            objects = [root]
        }
        var rules: [FamilyRule] = []
        for object in objects {
            rules.append(try rule(from: object, path: path))
        }
        return rules
    }

    private static func rule(from value: SourceJSONValue, path: String) throws(RuleError) -> FamilyRule {
        func fail(_ at: SourceJSONValue, _ message: String) -> RuleError {
            RuleError(file: path, line: at.position.line, column: at.position.column, message: message)
        }
        guard let members = value.members else {
            throw fail(value, "a rule must be a JSON object with at least \"family\"")
        }
        for member in members where !knownKeys.contains(member.key) {
            throw RuleError(
                file: path, line: member.keyPosition.line, column: member.keyPosition.column,
                message:
                    "unknown key \"\(member.key)\"; the keys are \(knownKeys.filter { $0 != "$comment" }.sorted().joined(separator: ", "))"
            )
        }
        guard let family = value["family"]?.stringValue, !family.isEmpty else {
            throw fail(
                value["family"] ?? value,
                "\"family\" must be a non-empty string: the family name as the fonts spell it, e.g. \"Avenir Next\"")
        }
        var rule = FamilyRule(
            family: family, familyName: String(family.unicodeScalars.filter { $0 != " " }), source: path)
        if let item = value["familyName"] {
            guard let name = item.stringValue, !name.isEmpty else {
                throw fail(
                    item, "\"familyName\" must be a non-empty string: the root of the face names, e.g. \"AvenirNext\"")
            }
            rule.familyName = name
        }
        if let item = value["weightNames"] { rule.weightNames.merge(try weightNames(item, path: path)) { $1 } }
        if let item = value["italicSuffix"] {
            guard let suffix = item.stringValue else {
                throw fail(item, "\"italicSuffix\" must be a string, e.g. \"Italic\"")
            }
            rule.italicSuffix = suffix
        }
        if let item = value["supportedWeights"] { rule.supportedWeights = try supportedWeights(item, path: path) }
        if let item = value["boldPolicy"] {
            guard let name = item.stringValue, let policy = BoldTextPolicy(name: name) else {
                throw fail(
                    item,
                    "\"boldPolicy\" must be one of \(BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            rule.boldPolicy = policy
        }
        if let item = value["aliases"] { rule.aliases = try aliases(item, path: path) }
        return rule
    }

    /// A failure at `value`'s position in the rule file.
    private static func failure(_ value: SourceJSONValue, _ message: String, path: String) -> RuleError {
        RuleError(file: path, line: value.position.line, column: value.position.column, message: message)
    }

    /// `"weightNames"`: weight step → the name the family's faces use for it.
    private static func weightNames(_ item: SourceJSONValue, path: String) throws(RuleError) -> [Int: String] {
        func fail(_ at: SourceJSONValue, _ message: String) -> RuleError { failure(at, message, path: path) }
        var names: [Int: String] = [:]
        guard let table = item.members else {
            throw fail(
                item, "\"weightNames\" must be an object from weight to name, e.g. {\"semibold\": \"DemiBold\"}")
        }
        for entry in table {
            guard let weight = FontWeight(parsing: entry.key), weight.isStep else {
                throw RuleError(
                    file: path, line: entry.keyPosition.line, column: entry.keyPosition.column,
                    message:
                        "\"\(entry.key)\" in weightNames is not one of the nine weight steps; use 100…900 or one of thin, extralight, light, regular, medium, semibold, bold, extrabold (heavy), black"
                )
            }
            guard let string = entry.value.stringValue else {
                throw fail(entry.value, "the weight name for \"\(entry.key)\" must be a string (it may be empty)")
            }
            names[weight.value] = string
        }
        return names
    }

    /// `"supportedWeights"`: the weights Bold Text may step to, as names or numbers.
    private static func supportedWeights(_ item: SourceJSONValue, path: String) throws(RuleError) -> [Int] {
        func fail(_ at: SourceJSONValue, _ message: String) -> RuleError { failure(at, message, path: path) }
        guard let list = item.arrayValue else {
            throw fail(
                item, "\"supportedWeights\" must be an array of weights, e.g. [\"regular\", \"bold\"] or [400, 700]"
            )
        }
        var weights: [Int] = []
        for element in list {
            let parsed =
                element.stringValue.flatMap { FontWeight(parsing: $0) }
                ?? element.intValue.flatMap { FontWeight($0) }
            guard let weight = parsed else {
                throw fail(
                    element,
                    "\(Self.literal(element)) in supportedWeights is not a weight; use 1…1000 or one of: \(FontWeight.acceptedNames.joined(separator: ", "))"
                )
            }
            weights.append(weight.value)
        }
        return Array(Set(weights)).sorted()
    }

    /// `"aliases"`: other names of the family, each a string or `{"name", "deprecated"}`.
    private static func aliases(_ item: SourceJSONValue, path: String) throws(RuleError) -> [FamilyRule.Alias] {
        func fail(_ at: SourceJSONValue, _ message: String) -> RuleError { failure(at, message, path: path) }
        var aliases: [FamilyRule.Alias] = []
        guard let list = item.arrayValue else {
            throw fail(item, "\"aliases\" must be an array of names or {\"name\": …, \"deprecated\": true} objects")
        }
        for element in list {
            if let name = element.stringValue {
                aliases.append(.init(name: name, deprecated: false))
            } else if let name = element["name"]?.stringValue {
                aliases.append(.init(name: name, deprecated: element["deprecated"]?.boolValue ?? false))
            } else {
                throw fail(element, "each alias must be a name or {\"name\": …, \"deprecated\": true}")
            }
        }
        return aliases
    }

    private static func literal(_ value: SourceJSONValue) -> String {
        switch value {
        case .number(_, let literal, _): literal
        case .string(let text, _): "\"\(text)\""
        default: value.kindName
        }
    }
}
