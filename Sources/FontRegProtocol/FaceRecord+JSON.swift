import FontRegCore
import FontRegJSON

extension FaceRecord {
    /// Writes the face as the registry interface's `Face` type: the members of its `Codable`
    /// encoding, sorted (a test checks both agree).
    package func writeJSON(to writer: inout JSONBytesWriter) {
        writer.begin()
        writer.member("axes") { writer in
            writer.array(axes) { writer, axis in
                writer.begin()
                writer.member("defaultValue", axis.defaultValue)
                writer.member("maximum", axis.maximum)
                writer.member("minimum", axis.minimum)
                writer.member("tag", axis.tag)
                writer.end()
            }
        }
        writer.member("coordinates") { writer in writer.writeSettingsArray(coordinates) }
        writer.member("family", family)
        writer.member("file", file)
        writer.member("fileSize", Int(fileSize))
        writer.member("fontRevision", fontRevision)
        writer.member("format", format)
        writer.member("fullName", fullName)
        writer.member("index", index)
        if let instance { writer.member("instance", instance) }
        writer.member("isColor", isColor)
        writer.member("italic", italic)
        writer.member("italicAngle", italicAngle)
        writer.member("metrics") { writer in writer.writeMetrics(metrics) }
        writer.member("oblique", oblique)
        writer.member("postscriptName", postscriptName)
        writer.member("subfamily", subfamily)
        writer.member("weight", weight)
        writer.member("width", width)
        writer.member("widthPercent", widthPercent)
        writer.end()
    }

    /// The face as JSON bytes (see ``jsonValue``).
    package var jsonBytes: [UInt8] {
        var writer = JSONBytesWriter()
        writeJSON(to: &writer)
        return writer.output
    }

    /// The face as the registry interface's `Face` type.
    package var jsonValue: JSONValue {
        // Parsed from the one writer, so the two forms cannot drift apart; not on a hot path.
        do {
            return try JSONParser.parse(jsonBytes)
        } catch {
            preconditionFailure("FaceRecord.writeJSON wrote invalid JSON: \(error)")
        }
    }

    /// Reads a face from the registry interface's `Face` type.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    package init?(jsonValue value: JSONValue) {
        guard let object = value.objectValue,
            let postscriptName = object["postscriptName"]?.stringValue,
            let family = object["family"]?.stringValue,
            let weight = object["weight"]?.intValue,
            let italic = object["italic"]?.boolValue,
            let file = object["file"]?.stringValue
        else { return nil }
        let axes: [VariationAxis] = (object["axes"]?.arrayValue ?? []).compactMap { axis in
            guard let tag = axis["tag"]?.stringValue, let minimum = axis["minimum"]?.doubleValue,
                let defaultValue = axis["defaultValue"]?.doubleValue, let maximum = axis["maximum"]?.doubleValue
            else { return nil }
            return VariationAxis(tag: tag, minimum: minimum, defaultValue: defaultValue, maximum: maximum)
        }
        let coordinates: [VariationSetting] = (object["coordinates"]?.arrayValue ?? []).compactMap { setting in
            guard let tag = setting["tag"]?.stringValue, let value = setting["value"]?.doubleValue else { return nil }
            return VariationSetting(tag: tag, value: value)
        }
        self.init(
            postscriptName: postscriptName, family: family,
            subfamily: object["subfamily"]?.stringValue ?? "", fullName: object["fullName"]?.stringValue ?? "",
            weight: weight, italic: italic, oblique: object["oblique"]?.boolValue ?? false,
            width: object["width"]?.intValue ?? 5, file: file, index: object["index"]?.intValue ?? 0,
            instance: object["instance"]?.intValue, fileSize: Int64(object["fileSize"]?.intValue ?? 0),
            format: object["format"]?.stringValue ?? "", isColor: object["isColor"]?.boolValue ?? false,
            axes: axes, widthPercent: object["widthPercent"]?.doubleValue,
            italicAngle: object["italicAngle"]?.doubleValue ?? 0, coordinates: coordinates,
            fontRevision: object["fontRevision"]?.doubleValue ?? 0,
            metrics: object["metrics"].flatMap(FaceMetrics.init(jsonValue:)) ?? .zero)
    }
}

extension FaceMetrics {
    /// Reads metrics from the registry interface's `Metrics` type.
    ///
    /// - Returns: `nil` when the value is not an object; missing numbers read as 0.
    package init?(jsonValue value: JSONValue) {
        guard let object = value.objectValue else { return nil }
        func line(_ name: String) -> LineMetrics {
            let table = object[name]?.objectValue ?? [:]
            return LineMetrics(
                ascender: table["ascender"]?.intValue ?? 0, descender: table["descender"]?.intValue ?? 0,
                lineGap: table["lineGap"]?.intValue ?? 0)
        }
        let win = object["win"]?.objectValue ?? [:]
        self.init(
            unitsPerEm: object["unitsPerEm"]?.intValue ?? 0, hhea: line("hhea"), typo: line("typo"),
            win: WindowsMetrics(ascent: win["ascent"]?.intValue ?? 0, descent: win["descent"]?.intValue ?? 0),
            useTypoMetrics: object["useTypoMetrics"]?.boolValue ?? false,
            capHeight: object["capHeight"]?.intValue ?? 0, xHeight: object["xHeight"]?.intValue ?? 0)
    }
}

extension JSONBytesWriter {
    /// Writes metrics as the registry interface's `Metrics` type, members sorted.
    package mutating func writeMetrics(_ metrics: FaceMetrics) {
        begin()
        member("capHeight", metrics.capHeight)
        member("hhea") { writer in writer.writeLineMetrics(metrics.hhea) }
        member("typo") { writer in writer.writeLineMetrics(metrics.typo) }
        member("unitsPerEm", metrics.unitsPerEm)
        member("useTypoMetrics", metrics.useTypoMetrics)
        member("win") { writer in
            writer.begin()
            writer.member("ascent", metrics.win.ascent)
            writer.member("descent", metrics.win.descent)
            writer.end()
        }
        member("xHeight", metrics.xHeight)
        end()
    }

    /// Writes one table's line metrics as `{"ascender", "descender", "lineGap"}`.
    private mutating func writeLineMetrics(_ table: LineMetrics) {
        begin()
        member("ascender", table.ascender)
        member("descender", table.descender)
        member("lineGap", table.lineGap)
        end()
    }

    /// Writes settings as an array of `{"tag", "value"}` objects (a face's instance coordinates).
    mutating func writeSettingsArray(_ settings: [VariationSetting]) {
        array(settings) { writer, setting in
            writer.begin()
            writer.member("tag", setting.tag)
            writer.member("value", setting.value)
            writer.end()
        }
    }

    /// Writes settings as one object from axis tag to value (`{"wght": 650}`): a reply's `variations`.
    mutating func writeVariations(_ settings: [VariationSetting]) {
        begin()
        for setting in settings.sorted(by: { $0.tag < $1.tag }) {
            key(setting.tag)
            write(.number(setting.value))
        }
        end()
    }

    /// Writes a synthesis as `{"bold", "oblique", "obliqueAngle"}` (the angle only when oblique).
    mutating func writeSynthesis(_ synthesis: Synthesis) {
        begin()
        member("bold", synthesis.bold)
        member("oblique", synthesis.oblique)
        if let angle = synthesis.obliqueAngle { member("obliqueAngle", JSONValue.number(angle)) }
        end()
    }
}

extension JSONValue {
    /// A number for a renderer: whole values as integers (`650`, not `650.0`), others as they are (`87.5`).
    package static func number(_ value: Double) -> JSONValue {
        value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    }
}

extension VariationSetting {
    /// Settings from a reply's `variations` object, in the face's axis order (unknown tags last, by name).
    package static func settings(from value: JSONValue?, axes: [VariationAxis]) -> [VariationSetting] {
        guard let object = value?.objectValue else { return [] }
        let order = Dictionary(axes.enumerated().map { ($0.element.tag, $0.offset) }) { first, _ in first }
        return object.compactMap { tag, value in value.doubleValue.map { VariationSetting(tag: tag, value: $0) } }
            .sorted { (order[$0.tag] ?? Int.max, $0.tag) < (order[$1.tag] ?? Int.max, $1.tag) }
    }
}

extension Synthesis {
    /// A synthesis from its JSON object (`nil`, or anything else, is no synthesis).
    package init(jsonValue value: JSONValue?) {
        let object = value?.objectValue ?? [:]
        self.init(
            bold: object["bold"]?.boolValue ?? false, oblique: object["oblique"]?.boolValue ?? false,
            obliqueAngle: object["obliqueAngle"]?.doubleValue)
    }
}
