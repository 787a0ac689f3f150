// swift-format-ignore-file
// (The examples are copied verbatim from ParleyUI.docc/GettingStarted.md.)
import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

/// The Swift examples of ParleyUI's Getting Started article, compiled and run against a real server.
/// `everyExampleIsHere` fails when the article changes and this file does not.
@Suite("ParleyUI Getting Started", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct GettingStartedTests {
    @Test func theArticleRuns() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let serverURL = server.url

            var flags = ChatClient.Configuration(url: serverURL, channelId: "demo", userId: "ada")
            flags.initUserHiddenMessage = "Hello"
            flags.timestampMode = .relative
            flags.showConnectionStatus = true
            let client = ChatClient(configuration: flags)

            var look = ChatViewModel.Configuration(locale: "fr")
            look.strings[.chatTitle] = "Pizzeria"
            look.linkHandler = .webView
            let model = ChatViewModel(client: client, configuration: look)
            await model.start()
            try await client.initialize()

            await waitUntil("the question") { model.messageRows.count == 2 }
            var printed: [String] = []
            for row in model.rows {
                switch row {
                case .dayHeader(let header): print("--", header.text)
                case .message(let message): print(message.accessibilityLabel, message.timestamp ?? "")
                case .upload(let upload): print(upload.fileName, upload.statusText)
                case .typing(let typing): print(typing.text)   // "Réponse en cours…"
                }
                printed.append(row.id)
            }
            print(model.header.title, model.connectionBanner?.text ?? "")   // "Pizzeria Connecté"
            #expect(printed.count == 3, "a day header and two messages")
            #expect(model.header.title == "Pizzeria")
            #expect(model.connectionBanner?.text == "Connecté")
            #expect(model.messageRows.last?.timestamp == "À l'instant")

            if let question = model.rows.last?.message, let choice = question.actions.first {
                await model.perform(choice, in: question)   // sends the postback of "Order Pizza"
            }
            await waitUntil("the menu") { model.texts.last == "Hawaiian Pizza|Cheese Pizza|Margherita Pizza" }
            await model.send(text: "hawaiian")
            await waitUntil("the crust question") { model.texts.last?.hasPrefix("Which crust") == true }
            if model.header.showsEndConversationButton {
                model.requestEndConversation()          // shows model.endConversationPrompt
                await model.confirmEndConversation()
            }
            await waitUntil("the end") { model.conversationEnded }
            #expect(model.rows.isEmpty)
            await client.destroy()
        }
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/ParleyUI/ParleyUI.docc/GettingStarted.md"), encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        // The SwiftUI sample is Apple-only: `scripts/check-apple --typecheck` compiles it (docs/ios.md). The others
        // run here.
        let linuxBlocks = blocks.filter { !$0.contains("import SwiftUI") }
        #expect(blocks.count == 4 && linuxBlocks.count == 3)
        for block in linuxBlocks {
            for line in block.split(separator: "\n") where !line.hasPrefix("import ") {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
            }
        }
    }
}
