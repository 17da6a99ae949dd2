import FontRegCore
import FontRegProtocol
import Varlink

extension DaemonBackend {
    /// `ResolveText` over the socket (issue 12).
    package func resolveText(_ text: String, _ query: TextQuery, explain: Bool, statingBoldText: Bool)
        throws(CLIError) -> TextReply
    {
        try translating { (client) throws(VarlinkClientError) in
            try client.resolveText(text, query, explain: explain, statingBoldText: statingBoldText)
        }
    }

    /// `FaceCoverage` over the socket (issue 12).
    package func faceCoverage(postscriptName: String, text: String) throws(CLIError) -> FaceCoverageReply {
        try translating { (client) throws(VarlinkClientError) in
            try client.faceCoverage(postscriptName: postscriptName, text: text)
        }
    }
}
