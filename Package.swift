// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "fontreg",
    products: [
        .library(name: "FontReg", targets: ["FontReg"]),
        .executable(name: "fontregd", targets: ["fontregd"]),
        .executable(name: "fontresolve", targets: ["fontresolve"]),
    ],
    targets: [
        // C libraries from Debian packages. Only Sources/FontReg/Native imports them.
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig1-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // What Swift's Glibc module does not expose (epoll, accept4, peer credentials).
        .target(name: "CShim"),
        .target(
            name: "FontReg",
            dependencies: ["CFontconfig", "CFreeType", "CSystemd", "CShim"],
            // The daemon serves its Varlink interface definition verbatim from the binary.
            resources: [.embedInCode("Protocol/io.fontreg.Registry.varlink")]),
        .executableTarget(name: "fontregd", dependencies: ["FontReg"]),
        .executableTarget(name: "fontresolve", dependencies: ["FontReg"]),
        .executableTarget(name: "fontreg-bench", dependencies: ["FontReg"]),
        // Benchmark of the daemon over its socket (scripts/bench-daemon.sh); not installed.
        .executableTarget(name: "fontregd-bench", dependencies: ["FontReg"]),
        // Protocol fuzz target: replays inputs when built plainly, libFuzzer with -sanitize=fuzzer (docs/reliability.md).
        .executableTarget(name: "fontreg-fuzz", dependencies: ["FontReg"]),
        .testTarget(
            name: "FontRegTests", dependencies: ["FontReg"],
            exclude: ["Fixtures", "Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
