/// Which meaning the ambiguous name `heavy` has: 800 for Apple and YMatterType, 900 for W3C tokens and CSS.
public enum HeavyMeaning: String, Sendable, Codable {
    /// `heavy` = 800 (Apple, YMatterType, the default for queries and rules).
    case apple
    /// `heavy` = 900 (W3C design tokens, CSS).
    case w3c
}

extension FontWeight {
    /// Normalizes a weight or family name for comparison: lower-cased, without spaces, hyphens or underscores.
    package static func normalizedName(_ name: String) -> String {
        let utf8 = name.utf8
        if utf8.contains(where: { $0 >= 0x80 }) {
            return String(name.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" && $0 != "_" })
        }
        // ASCII: one pass, no intermediate array (short results stay inline in the String).
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var n = 0
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"): continue
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): buffer[n] = byte + 32
                default: buffer[n] = byte
                }
                n += 1
            }
            return n
        }
    }

    /// Every accepted weight name (normalized) and its weight, except `heavy` which depends on ``HeavyMeaning``.
    static let nameTable: [String: Int] = [
        "thin": 100, "hairline": 100,
        "extralight": 200, "ultralight": 200,
        "light": 300,
        "semilight": 350, "demilight": 350,
        "regular": 400, "normal": 400, "book": 400, "plain": 400, "roman": 400,
        "medium": 500,
        "semibold": 600, "demibold": 600, "demi": 600,
        "bold": 700,
        "extrabold": 800, "ultrabold": 800,
        "black": 900,
        "extrablack": 950, "ultrablack": 950,
    ]

    /// The names accepted by ``init(parsing:heavy:)``, for error messages.
    public static var acceptedNames: [String] {
        (Array(nameTable.keys) + ["heavy"]).sorted {
            (nameTable[$0] ?? 850, $0) < (nameTable[$1] ?? 850, $1)
        }
    }

    /// Parses a weight given as a number ("600") or a name ("SemiBold", "semi-bold", "ultra_light").
    ///
    /// Names are compared case-insensitively, ignoring spaces, hyphens and underscores.
    /// - Parameters:
    ///   - text: the number or name.
    ///   - heavy: what `heavy` means; Apple's 800 unless the input format says otherwise.
    /// - Returns: `nil` when the text is neither a number in 1...1000 nor a known name.
    public init?(parsing text: String, heavy: HeavyMeaning = .apple) {
        let trimmed = text.trimmingSpacesAndTabs()
        if let number = Int(trimmed) {
            self.init(number)
            return
        }
        // `Int(exactly:)`, not `Int(_:)`: "inf" or "1e300" parse as Doubles that `Int(_:)` traps on.
        if let number = Double(trimmed), let whole = Int(exactly: number), let weight = FontWeight(whole) {
            self = weight
            return
        }
        let key = FontWeight.normalizedName(trimmed)
        if key == "heavy" {
            self.init(clamping: heavy == .apple ? 800 : 900)
            return
        }
        guard let value = FontWeight.nameTable[key] else { return nil }
        self.init(clamping: value)
    }
}
