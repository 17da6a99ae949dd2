import Testing
import Varlink

/// Bytes of input buffers by user and in all, in memory.
@Suite("Input budget")
struct InputBudgetTests {
    @Test func aUserOverItsShareIsOverBeforeTheServerIs() {
        var budget = InputBudget(maximum: 10 << 20, maximumPerUID: 4 << 20)
        budget.charge(uid: 1000, 4 << 20)
        #expect(budget.excess(for: 1000) == nil)
        budget.charge(uid: 1000, 1)
        #expect(budget.excess(for: 1000) == .user)
        #expect(budget.excess(for: 1001) == nil)
        budget.charge(uid: 1001, 4 << 20)
        budget.charge(uid: 1002, 2 << 20)
        #expect(budget.excess(for: 1002) == .server)
        budget.charge(uid: 1000, -(4 << 20) - 1)
        #expect(budget.held(by: 1000) == 0)
        #expect(budget.total == 6 << 20)
        #expect(budget.excess(for: 1002) == nil)
    }

    @Test func theBoundsGrowWithTheMessageSizeSoEveryUserCanSendTwoMessages() {
        var budget = InputBudget(maximumMessageSize: 1 << 20)
        #expect(budget.maximumPerUID == 8 << 20)
        #expect(budget.maximum == 32 << 20)
        budget.resize(maximumMessageSize: 16 << 20)
        #expect(budget.maximumPerUID == 33 << 20)
        #expect(budget.maximum == 132 << 20)
        #expect(InputBudget.freeBytes == 64 << 10)
    }
}
