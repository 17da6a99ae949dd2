/// What `org.varlink.service.GetInfo` reports about a service.
public struct VarlinkServiceInfo: Sendable, Hashable {
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }

    /// fontregd's own description.
    public static let fontregd = VarlinkServiceInfo(
        vendor: "fontreg", product: "fontregd", version: FontRegVersion.current,
        url: "https://fontreg.io")
}

/// The version of fontreg, reported by `GetInfo`, `GetStatus` and `--version`.
public enum FontRegVersion {
    public static let current = "0.1.0"
}
