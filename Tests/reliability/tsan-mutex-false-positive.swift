// ThreadSanitizer cannot see Synchronization.Mutex on Linux (Swift 6.3.1): this program, whose only
// shared state is behind a Mutex, gets "Swift access race" reports. Reproduce:
//   swiftc -sanitize=thread -O Tests/reliability/tsan-mutex-false-positive.swift -o /tmp/m && /tmp/m
// So TSan reports on Mutex-protected state are false positives; see Tests/reliability/tsan.supp.

final class Box: Sendable { let m = Mutex<[Int: Int]>([:]) }
let box = Box()
let g = DispatchGroup()
for t in 0..<2 {
    g.enter()
    Thread {
        for i in 0..<20000 { box.m.withLock { $0[i % 7, default: 0] += t } }; g.leave()
    }.start()
}
g.wait()
print(box.m.withLock { $0.count })
