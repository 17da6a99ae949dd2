/// A count with its noun in the right number: "1 face", "2 faces", "0 faces".
///
/// - Parameters:
///   - count: how many.
///   - noun: the singular noun.
///   - plural: the plural, when it is not the singular with "s" ("families").
/// - Returns: the count and the noun, such as "1 family" or "3 families".
package func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}
