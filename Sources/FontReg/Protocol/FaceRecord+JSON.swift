extension FaceRecord {
    /// The face as the registry interface's `Face` type: the same keys as its `Codable` encoding.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "postscriptName": .string(postscriptName), "family": .string(family),
            "subfamily": .string(subfamily), "fullName": .string(fullName), "weight": .int(weight),
            "italic": .bool(italic), "oblique": .bool(oblique), "width": .int(width), "file": .string(file),
            "index": .int(index), "fileSize": .int(Int(fileSize)), "format": .string(format),
            "isColor": .bool(isColor),
            "axes": .array(
                axes.map {
                    [
                        "tag": .string($0.tag), "minimum": .double($0.minimum),
                        "defaultValue": .double($0.defaultValue), "maximum": .double($0.maximum),
                    ]
                }),
        ]
        if let instance { object["instance"] = .int(instance) }
        return .object(object)
    }

    /// Reads a face from the registry interface's `Face` type.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    public init?(jsonValue value: JSONValue) {
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
