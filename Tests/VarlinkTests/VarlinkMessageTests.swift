import Testing

@testable import FontRegJSON
@testable import Varlink

@Suite("Varlink framing and messages")
struct VarlinkMessageTests {
    func call(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        try Array(text.utf8).withUnsafeBufferPointer { (buffer) throws(VarlinkProtocolError) in
            try VarlinkCall(parsing: buffer)
        }
    }

    @Test func framerSplitsPipelinedMessagesAndKeepsAPartialOneForLater() throws {
        var framer = MessageFramer(maximumMessageSize: 1024)
        let bytes = Array("{\"a\":1}\0{\"b\":2}\0{\"c\"".utf8)
        bytes.withUnsafeBytes { framer.append($0) }
        var messages: [String] = []
        while let message = try framer.nextMessage({ String(decoding: $0, as: UTF8.self) }) { messages.append(message) }
        #expect(messages == ["{\"a\":1}", "{\"b\":2}"])
        #expect(framer.hasPartialMessage)
        Array(":3}\0".utf8).withUnsafeBytes { framer.append($0) }
        #expect(try framer.nextMessage({ String(decoding: $0, as: UTF8.self) }) == "{\"c\":3}")
        #expect(!framer.hasPartialMessage)
    }

    @Test func framerRefusesAnUnterminatedMessageLongerThanTheLimit() {
        var framer = MessageFramer(maximumMessageSize: 16)
        Array(repeating: UInt8(ascii: "x"), count: 17).withUnsafeBytes { framer.append($0) }
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 16)) {
            _ = try framer.nextMessage { _ in 0 }
        }
    }

    @Test func framerRefusesACompleteMessageLongerThanTheLimit() {
        var framer = MessageFramer(maximumMessageSize: 4)
        Array("123456\0".utf8).withUnsafeBytes { framer.append($0) }
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 4)) {
            _ = try framer.nextMessage { _ in 0 }
        }
    }

    @Test func callParsesMethodParametersAndFlags() throws {
        let parsed = try call(#"{"method":"io.fontreg.Registry.Monitor","parameters":{"x":1},"more":true}"#)
        #expect(parsed.interface == "io.fontreg.Registry")
        #expect(parsed.methodName == "Monitor")
        #expect(parsed.parameters == ["x": 1])
        #expect(parsed.more && !parsed.oneway && !parsed.upgrade)
        let roundTrip = try Array(parsed.serialized().dropLast()).withUnsafeBufferPointer {
            (buffer) throws(VarlinkProtocolError) in
            try VarlinkCall(parsing: buffer)
        }
        #expect(roundTrip == parsed)
    }

    @Test(arguments: [
        (#"[1]"#, VarlinkProtocolError.notAnObject(found: "array")),
        (#"{"parameters":{}}"#, .missingMethod),
        (#"{"method":"NoDot"}"#, .invalidMethodName("NoDot")),
        (#"{"method":"a.B","id":1}"#, .unknownKey("id")),
        (#"{"method":"a.B","parameters":[]}"#, .invalidField(name: "parameters", expected: "an object")),
        (#"{"method":"a.B","more":"yes"}"#, .invalidField(name: "more", expected: "true or false")),
        (#"{"method":"a.B","more":true,"oneway":true}"#, .conflictingFlags),
    ])
    func callRejectsProtocolViolations(_ text: String, _ expected: VarlinkProtocolError) {
        #expect(throws: expected) { try call(text) }
    }

    @Test func errorReplyNeverContinuesAndCarriesTheErrorName() throws {
        let reply = VarlinkReply(error: .invalidParameter("family"))
        let bytes = reply.serialized()
        #expect(bytes.last == 0)
        #expect(
            String(decoding: bytes.dropLast(), as: UTF8.self)
                == #"{"error":"org.varlink.service.InvalidParameter","parameters":{"parameter":"family"}}"#)
    }

    @Test func parameterReaderNamesTheFirstUnknownOrMistypedParameter() throws {
        let unknown = VarlinkCall(method: "a.B", parameters: ["zeta": 1, "family": "x", "alpha": 2])
        #expect(throws: VarlinkError.invalidParameter("alpha")) { try ParameterReader(unknown, allowed: ["family"]) }
        let mistyped = try ParameterReader(
            VarlinkCall(method: "a.B", parameters: ["italic": "yes"]), allowed: ["italic"])
        #expect(throws: VarlinkError.invalidParameter("italic")) { try mistyped.optionalBool("italic") }
    }
}
