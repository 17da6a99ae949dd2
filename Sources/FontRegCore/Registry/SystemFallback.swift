import Foundation
import Synchronization

/// The system fallback face: fontconfig's system sans-serif at a weight, read into a ``FaceRecord``.
final class SystemFallback: Sendable {
    private let fontconfig = SystemFontconfig()
    private let records = Mutex<[String: FaceRecord]>([:])

    /// The system's sans-serif face for an OpenType weight and style, or `nil` when the system has none.
    func face(weight: Int, italic: Bool) -> FaceRecord? {
        guard let (path, index) = fontconfig.sansSerif(weight: weight, italic: italic) else { return nil }
        let key = "\(path)#\(index)"
        return records.withLock { records in
            if let hit = records[key] { return hit }
            let scanner = FontScanner()
            let result = scanner.scan(roots: [path])
            let face = result.files.first?.faces.first { $0.freetypeIndex == index } ?? result.files.first?.faces.first
            if let face { records[key] = face }
            return face
        }
    }

    /// Every font file of the system configuration.
    func systemFontFiles() -> [String] { fontconfig.allFiles() }
}
