import FontRegJSON
import FontRegSystem

/// What `org.varlink.service.GetInfo` reports about a service.
public struct VarlinkServiceInfo: Sendable, Hashable {
    /// Who makes the service.
    public var vendor: String
    /// The program's name.
    public var product: String
    /// The program's version.
    public var version: String
    /// Where to read about it.
    public var url: String

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
