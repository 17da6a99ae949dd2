import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegService
@testable import Varlink

@Suite("io.fontreg.Registry interface definition")
struct InterfaceDescriptionTests {
    static let file = BuildProducts.packageRoot.appendingPathComponent(
        "Sources/FontRegService/io.fontreg.Registry.varlink"
    ).path

    @Test func embeddedDescriptionIsTheRepositoryFileVerbatim() throws {
        let text = try String(contentsOfFile: Self.file, encoding: .utf8)
        #expect(VarlinkInterfaceDescription.registry.text == text)
        #expect(text.contains("interface io.fontreg.Registry\n"))
    }

    @Test func everyDeclaredErrorHasANameConstantAndTheMethodsAreThoseOfTheIssue() throws {
        let text = VarlinkInterfaceDescription.registry.text
        let declared = text.split(separator: "\n").filter { $0.hasPrefix("error ") }
            .map { String($0.dropFirst(6).prefix { $0 != " " && $0 != "(" }) }
        let constants = [
            RegistryInterface.ErrorName.familyNotFound, RegistryInterface.ErrorName.noFaceInFamily,
            RegistryInterface.ErrorName.faceNotFound, RegistryInterface.ErrorName.invalidWeight,
            RegistryInterface.ErrorName.invalidBoldPolicy, RegistryInterface.ErrorName.alreadyRegistered,
            RegistryInterface.ErrorName.notRegistered, RegistryInterface.ErrorName.fileNotFound,
            RegistryInterface.ErrorName.invalidFontData, RegistryInterface.ErrorName.pathNotAllowed,
            RegistryInterface.ErrorName.permissionDenied, RegistryInterface.ErrorName.persistenceFailed,
            RegistryInterface.ErrorName.messageTooLarge, RegistryInterface.ErrorName.tooManyConnections,
            RegistryInterface.ErrorName.invalidMessage, RegistryInterface.ErrorName.notDisabled,
            // Issue 15 (OpenFace).
            RegistryInterface.ErrorName.faceAccessDenied, RegistryInterface.ErrorName.faceFileUnavailable,
            RegistryInterface.ErrorName.tooManyDescriptors,
            RegistryInterface.ErrorName.textTooLong,  // issue 12
            RegistryInterface.ErrorName.persistedStateLimitReached,  // issue 24
        ]
        #expect(Set(declared.map(RegistryInterface.qualified)) == Set(constants))
        let methods = text.split(separator: "\n").filter { $0.hasPrefix("method ") }
            .map { String($0.dropFirst(7).prefix { $0 != "(" }) }
        #expect(
            Set(methods) == [
                "Resolve", "ResolveMany", "Candidates", "ListFamilies", "ListFaces", "GetFace", "Register",
                "Unregister", "Rescan", "GetStatus", "ListRules", "Monitor", "Disable", "Enable", "SetBoldText",
                "GetBoldText", "OpenFace", "ResolveText", "FaceCoverage", "Layout",
            ])
    }

    @Test func introspectionAnswersGetInfoAndUnknownInterfaces() throws {
        let introspection = VarlinkIntrospection(info: .fontregd, interfaces: [.registry])
        let info = try introspection.handle(VarlinkCall(method: "org.varlink.service.GetInfo"))
        #expect(info["interfaces"] == ["org.varlink.service", "io.fontreg.Registry"])
        #expect(throws: VarlinkError.interfaceNotFound("x.Y")) {
            try introspection.handle(
                VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "x.Y"]))
        }
    }
}
