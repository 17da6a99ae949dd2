import Foundation

/// Parses a rule file: one rule object, an array of them, or `{"rules": [...]}`.
///
/// The format is documented in `docs/rules.md`. Weight keys and supported weights may be
/// numbers or names (`"semibold"`, `600`); `heavy` means 800 here, as in Apple's naming.
enum RuleFileParser {
    static let knownKeys: Set<String> = [
        "family", "familyName", "weightNames", "italicSuffix", "supportedWeights", "boldPolicy", "aliases", "$comment",
    ]

    /// Reads and parses the file at `path`.
    static func parse(path: String) throws(RuleError) -> [FamilyRule] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuleError(file: path, message: "cannot read the file: \(FontScanner.describe(errno: errno))")
        }
        return try parse(data: data, path: path)
    }

    /// Parses rule JSON; `path` names the source in errors.
    static func parse(data: Data, path: String) throws(RuleError) -> [FamilyRule] {
        let text = String(decoding: data, as: UTF8.self)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
            let place = characterOffset(in: detail).map { lineAndColumn(text: text, offset: $0) }
            throw RuleError(file: path, line: place?.line, column: place?.column, message: "not valid JSON: \(detail)")
        }
        let objects: [Any]
        if let list = root as? [Any] {
            objects = list
        } else if let object = root as? [String: Any], let list = object["rules"] as? [Any] {
            objects = list
        } else {
            objects = [root]
        }
        var rules: [FamilyRule] = []
        for object in objects {
            rules.append(try rule(from: object, path: path, text: text))
        }
        return rules
    }

    private static func rule(from value: Any, path: String, text: String) throws(RuleError) -> FamilyRule {
        func fail(_ key: String?, _ message: String) -> RuleError {
            let line = key.flatMap { lineOfKey($0, in: text) }
            return RuleError(file: path, line: line, message: message)
        }
        guard let object = value as? [String: Any] else {
            throw fail(nil, "a rule must be a JSON object with at least \"family\"")
        }
        for key in object.keys.sorted() where !knownKeys.contains(key) {
            throw fail(key, "unknown key \"\(key)\"; the keys are \(knownKeys.filter { $0 != "$comment" }.sorted().joined(separator: ", "))")
        }
        guard let family = object["family"] as? String, !family.isEmpty else {
            throw fail("family", "\"family\" must be a non-empty string: the family name as the fonts spell it, e.g. \"Avenir Next\"")
        }
        var rule = FamilyRule(family: family, familyName: String(family.unicodeScalars.filter { $0 != " " }), source: path)
        if let value = object["familyName"] {
            guard let name = value as? String, !name.isEmpty else {
                throw fail("familyName", "\"familyName\" must be a non-empty string: the root of the face names, e.g. \"AvenirNext\"")
            }
            rule.familyName = name
        }
        if let value = object["weightNames"] {
            guard let table = value as? [String: Any] else {
                throw fail("weightNames", "\"weightNames\" must be an object from weight to name, e.g. {\"semibold\": \"DemiBold\"}")
            }
            for (key, name) in table {
                guard let weight = FontWeight(parsing: key), weight.isStep else {
                    throw fail(key, "\"\(key)\" in weightNames is not one of the nine weight steps; use 100…900 or one of thin, extralight, light, regular, medium, semibold, bold, extrabold (heavy), black")
                }
                guard let string = name as? String else {
                    throw fail(key, "the weight name for \"\(key)\" must be a string (it may be empty)")
                }
                rule.weightNames[weight.value] = string
            }
        }
        if let value = object["italicSuffix"] {
            guard let suffix = value as? String else { throw fail("italicSuffix", "\"italicSuffix\" must be a string, e.g. \"Italic\"") }
            rule.italicSuffix = suffix
        }
        if let value = object["supportedWeights"] {
            guard let list = value as? [Any] else {
                throw fail("supportedWeights", "\"supportedWeights\" must be an array of weights, e.g. [\"regular\", \"bold\"] or [400, 700]")
            }
            var weights: [Int] = []
            for item in list {
                let parsed: FontWeight? = (item as? String).flatMap { FontWeight(parsing: $0) } ?? (item as? NSNumber).flatMap { FontWeight($0.intValue) }
                guard let weight = parsed else {
                    throw fail("supportedWeights", "\(item) in supportedWeights is not a weight; use 1…1000 or one of: \(FontWeight.acceptedNames.joined(separator: ", "))")
                }
                weights.append(weight.value)
            }
            rule.supportedWeights = Array(Set(weights)).sorted()
        }
        if let value = object["boldPolicy"] {
            guard let name = value as? String, let policy = BoldTextPolicy(name: name) else {
                throw fail("boldPolicy", "\"boldPolicy\" must be one of \(BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            rule.boldPolicy = policy
        }
        if let value = object["aliases"] {
            guard let list = value as? [Any] else {
                throw fail("aliases", "\"aliases\" must be an array of names or {\"name\": …, \"deprecated\": true} objects")
            }
            for item in list {
                if let name = item as? String {
                    rule.aliases.append(.init(name: name, deprecated: false))
                } else if let entry = item as? [String: Any], let name = entry["name"] as? String {
                    rule.aliases.append(.init(name: name, deprecated: (entry["deprecated"] as? Bool) ?? false))
                } else {
                    throw fail("aliases", "each alias must be a name or {\"name\": …, \"deprecated\": true}")
                }
            }
        }
        return rule
    }

    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// 1-based line and column of a UTF-8 byte offset.
    static func lineAndColumn(text: String, offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for (i, byte) in text.utf8.enumerated() {
            if i >= offset { break }
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    /// The line of the first occurrence of `"key"` in the text.
    static func lineOfKey(_ key: String, in text: String) -> Int? {
        guard let range = text.range(of: "\"\(key)\"") else { return nil }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
