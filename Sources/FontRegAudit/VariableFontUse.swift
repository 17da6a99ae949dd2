/// How much of a variable font's `wght` axis the design system uses, and what instancing would save.
///
/// The estimate reads the font's table directory: pinning the axis (`fonttools varLib.instancer`
/// with one weight) removes the variation tables (`gvar`, `cvar`, `HVAR`, `VVAR`, `MVAR`, `avar`,
/// `fvar`), so a static instance is about the file minus those tables. Several used weights either
/// become that many static files or keep the variable font with its range trimmed; trimming keeps
/// the deltas, so its saving is counted as zero (a lower bound).
package struct VariableFontUse: Sendable, Hashable, Codable {
    /// The variable font file.
    package var file: String
    /// Its default face's PostScript name.
    package var postscriptName: String
    /// The `wght` axis as the font declares it: minimum and maximum.
    package var axis: [Int]
    /// The weights the design system requires from it (used and Bold Text), ascending.
    package var used: [Int]
    /// The file's size.
    package var bytes: Int64
    /// The size of its variation tables.
    var variationBytes: Int64
    /// The estimated size of one static instance (`bytes - variationBytes`).
    package var staticInstanceBytes: Int64
    /// `pin` (one static face per used weight is smaller) or `trim` (keep the font, limit the axis to the used range).
    package var advice: String
    /// The estimated bytes saved by following the advice (0 for `trim`).
    package var savedBytes: Int64
    /// The fontTools commands that do it (one per weight for `pin`).
    package var commands: [String]
}
