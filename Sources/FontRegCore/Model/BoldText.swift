/// Bold Text: the heavier weight the Accessibility setting asks for, by policy.
package enum BoldText {
    /// The weight Bold Text turns `weight` into.
    ///
    /// - Parameters:
    ///   - weight: the requested weight.
    ///   - policy: the platform rule.
    ///   - supported: the weights the family supports in this style (for `next-heavier`):
    ///     the rule's list when it has one, else the weights registered.
    /// - Returns: the effective weight.
    package static func weight(for weight: Int, policy: BoldTextPolicy, supported: [Int]) -> Int {
        switch policy {
        case .nextHeavier:
            let sorted = supported.sorted()
            guard let heaviest = sorted.last else { return weight }
            return sorted.first { $0 > weight } ?? heaviest
        case .iosSystem:
            if weight < 400 { return weight + 100 }
            if weight < 700 { return weight + 200 }
            return max(weight, 900)
        case .android:
            return min(1000, weight + 300)
        case .cssBolder:
            if weight < 350 { return 400 }
            if weight < 550 { return 700 }
            if weight < 900 { return 900 }
            return weight
        }
    }

    /// The ideal Bold Text weight with every step available: one step heavier (black stays black).
    static func idealNextStep(after weight: Int) -> Int {
        min(900, max(weight, (weight / 100 + 1) * 100))
    }
}
