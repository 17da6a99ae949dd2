import Testing
@testable import FontReg
@Test func placeholderCompiles() { #expect(FontWeight(parsing: "semi-bold")?.value == 600) }
