import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegSystem

/// ``FileDescriptor/readAll(limit:expectedSize:)``: a size the caller expects only makes room
/// (one read for a file of that size); the bytes read are the file's whatever it says, and the
/// limit holds. A real file in a temporary directory.
@Suite struct ReadAllTests {
    /// 100,000 bytes that are not all alike, in a file of a temporary directory.
    struct File {
        let directory = TemporaryDirectory()
        var path: String { directory.file("data") }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8)) }

        init() throws {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        func read(limit: Int = 1 << 20, expectedSize: Int) throws -> [UInt8] {
            try FileDescriptor.open(path, as: .file).readAll(limit: limit, expectedSize: expectedSize)
        }
    }

    @Test(arguments: [0, 1, 16_384, 99_999, 100_000, 100_001, 5_000_000, -1])
    func theBytesReadAreTheFilesWhateverSizeWasExpected(expectedSize: Int) throws {
        let file = try File()
        #expect(try file.read(expectedSize: expectedSize) == file.bytes)
    }

    @Test(arguments: [0, 100_000])
    func aFilePastTheLimitIsRefusedWhateverSizeWasExpected(expectedSize: Int) throws {
        let file = try File()
        #expect(throws: SystemError.self) { try file.read(limit: 99_999, expectedSize: expectedSize) }
        #expect(try file.read(limit: 100_000, expectedSize: expectedSize) == file.bytes)
    }
}
