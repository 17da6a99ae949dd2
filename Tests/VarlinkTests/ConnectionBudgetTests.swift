import Testing
import Varlink

/// Connection slots per user, in memory.
@Suite("Connection budget")
struct ConnectionBudgetTests {
    @Test func oneUserHoldingItsShareLeavesSlotsForAnotherUserAndForRoot() {
        var budget = ConnectionBudget(maximumConnections: 100, maximumPerUID: 10)
        for _ in 0..<10 { #expect(budget.admit(uid: 1000) == nil) }
        #expect(budget.admit(uid: 1000) == .perUID(limit: 10))
        #expect(budget.admit(uid: 1001) == nil)
        #expect(budget.admit(uid: 0) == nil)
        #expect(budget.count(for: 1000) == 10)
        budget.release(uid: 1000)
        #expect(budget.admit(uid: 1000) == nil)
    }

    @Test func theLastSlotsAreKeptForRootAndPrivilegedUsersWhoHaveNoShare() {
        var budget = ConnectionBudget(maximumConnections: 40, maximumPerUID: 40, privilegedUIDs: [42])
        #expect(budget.adminReserve == 8)
        for _ in 0..<32 { #expect(budget.admit(uid: 1000) == nil) }
        // Unprivileged users stop at the reserve...
        #expect(budget.admit(uid: 1001) == .total(limit: 40))
        // ...which root and the privileged uid share, beyond any per-user share.
        for _ in 0..<4 { #expect(budget.admit(uid: 0) == nil) }
        for _ in 0..<4 { #expect(budget.admit(uid: 42) == nil) }
        #expect(budget.admit(uid: 0) == .total(limit: 40))
        #expect(budget.total == 40)
    }

    @Test func membersOfAnAdministratorGroupShareTheReserveAndHaveNoShare() {
        var budget = ConnectionBudget(maximumConnections: 40, maximumPerUID: 2, privilegedGIDs: [27])
        for uid in UInt32(1000)..<1016 {
            #expect(budget.admit(uid: uid, gid: 100) == nil)
            #expect(budget.admit(uid: uid, gid: 100) == nil)
        }
        // A user outside the group stops at the reserve; one in it (primary gid 27) takes all
        // eight reserved slots, over the per-user share of 2.
        #expect(budget.admit(uid: 2000, gid: 100) == .total(limit: 40))
        #expect(budget.admit(uid: 2001, gid: 26) == .total(limit: 40))
        for _ in 0..<8 { #expect(budget.admit(uid: 2001, gid: 27) == nil) }
        #expect(budget.admit(uid: 2001, gid: 27) == .total(limit: 40))
        #expect(budget.isPrivileged(uid: 2001, gid: 27))
        #expect(!budget.isPrivileged(uid: 2001, gid: nil))
    }

    @Test func aSmallLimitKeepsAQuarterInReserveAndReleasingAnUnknownUidChangesNothing() {
        var budget = ConnectionBudget(maximumConnections: 2, maximumPerUID: 2)
        #expect(budget.adminReserve == 0)
        #expect(budget.admit(uid: 5) == nil)
        #expect(budget.admit(uid: 5) == nil)
        #expect(budget.admit(uid: 0) == .total(limit: 2))
        budget.release(uid: 77)
        #expect(budget.total == 2)
    }
}
