import FontRegCore
import FontRegJSON

extension LayoutAnswer {
    /// Writes the answer as the registry interface's `Layout` reply, members sorted: the same
    /// object as `fontresolve layout --json`.
    package func writeJSON(to writer: inout JSONBytesWriter) {
        writer.begin()
        writer.member("android") { writer in
            writer.begin()
            writer.member("firstBaselineToTopHeight", android.firstBaselineToTopHeight)
            writer.member("includeFontPadding", android.includeFontPadding)
            writer.member("lastBaselineToBottomHeight", android.lastBaselineToBottomHeight)
            writer.member("lineHeight", android.lineHeight)
            writer.end()
        }
        writer.member("compose") { writer in
            writer.begin()
            writer.member("alignment", compose.alignment)
            writer.member("trim", compose.trim)
            writer.end()
        }
        writer.member("css") { writer in
            writer.begin()
            writer.member("ascentOverride", css.ascentOverride)
            writer.member("baseline", css.baseline)
            writer.member("descentOverride", css.descentOverride)
            writer.member("lineGapOverride", css.lineGapOverride)
            writer.member("lineHeight", css.lineHeight)
            writer.member("sizeAdjust", css.sizeAdjust)
            writer.end()
        }
        writer.member("face") { writer in
            writer.begin()
            writer.member("file", face.file)
            writer.member("index", face.index)
            if let instance = face.instance { writer.member("instance", instance) }
            writer.member("postscriptName", face.postscriptName)
            writer.end()
        }
        writer.member("figma") { writer in
            writer.begin()
            writer.member("autoLineHeight", figma.autoLineHeight)
            writer.member("baseline", figma.baseline)
            writer.end()
        }
        writer.member("flutter") { writer in
            writer.begin()
            writer.member("height", flutter.height)
            writer.member("leadingDistribution", flutter.leadingDistribution)
            writer.end()
        }
        writer.member("ios") { writer in
            writer.begin()
            writer.member("baseline", ios.baseline)
            writer.member("baselineOffset", ios.baselineOffset)
            writer.member("maximumLineHeight", ios.maximumLineHeight)
            writer.member("minimumLineHeight", ios.minimumLineHeight)
            writer.member("screenScale", ios.screenScale)
            writer.end()
        }
        writer.member("lineHeight", lineHeight)
        writer.member("metrics") { writer in writer.writeMetrics(face.metrics) }
        writer.member("size", size)
        writer.end()
    }

    /// The answer as JSON bytes: the `Layout` reply's parameters.
    package var jsonBytes: [UInt8] {
        var writer = JSONBytesWriter()
        writeJSON(to: &writer)
        return writer.output
    }

    /// The answer as a JSON value (parsed from ``jsonBytes``, so the two cannot differ).
    package var jsonValue: JSONValue {
        do {
            return try JSONParser.parse(jsonBytes)
        } catch {
            preconditionFailure("LayoutAnswer.writeJSON wrote invalid JSON: \(error)")
        }
    }
}
