import Foundation

/// Emits the requested formats and copies the fonts: the `--emit`, `--out` and `--copy-fonts` part of the audit.
package enum AuditWiringWriter {
    /// Why the wiring could not be written.
    package struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The file that could not be written.
        package var path: String
        /// What the system said.
        package var reason: String

        /// The message for a person.
        package var description: String {
            "cannot write \(path) (\(reason)); check that the folder is writable and has space"
        }
    }

    /// The files of every requested format, paths relative to `--out`.
    package static func files(
        _ formats: [AuditEmitFormat], wiring: AuditWiring, locations: EmitLocations,
        ios: IOSFontEmitter.Options = IOSFontEmitter.Options()
    ) -> [EmittedFile] {
        var files: [EmittedFile] = []
        for format in formats {
            switch format {
            case .css: files += CSSFontFaceEmitter.emit(wiring, locations: locations)
            case .android: files += AndroidFontEmitter.emit(wiring)
            case .ios: files += IOSFontEmitter.emit(wiring, options: ios)
            case .flutter: files += FlutterFontEmitter.emit(wiring)
            case .styleDictionary: files += StyleDictionaryEmitter.emit(wiring, locations: locations)
            }
        }
        return files
    }

    /// The files `--copy-fonts` copies: exactly the shipped fonts, plus the licence files next to them.
    ///
    /// A licence is a file named `OFL*`, `LICENSE*`, `LICENCE*` or `COPYING*` in a shipped font's folder.
    /// When fonts from several folders ship licences of the same name (Inter's and Lato's `OFL.txt`),
    /// each is copied as `<folder>-<name>` (`Inter-OFL.txt`), so no licence replaces another.
    /// - Returns: the file names in the copy folder and the file copied there, sorted by name.
    package static func fontCopies(_ wiring: AuditWiring) -> [(name: String, source: String)] {
        var copies: [String: String] = [:]
        var licences: [String: Set<String>] = [:]
        for file in wiring.files {
            copies[(file as NSString).lastPathComponent] = file
            let folder = (file as NSString).deletingLastPathComponent
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where isLicence(name) {
                licences[name, default: []].insert((folder as NSString).appendingPathComponent(name))
            }
        }
        for (name, sources) in licences {
            if sources.count == 1 {
                copies[name] = sources.first!
                continue
            }
            for source in sources {
                let folder = ((source as NSString).deletingLastPathComponent as NSString).lastPathComponent
                copies["\(folder)-\(name)"] = source
            }
        }
        return copies.keys.sorted().map { ($0, copies[$0]!) }
    }

    /// Whether a file name is a licence's.
    static func isLicence(_ name: String) -> Bool {
        let upper = name.uppercased()
        return ["OFL", "LICENSE", "LICENCE", "COPYING"].contains { upper.hasPrefix($0) }
    }

    /// Writes the emitted files under `locations.output` and the font copies into `locations.copiedFonts`.
    ///
    /// - Returns: the paths written, absolute, sorted.
    /// - Throws: ``WriteError`` naming the first file that could not be written.
    package static func write(
        _ files: [EmittedFile], copies: [(name: String, source: String)], locations: EmitLocations
    )
        throws(WriteError) -> [String]
    {
        var written: [String] = []
        for file in files {
            let destination = (locations.output as NSString).appendingPathComponent(file.path)
            switch file.content {
            case .text(let text): try write(Data(text.utf8), to: destination)
            case .copy(let source): try copy(source, to: destination)
            }
            written.append(destination)
        }
        if let folder = locations.copiedFonts {
            for copy in copies {
                let destination = (folder as NSString).appendingPathComponent(copy.name)
                try Self.copy(copy.source, to: destination)
                written.append(destination)
            }
        }
        return written.sorted()
    }

    private static func write(_ data: Data, to path: String) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw WriteError(path: path, reason: error.localizedDescription)
        }
    }

    private static func copy(_ source: String, to path: String) throws(WriteError) {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw WriteError(path: path, reason: "cannot read \(source)")
        }
        try write(data, to: path)
    }
}
