import Testing
import Foundation
@testable import FontReg

@Test func scratchAuditPrints() {
    for input in ["dtcg/design-system.tokens.json", "tokens-studio/figma-tokens.json", "swift/DesignSystem", "native/text-styles.json"] {
        let result = AuditCommand.run(arguments: [AuditFixtures.tokens(input)] + AuditFixtures.fixtureFontArguments + ["--report", "/tmp/audit-scratch.html"])
        print(result.stdout, result.stderr, result.exitCode)
    }
}
