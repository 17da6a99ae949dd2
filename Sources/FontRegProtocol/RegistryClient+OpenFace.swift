import FontRegCore
import FontRegJSON
import FontRegSystem
import Foundation
import Varlink

/// A face's file as the daemon opened it for this client: the open file, read-only, and where the face is in it.
public struct OpenedFace {
    /// The open file (read-only, close-on-exec); closed when the handle is released.
    ///
    /// Hand its `fileDescriptor` to FreeType (`FT_Open_Face` with a stream, or `mmap` and
    /// `FT_New_Memory_Face`) together with ``faceIndex``.
    public let file: FileHandle
    /// The face's index in its file (a collection) with its named instance in the upper 16 bits,
    /// as FreeType's `face_index` wants it.
    public let faceIndex: Int
    /// The file's size in bytes.
    public let size: Int
    /// The face.
    public let face: FaceRecord
}

// Issue 15 (OpenFace): a face's file as a descriptor instead of a path.
extension RegistryClient {
    /// Asks the daemon to open a face's file and pass the open descriptor over the socket.
    ///
    /// For a client that cannot see the file system (a Flatpak or Snap app, a container with only
    /// the socket): the daemon opens the file only if this client could have opened it itself.
    /// - Parameter postscriptName: the face's PostScript name.
    /// - Throws: ``VarlinkClientError/remote(_:)`` with `FaceNotFound`, `FaceAccessDenied`,
    ///   `FaceFileUnavailable` or `TooManyDescriptors`; transport errors otherwise.
    public func openFace(postscriptName: String) throws(VarlinkClientError) -> OpenedFace {
        setTimeout(queryTimeout)
        let (parameters, descriptors) = try connection.callReceivingDescriptors(
            RegistryInterface.qualified("OpenFace"), ["postscriptName": .string(postscriptName)])
        guard let slot = parameters["fileDescriptor"]?.intValue, descriptors.indices.contains(slot),
            parameters["index"]?.intValue != nil, let size = parameters["size"]?.intValue,
            let face = parameters["face"].flatMap(FaceRecord.init(jsonValue:))
        else { throw Self.unreadableReply("OpenFace") }
        let owned: Int32
        do {
            owned = try descriptors[slot].duplicate()
        } catch {
            throw .io(error)
        }
        return OpenedFace(
            file: FileHandle(fileDescriptor: owned, closeOnDealloc: true), faceIndex: face.freetypeIndex,
            size: size, face: face)
    }
}
