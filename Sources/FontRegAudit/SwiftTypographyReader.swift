import FontRegCore
import FontRegJSON

/// Reads YMatterType `Typography` declarations from Swift source text, without a Swift parser.
///
/// It finds `let`/`var` declarations (stored or computed) in types and extensions, evaluates
/// the ones that build a `Typography` — directly (`Typography(familyName:fontWeight:…)`,
/// `Typography(fontFamily: .x, …)`) or by deriving from another style (`.bold`, `.regular`,
/// `.fontWeight(.medium)`) — and follows `fontFamily:` to a `DefaultFontFamily(familyName:)`
/// or to a custom type conforming to `FontFamily`/`FontRepresentable` whose `familyName` and
/// `supportedWeights` it reads. All files given are read together, so a family declared in one
/// file can be used in another. Weight names are Apple's; `.heavy` is 800.
struct SwiftTypographyReader {
    /// One file being read, with its tokens.
    struct SourceFile {
        var path: String
        var text: String
        var tokens: [SwiftSourceScanner.Token]
    }

    /// A `let`/`var` found in the source, with the tokens of its value.
    struct Declaration {
        var name: String
        var scope: [String]
        var file: Int
        /// Token indices of the initializer or computed body.
        var expression: Range<Int>
        var typeAnnotation: String?
        var selfType: String?
        var offset: Int
        var inFunction: Bool
        var qualifiedName: String { (scope + [name]).joined(separator: ".") }
    }

    /// A font family as the source builds it: the name, and the weights it supports if it says.
    struct FamilyValue: Hashable {
        var stack: [String]
        var supportedWeights: [FontWeight]?
        var style: FontStyle?
    }

    /// A text style: family, weight, style.
    struct TypographyValue: Hashable {
        var family: FamilyValue
        var weight: FontWeight
        var style: FontStyle
        /// `fontSize:` in points, when it is a number literal.
        var size: Double? = nil
        /// `lineHeight:` in points, when it is a number literal.
        var lineHeight: Double? = nil
    }

    /// What an expression evaluates to, as far as the audit cares.
    enum Value {
        case typography(TypographyValue)
        case family(FamilyValue)
        case other
    }

    /// A type declared in the source that may conform to `FontFamily`.
    struct FamilyType {
        var name: String
        var conforms: Bool
        var familyNameDeclaration: Int?
        var supportedWeightsDeclaration: Int?
    }

    var files: [SourceFile] = []
    var declarations: [Declaration] = []
    var familyTypes: [String: FamilyType] = [:]
    var inlineCalls: [(file: Int, start: Int, end: Int)] = []
    var cache: [Int: Value] = [:]
    var evaluating: [Int] = []
    var notes: [String] = []

    static let systemFamilyNames: Set<String> = ["systemFamily", "system", "SystemFontFamily", "systemFont"]

    /// Reads the given Swift files together.
    ///
    /// - Parameter sources: path and text of each file.
    /// - Returns: one document per run, listing every style in file order.
    /// - Throws: ``AuditInputError`` for an unknown weight, an unresolvable family, a circular derivation
    ///   or an unterminated string or comment.
    static func read(sources: [(path: String, text: String)]) throws(AuditInputError) -> TypographyDocument {
        var reader = SwiftTypographyReader()
        for source in sources {
            let (tokens, unterminated) = SwiftSourceScanner.tokenize(source.text)
            if let unterminated {
                throw .invalidStyle(
                    file: source.path, location: "source",
                    position: SwiftSourceScanner.position(of: unterminated, in: source.text),
                    reason: "unterminated string literal or comment; the file does not compile as Swift")
            }
            reader.files.append(SourceFile(path: source.path, text: source.text, tokens: tokens))
            reader.collect(fileIndex: reader.files.count - 1)
        }
        return try reader.evaluateAll(label: sources.count == 1 ? sources[0].path : "\(sources.count) Swift files")
    }

    // MARK: - Evaluating

    mutating func evaluateAll(label: String) throws(AuditInputError) -> TypographyDocument {
        var uses: [TypographyUse] = []
        var seenCalls = Set<String>()
        for (index, declaration) in declarations.enumerated() where !declaration.inFunction {
            let value = try evaluate(declaration: index)
            guard case .typography(let typography) = value else { continue }
            let file = files[declaration.file]
            uses.append(
                use(
                    typography, file: file.path, name: declaration.qualifiedName, offset: declaration.offset,
                    text: file.text))
            let range = declaration.expression
            seenCalls.insert("\(declaration.file):\(range.lowerBound)")
        }
        for call in inlineCalls {
            let file = files[call.file]
            let tokens = Array(file.tokens[call.start..<min(call.end, file.tokens.count)])
            let position = SwiftSourceScanner.position(of: file.tokens[call.start].offset, in: file.text)
            let covered = declarations.contains {
                $0.file == call.file && !$0.inFunction && $0.expression.contains(call.start)
            }
            if covered { continue }
            do {
                if case .typography(let typography) = try evaluate(tokens: tokens, file: call.file, declaration: nil) {
                    uses.append(
                        use(
                            typography, file: file.path, name: "Typography(…) at line \(position.line)",
                            offset: file.tokens[call.start].offset, text: file.text))
                }
            } catch {
                notes.append(
                    "\(file.path):\(position.line):\(position.column): skipped a Typography(…) whose family or weight is not a literal (\(error))"
                )
            }
        }
        if uses.isEmpty {
            notes.append("\(label): no YMatterType Typography declarations found")
        }
        return TypographyDocument(file: label, format: .swift, uses: uses, notes: notes)
    }

    func use(_ value: TypographyValue, file: String, name: String, offset: Int, text: String) -> TypographyUse {
        var use = TypographyUse(
            familyStack: value.family.stack, weight: value.weight, style: value.style,
            origin: UseOrigin(file: file, name: name, position: SwiftSourceScanner.position(of: offset, in: text)),
            supportedWeights: value.family.supportedWeights)
        use.size = value.size
        use.lineHeight = value.lineHeight.map(LineHeight.pixels)
        return use
    }
}
