import FontRegCore
import Foundation

/// A font-family stack split into the family to audit, its fallbacks and the generic names.
package struct FamilyStack: Sendable, Hashable {
    /// The family the design system chose: the first entry that is not a generic or system keyword.
    package var primary: String?
    /// Real families after the primary one; fallbacks, not audited.
    package var fallbacks: [String]
    /// Generic and system keywords (`sans-serif`, `system-ui`, `-apple-system`): not faces, not auditable.
    package var generics: [String]

    /// CSS generic families and the system-font keywords of browsers and platforms.
    static let genericNames: Set<String> = [
        "serif", "sansserif", "monospace", "cursive", "fantasy", "math", "emoji", "fangsong",
        "systemui", "uiserif", "uisansserif", "uimonospace", "uirounded",
        "applesystem", "blinkmacsystemfont", "system", "systemfont", "inherit", "initial", "unset",
    ]

    /// Whether a family name is a generic or system keyword rather than a family with files.
    static func isGeneric(_ name: String) -> Bool {
        genericNames.contains(FontWeight.normalizedName(name))
    }

    /// Splits entries (each possibly itself a comma-separated CSS list with quotes) into a stack.
    package init(_ entries: [String]) {
        var names: [String] = []
        for entry in entries {
            for part in entry.split(separator: ",") {
                var name = part.trimmingCharacters(in: .whitespacesAndNewlines)
                if name.count >= 2, let first = name.first, first == "\"" || first == "'", name.last == first {
                    name = String(name.dropFirst().dropLast())
                }
                if !name.isEmpty { names.append(name) }
            }
        }
        primary = nil
        fallbacks = []
        generics = []
        for name in names {
            if FamilyStack.isGeneric(name) {
                generics.append(name)
            } else if primary == nil {
                primary = name
            } else {
                fallbacks.append(name)
            }
        }
    }
}
