// swift-format-ignore-file
// (The examples are copied verbatim from ParleyWebBridge's Getting Started article.)
import Foundation
import Testing

@testable import ParleyWebBridge

/// The Swift examples of ParleyWebBridge's Getting Started article, compiled and run. The web-view example
/// needs WebKit, which Linux does not have; `everyExampleIsHere` skips that block only.
@Suite("ParleyWebBridge Getting Started")
struct DocumentationTests {
    @Test func theDecodingExampleRuns() {
        struct AppExtensions: Decodable, Sendable { var appAction: String? }

        let body = #"{"event":"agentResponded","bestResponse":{"utterance":"Opening your profile.","options":[],"extensions":{"appAction":"openProfile"}}}"#
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        switch BridgeEvent<AppExtensions>(body: body) {
        case .agentLoaded:
            print("ready for setAppInfo")
        case .agentResponded(let response):
            print(response.utterance, response.extensions?.appAction ?? "none")   // Opening your profile. openProfile
        case .error(let error):
            print(error.code, error.message)
        case .unknown(let event):
            print("ignored:", event.body)
        }
        #expect(printed == ["Opening your profile. openProfile"])
    }

    @Test func theCommandExampleRuns() {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        let command = BridgeCommand.sendMessage("He said \"hi\" </script>")
        print(command.javaScript)   // sendMessage("He said \"hi\" <\/script>");
        let login = BridgeCommand.setAppInfo(apiKey: nil, uid: "alice")
        print(login.javaScript)     // setAppInfo(null,"alice");
        #expect(printed == [#"sendMessage("He said \"hi\" <\/script>");"#, #"setAppInfo(null,"alice");"#])
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/ParleyWebBridge/ParleyWebBridge.docc/GettingStarted.md"),
            encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3)
        for block in blocks where !block.contains("WebViewBridge") {
            for line in block.split(separator: "\n") {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
            }
        }
    }
}
