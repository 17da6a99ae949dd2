import Testing

@testable import FontRegCLI
@testable import FontRegCore

/// Register, unregister and rescan of many faces print a summary by family, the rows with --verbose.
@Suite struct FaceChangeListTests {
    /// `families` families of 18 faces each.
    static func faces(families: Int) -> [FaceRecord] {
        (0..<families).flatMap { family in
            (0..<18).map { index in
                FaceRecord(
                    postscriptName: "Corpus\(family)-\(index)", family: "Corpus \(family)", subfamily: "",
                    fullName: "", weight: 100 + index % 9 * 100, italic: index >= 9, oblique: false,
                    file: "/corpus/\(family)/\(index).ttf")
            }
        }
    }

    @Test func fortyThousandFacesAreSummedUpByFamilyInAFewLines() {
        let faces = Self.faces(families: 2223)
        #expect(faces.count > 40_000)
        let lines = FaceChangeList.lines(faces, verbose: false, console: Console(environment: ["NO_COLOR": "1"]))
        #expect(lines.count == FaceChangeList.familiesShown + 2)
        #expect(lines.first == "  Corpus 0: 18 faces")
        #expect(lines.dropLast().last == "  and 2203 more families")
        #expect(lines.last == "  (--verbose lists every face)")
    }

    @Test func withVerboseOrFewFacesEveryFaceHasItsRow() {
        let many = Self.faces(families: 10)
        let verbose = FaceChangeList.lines(many, verbose: true, console: Console(environment: ["NO_COLOR": "1"]))
        #expect(verbose.count == many.count + 1, "a header and one row a face")
        let few = Self.faces(families: 1)
        #expect(FaceChangeList.lines(few, verbose: false, console: Console(environment: [:])).count == 19)
    }
}
