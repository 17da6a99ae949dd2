/// The Bold Text step of each policy, as a pure function over weights (no registry needed).
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
    /// - Returns: the heavier weight (1…1000).
    static func weight(for weight: Int, policy: BoldTextPolicy, supported: [Int] = FontWeight.steps.map(\.value)) -> Int {
        let result: Int
        switch policy {
        case .nextHeavier:
            let sorted = supported.sorted()
            if let next = sorted.first(where: { $0 > weight }) {
                result = next
            } else {
                result = sorted.last ?? weight
            }
        case .iosSystem:
            switch weight {
            case ..<400: result = weight + 100
            case 400..<700: result = weight + 200
            default: result = 900
            }
        case .android:
            result = min(weight + 300, 1000)
        case .cssBolder:
            switch weight {
            case ..<350: result = 400
            case 350..<550: result = 700
            case 550..<900: result = 900
            default: result = weight
            }
        }
        return max(result, weight)
    }
}
