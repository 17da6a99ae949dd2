import Foundation

extension JSONValue {
    /// The value of an `Encodable` type (its `Codable` keys and shapes) as a ``JSONValue`` tree.
    ///
    /// Foundation's `JSONEncoder` only maps the value to JSON here; the text people and
    /// programs read is always written by ``JSONBytesWriter`` from the tree, so every output
    /// has the same style.
    ///
    /// - Throws: the encoder's `EncodingError` when the value cannot be encoded (e.g. a
    ///   non-finite `Double`).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self = try JSONParser.parse(Array(try encoder.encode(value)))
    }
}

extension JSONValue {
    /// Reads the tree as a value of a `Decodable` type (its `Codable` keys and shapes).
    ///
    /// - Throws: the decoder's `DecodingError` when a member is missing or of the wrong type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(serialized()))
    }
}
