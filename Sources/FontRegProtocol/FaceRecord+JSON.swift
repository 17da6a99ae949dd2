import FontRegCore
import FontRegJSON
import FontRegSystem
import Varlink

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
        writer.member("family", family)
        writer.member("file", file)
        writer.member("fileSize", Int(fileSize))
        writer.member("format", format)
        writer.member("fullName", fullName)
        writer.member("index", index)
        if let instance { writer.member("instance", instance) }
        writer.member("isColor", isColor)
        writer.member("italic", italic)
        writer.member("oblique", oblique)
        writer.member("postscriptName", postscriptName)
        writer.member("subfamily", subfamily)
        writer.member("weight", weight)
        writer.member("width", width)
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
        self.init(
            postscriptName: postscriptName, family: family,
            subfamily: object["subfamily"]?.stringValue ?? "", fullName: object["fullName"]?.stringValue ?? "",
            weight: weight, italic: italic, oblique: object["oblique"]?.boolValue ?? false,
            width: object["width"]?.intValue ?? 5, file: file, index: object["index"]?.intValue ?? 0,
            instance: object["instance"]?.intValue, fileSize: Int64(object["fileSize"]?.intValue ?? 0),
            format: object["format"]?.stringValue ?? "", isColor: object["isColor"]?.boolValue ?? false,
            axes: axes)
    }
}
