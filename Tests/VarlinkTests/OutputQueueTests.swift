import Testing
import Varlink

/// The output queue of a connection, written in memory with partial writes.
@Suite("Output queue")
struct OutputQueueTests {
    /// Drains `queue` `step` bytes at a time, as a socket that takes little would.
    func drain(_ queue: inout OutputQueue, step: Int) -> [UInt8] {
        var written: [UInt8] = []
        while !queue.isEmpty {
            _ = queue.write { (bytes) -> Int? in
                let count = min(step, bytes.count)
                written.append(contentsOf: bytes[0..<count])
                return count
            }
        }
        return written
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func smallAndSharedChunksAreWrittenInOrderWhateverTheSocketTakes(step: Int) {
        var queue = OutputQueue()
        let large = [UInt8]((0..<(OutputQueue.shareThreshold + 5)).map { UInt8(truncatingIfNeeded: $0) })
        var expected: [UInt8] = []
        queue.append { $0.append(contentsOf: [1, 2, 3]) }
        expected += [1, 2, 3]
        queue.append(shared: large)
        expected += large
        queue.append { $0.append(contentsOf: [4]) }
        queue.append(shared: [5, 6])
        expected += [4, 5, 6]
        queue.append(shared: large)
        expected += large
        #expect(queue.count == expected.count)
        #expect(drain(&queue, step: step) == expected)
        #expect(queue.count == 0)
    }

    @Test func aSocketThatWouldBlockLeavesTheRestQueued() {
        var queue = OutputQueue()
        queue.append { $0.append(contentsOf: [1, 2, 3, 4]) }
        var calls = 0
        let done = queue.write { (bytes) -> Int? in
            calls += 1
            return calls == 1 ? 2 : nil
        }
        #expect(!done)
        #expect(queue.count == 2)
        #expect(drain(&queue, step: 10) == [3, 4])
    }
}

/// A message queued after the kept buffer was emptied (issue 13): the empty buffer left for reuse
/// must not stand in front of it.
@Suite("Output queue after its kept buffer emptied")
struct OutputQueueKeptBufferTests {
    /// Writes with a socket that takes everything, at most `attempts` times; returns what was written.
    func writeAll(_ queue: inout OutputQueue, attempts: Int = 8) -> (bytes: [UInt8], descriptors: [Int32]) {
        var written: [UInt8] = []
        var passed: [Int32] = []
        for _ in 0..<attempts where !queue.isEmpty {
            _ = queue.write { (bytes, descriptors) -> Int? in
                written.append(contentsOf: bytes)
                passed += descriptors
                return bytes.count
            }
        }
        return (written, passed)
    }

    @Test func aMessageWithDescriptorsAfterWrittenRepliesIsWritten() {
        var queue = OutputQueue()
        queue.append { $0.append(contentsOf: [1, 2, 3]) }
        #expect(writeAll(&queue).bytes == [1, 2, 3])
        queue.append { $0.append(contentsOf: [4]) }
        #expect(writeAll(&queue).bytes == [4])
        queue.append(descriptors: []) { $0.append(contentsOf: [5, 6]) }
        #expect(writeAll(&queue).bytes == [5, 6])
        #expect(queue.isEmpty)
    }

    @Test func aSharedReplyAfterAWrittenReplyIsWritten() {
        var queue = OutputQueue()
        queue.append { $0.append(contentsOf: [1]) }
        #expect(writeAll(&queue).bytes == [1])
        let large = [UInt8](repeating: 7, count: OutputQueue.shareThreshold)
        queue.append(shared: large)
        #expect(writeAll(&queue).bytes == large)
        #expect(queue.isEmpty)
    }
}
