// swift-format-ignore-file
// (The examples are copied verbatim from GettingStarted.md and README.md.)
import Foundation
import ParleyServerTesting
import Testing

/// The Swift examples of ParleyClient's Getting Started article (and the README's client example), compiled and
/// run against a real server. `everyExampleIsHere` fails when a document changes and this file does not.
@Suite("ParleyClient Getting Started", .serialized, .timeLimit(.minutes(2)))
struct GettingStartedTests {
    struct Backend {
        let server: InProcessServer
        func chatToken() async throws -> String {
            ChannelToken.mint(channelId: "secured", userId: "alice", secret: "s3cret", lifetime: 1800)
        }
    }

    @Test func theArticleRuns() async throws {
        let channels = [
            ChannelConfiguration(id: "demo", skill: .demo),
            ChannelConfiguration(id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, skill: .echo),
        ]
        try await InProcessServer.run(channels: channels) { server in
            let serverURL = server.url
            let backend = Backend(server: server)

            var configuration = ChatClient.Configuration(url: serverURL, channelId: "demo", userId: "alice")
            configuration.initUserProfile = Profile(givenName: "Alice")
            configuration.initUserHiddenMessage = "Hello"

            let client = ChatClient(configuration: configuration)
            let events = await client.events()
            try await client.initialize()
            try await client.send(text: "Order Pizza")

            var titles: [String] = []
            var greeting: String?
            for await event in events {
                if case .messageReceived(let message) = event, greeting == nil { greeting = message.payload.text }
                guard case .messageReceived(let message) = event else { continue }
                if case .card(let cards) = message.payload.content {
                    print(cards.cards.map(\.title))   // ["Hawaiian Pizza", "Cheese Pizza", "Margherita Pizza"]
                    titles = cards.cards.map(\.title)
                    try await client.sendPostback(cards.cards[0].actions![0])   // "Order Small"
                    break
                }
            }
            #expect(greeting == "Hi Alice! Welcome to Parley Pizza.")
            #expect(titles == ["Hawaiian Pizza", "Cheese Pizza", "Margherita Pizza"])
            #expect(await client.messages().last?.payload.text == "Order Small")

            await client.setHooks(ChatClient.Hooks(
                beforeSend: { message in
                    var message = message
                    message.metadata = ["appVersion": "2.1"]
                    return message
                },
                beforeDisplay: { message in message.payload.type == .status ? nil : message }
            ))
            let sent = try await client.send(text: "thin")
            guard case .user(let envelope)? = sent?.envelope else { return }
            #expect(envelope.metadata == ["appVersion": "2.1"])
            await client.destroy()

            let secured = ChatClient.Configuration(url: serverURL) {
                try await backend.chatToken()
            }
            let securedClient = ChatClient(configuration: secured)
            try await securedClient.initialize()
            #expect(await securedClient.status == .connected)
            await securedClient.destroy()
        }

        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "demo"))
            try await client.initialize()
            #expect(await client.status == .connected)
            await client.destroy()
        }
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        func blocks(_ document: String) throws -> [String] {
            try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
                .components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        }
        let article = try blocks("Sources/ParleyClient/ParleyClient.docc/GettingStarted.md")
        let readme = try blocks("README.md").filter { $0.contains("ChatClient") }
        #expect(article.count == 5)
        #expect(readme.count == 1)
        let blocks = article + readme
        for block in blocks {
            for line in block.split(separator: "\n") where !line.hasPrefix("import ") {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
            }
        }
    }
}
