/// What `org.varlink.service.GetInfo` reports about a service.
package struct VarlinkServiceInfo: Sendable, Hashable {
    /// Who makes the service.
    package var vendor: String
    /// The program's name.
    package var product: String
    /// The program's version.
    package var version: String
    /// Where to read about it.
    package var url: String

    package init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
