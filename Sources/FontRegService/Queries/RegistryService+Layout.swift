import FontRegCore
import FontRegJSON
import FontRegProtocol
import Varlink

extension RegistryService {
    /// The parameters `Layout` accepts: the family, weight and style of `Resolve`, a size and a line height.
    static let layoutParameters: Set<String> = ["family", "weight", "italic", "style", "width", "size", "lineHeight"]

    /// `Layout` (issue 27): resolves the query as `Resolve` does, then answers where the face puts
    /// the baseline at `size` on a line of `lineHeight`, per platform (``LayoutAnswer``).
    func layout(_ call: VarlinkCall, in context: ReplayContext) throws(VarlinkError) -> [UInt8] {
        let reader = try ParameterReader(call, allowed: Self.layoutParameters)
        let query = try Self.query(from: reader)
        guard let size = try reader.optionalDouble("size") else { throw VarlinkError.invalidParameter("size") }
        guard let text = try reader.optionalString("lineHeight", maximumBytes: Self.maximumKeywordBytes),
            let lineHeight = LineHeight(parsing: text)
        else { throw VarlinkError.invalidParameter("lineHeight") }
        let resolution: Resolution
        do {
            resolution = try resolve(context.applyingPreferences(query, parameters: call.parameters), in: context.view)
        } catch {
            throw Self.varlinkError(error)
        }
        do {
            return try LayoutAnswer(face: resolution.face, size: size, lineHeight: lineHeight).jsonBytes
        } catch .noMetrics {
            throw VarlinkError(
                RegistryInterface.ErrorName.invalidFontData,
                ["path": .string(resolution.face.file), "reason": .string("no metrics (units per em 0)")])
        } catch {
            throw VarlinkError.invalidParameter(error == .invalidSize(size) ? "size" : "lineHeight")
        }
    }
}
