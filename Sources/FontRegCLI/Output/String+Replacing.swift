extension String {
    /// The string with every occurrence of `target`, left to right and not overlapping, replaced
    /// by `replacement`, compared byte for byte (UTF-8).
    ///
    /// For the ASCII texts of the command descriptions this is the standard library's
    /// `replacing(_:with:)`, without its generic collection algorithms: those instantiated
    /// their types and looked conformances up at run time, 1.3 M instructions of every
    /// `fontresolve --help` for `explain`'s option examples (issue 29 item 1).
    func replacingLiteral(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            if position + pattern.count <= bytes.count, bytes[position] == pattern[0],
                bytes[position..<position + pattern.count].elementsEqual(pattern)
            {
                result += replacement.utf8
                position += pattern.count
            } else {
                result.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
