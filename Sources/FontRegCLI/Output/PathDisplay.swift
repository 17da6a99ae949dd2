import FontRegCore
import Foundation

/// Shows paths the way `ls` would: relative to the current directory when they are inside it.
enum PathDisplay {
    /// `path` relative to `directory` when it is inside it, else unchanged.
    package static func relative(_ path: String, to directory: String = FileManager.default.currentDirectoryPath)
        -> String
    {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// A face's file, with its face index and named instance when it has them.
    package static func location(of face: FaceRecord) -> String {
        var text = relative(face.file)
        if face.index > 0 || face.instance != nil {
            text += " #\(face.index)"
            if let instance = face.instance { text += " instance \(instance)" }
        }
        return text
    }
}
