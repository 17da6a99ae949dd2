import FontRegCore

/// The Bold Text step the audit applies: the core's ``BoldText`` rule, never lighter.
///
/// One rule on top of every policy: Bold Text never makes text lighter. A policy that would
/// (next-heavier for 950 when the heaviest supported weight is 900) keeps the weight as it is.
enum AuditBoldText {
    /// The weight Bold Text turns `weight` into.
    ///
    /// - Parameters:
    ///   - weight: the weight the text is drawn with without Bold Text.
    ///   - policy: the policy.
    ///   - supported: the family's supported weights, for `next-heavier` (all nine steps by default).
    /// - Returns: the heavier weight (1…1000), or `weight` itself when the policy would go lighter.
    static func weight(for weight: Int, policy: BoldTextPolicy, supported: [Int] = FontWeight.steps.map(\.value)) -> Int
    {
        max(weight, BoldText.weight(for: weight, policy: policy, supported: supported))
    }
}
