// Issue 15 (OpenFace): the errors of a face's file passed as a descriptor.
extension RegistryInterface.ErrorName {
    /// The caller could not open the face's file itself, or may not see the face.
    public static let faceAccessDenied = RegistryInterface.qualified("FaceAccessDenied")
    /// The face's file is gone, changed since it was indexed, or reached through a link.
    public static let faceFileUnavailable = RegistryInterface.qualified("FaceFileUnavailable")
    /// The connection holds as many unread descriptors as it may.
    public static let tooManyDescriptors = RegistryInterface.qualified("TooManyDescriptors")
}
