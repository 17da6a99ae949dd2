// swift-tools-version:6.0
import PackageDescription

// The architecture of fontreg, lowest layer first. Each target may import only the targets it
// lists, so the compiler keeps the layers apart:
//
//   FontRegSystem   the one place that makes system calls (typed errno, EINTR retry, descriptors)
//   FontRegJSON     JSON values, the one writer and both parsers (fast; with source positions)
//   FontRegCore     the embeddable library: weights, scanning, index, rules, resolution, registry
//                   (the only target that imports fontconfig and FreeType)
//   Varlink         framing, messages, errors, introspection, the client; knows nothing of fonts
//   FontRegProtocol io.fontreg.Registry on the wire: method and error names, the JSON forms of faces,
//                   queries and answers, and the typed client (RegistryClient)
//   FontRegService  the io.fontreg.Registry methods over Core and Varlink; no socket, no process
//   FontRegServer   fontregd: event loops, sockets, systemd, signals, watcher, configuration
//   FontRegAudit    the design-token audit over Core
//   FontRegCLI      fontresolve's commands, over Core in process or the daemon through Varlink
// Every Swift target: a file must import the module of every member it uses (SE-0444), so that its
// imports say what it uses.
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "fontreg",
    products: [
        .library(name: "FontRegCore", targets: ["FontRegCore"]),
        .library(name: "FontRegProtocol", targets: ["FontRegProtocol"]),
        .library(name: "Varlink", targets: ["Varlink"]),
        .executable(name: "fontregd", targets: ["fontregd"]),
        .executable(name: "fontresolve", targets: ["fontresolve"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig1-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CSeccomp", pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]),
        // What Swift's Glibc module does not expose (epoll, accept4, peer credentials, openat2).
        .target(name: "CShim", swiftSettings: swiftSettings),

        .target(name: "FontRegSystem", dependencies: ["CShim", "CSeccomp"], swiftSettings: swiftSettings),
        .target(name: "FontRegJSON", swiftSettings: swiftSettings),
        .target(
            name: "FontRegCore",
            dependencies: ["FontRegSystem", "FontRegJSON", "CFontconfig", "CFreeType"], swiftSettings: swiftSettings),
        .target(name: "Varlink", dependencies: ["FontRegJSON", "FontRegSystem"], swiftSettings: swiftSettings),
        .target(
            name: "FontRegProtocol",
            dependencies: ["FontRegCore", "Varlink", "FontRegJSON", "FontRegSystem"], swiftSettings: swiftSettings),
        .target(
            name: "FontRegService",
            dependencies: ["FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON", "FontRegSystem"],
            // The daemon serves its Varlink interface definition verbatim from the binary.
            resources: [.embedInCode("io.fontreg.Registry.varlink")], swiftSettings: swiftSettings),
        .target(
            name: "FontRegServer",
            dependencies: ["FontRegService", "FontRegCore", "Varlink", "FontRegJSON", "FontRegSystem"],
            swiftSettings: swiftSettings),
        .target(name: "FontRegAudit", dependencies: ["FontRegCore", "FontRegJSON"], swiftSettings: swiftSettings),
        .target(
            name: "FontRegCLI",
            dependencies: [
                "FontRegAudit", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON", "FontRegSystem",
            ], swiftSettings: swiftSettings),

        .executableTarget(name: "fontregd", dependencies: ["FontRegServer"], swiftSettings: swiftSettings),
        .executableTarget(name: "fontresolve", dependencies: ["FontRegCLI"], swiftSettings: swiftSettings),
        // In-process benchmark against fontconfig's FcFontMatch (scripts/bench-core.sh); not installed.
        .executableTarget(
            name: "fontreg-bench", dependencies: ["FontRegCore", "FontRegJSON", "CFontconfig", "FontRegProtocol"],
            swiftSettings: swiftSettings),
        // Benchmark of the daemon over its socket (scripts/bench-daemon.sh); not installed.
        .executableTarget(
            name: "fontregd-bench",
            dependencies: ["FontRegService", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON"],
            swiftSettings: swiftSettings),
        // Protocol fuzz target: replays inputs when built plainly, libFuzzer with -sanitize=fuzzer (docs/reliability.md).
        .executableTarget(
            name: "fontreg-fuzz",
            dependencies: [
                "FontRegService", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON",
                "FontRegSystem",
            ], swiftSettings: swiftSettings),

        // What several test targets share: fixture paths, starting the built daemon and client, the
        // service in memory (InMemoryRegistry), snapshots.
        .target(
            name: "FontRegTestSupport",
            dependencies: ["FontRegService", "FontRegCore", "Varlink", "FontRegJSON", "FontRegSystem"],
            path: "Tests/FontRegTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegSystemTests", dependencies: ["FontRegSystem", "FontRegTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(name: "FontRegJSONTests", dependencies: ["FontRegJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegCoreTests",
            dependencies: ["FontRegCore", "FontRegSystem", "FontRegTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "FontRegJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegProtocolTests",
            dependencies: ["FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON", "FontRegTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegServiceTests",
            dependencies: [
                "FontRegService", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON", "FontRegTestSupport",
                "FontRegSystem",
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegServerTests",
            dependencies: [
                "FontRegServer", "FontRegService", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON",
                "FontRegSystem", "FontRegTestSupport",
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegAuditTests",
            dependencies: ["FontRegAudit", "FontRegCore", "FontRegJSON", "FontRegTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FontRegCLITests",
            dependencies: [
                "FontRegCLI", "FontRegAudit", "FontRegProtocol", "FontRegCore", "Varlink", "FontRegJSON",
                "FontRegTestSupport", "FontRegSystem",
            ], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
