import Foundation
import ParleyServerTesting
import Testing

/// Heartbeats, reconnects, the transcript across launches and the listener.
@Suite("Chat client connection and transcript", .serialized, .timeLimit(.minutes(2)))
struct ConnectionTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    @Test func theClientReconnectsAfterTheServerRestarts() async throws {
        let port = try freePort()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-restart-\(UUID())")
        var configuration = ChatClient.Configuration(
            url: URL(string: "http://127.0.0.1:\(port)")!, channelId: "echo", userId: "eve")
        configuration.reconnect = .init(initialDelay: .milliseconds(50), jitter: false)
        let client = ChatClient(configuration: configuration)
        var events = EventReader(await client.events())
        try await InProcessServer.run(channels: [Self.echo], dataDirectory: data, configure: { $0.port = port }) { _ in
            try await client.initialize()
            try await client.send(text: "before")
            try await events.expectReply("before")
        }
        try await events.status(.connecting)  // the server went away: the client tries again
        try await InProcessServer.run(channels: [Self.echo], dataDirectory: data, configure: { $0.port = port }) { _ in
            try await events.status(.connected)
            try await client.send(text: "after")
            try await events.expectReply("after")
        }
        #expect(await client.messages().compactMap(\.payload.text) == ["before", "before", "after", "after"])
        await client.destroy()
    }

    @Test func aSocketThatStopsAnsweringIsReplaced() async throws {
        try await InProcessServer.run(channels: [Self.echo]) { server in
            let saboteur = Saboteur()
            var configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "fay")
            configuration.heartbeatInterval = .milliseconds(50)
            configuration.pongTimeout = .milliseconds(100)
            configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
            let client = ChatClient(configuration: configuration, transport: saboteur.transport)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await events.status(.connected)

            await saboteur.setSwallowPongs(true)  // a zombie: the socket is open but nothing comes back
            let error = try await events.error()
            #expect(error.code == .heartbeatTimeout)
            try await events.status(.connecting)
            await saboteur.setSwallowPongs(false)
            try await events.status(.connected)
            try await client.send(text: "still here")
            try await events.expectReply("still here")
            await client.destroy()
        }
    }

    @Test func aDroppedConnectionIsReopenedAndTheConversationGoesOn() async throws {
        try await InProcessServer.run(channels: [Self.echo]) { server in
            let saboteur = Saboteur()
            var configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "gus")
            configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
            let client = ChatClient(configuration: configuration, transport: saboteur.transport)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await events.status(.connected)
            await saboteur.cutAll()
            try await events.status(.connecting)
            try await events.status(.connected)
            try await client.send(text: "again")
            try await events.expectReply("again")
            await client.destroy()
        }
    }

    @Test func theTranscriptSurvivesARelaunchUntilCleared() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-transcript-\(UUID())")
        try await InProcessServer.run(channels: [Self.echo]) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "hal")
            configuration.storageFolder = folder
            configuration.initUserHiddenMessage = "hidden hello"

            let first = ChatClient(configuration: configuration)
            var events = EventReader(await first.events())
            try await first.initialize()
            try await events.expectReply("hidden hello")
            try await first.send(text: "one")
            try await events.expectReply("one")
            await first.destroy()

            let second = ChatClient(configuration: configuration)  // a relaunch
            events = EventReader(await second.events())
            try await second.initialize()
            let kept = await second.messages()
            #expect(kept.map(\.sender) == [.bot, .user, .bot])
            #expect(kept.compactMap(\.payload.text) == ["hidden hello", "one", "one"])
            try await second.send(text: "two")
            let reply = try await events.received()
            #expect(reply.payload.text == "two", "no second hidden message for a conversation that has a history")

            try await second.clearMessages()
            _ = try await events.next("cleared") { if case .transcriptCleared = $0 { () } else { nil } }
            #expect(await second.messages().isEmpty)
            await second.destroy()
            let third = ChatClient(configuration: configuration)
            try await third.initialize()
            #expect(await third.messages().count <= 1, "at most the new hidden message's answer")
            await third.destroy()
        }
    }

    @Test func aListenerGetsTheSeedsCallbacksInOrder() async throws {
        try await InProcessServer.run(channels: [Self.echo]) { server in
            let listener = RecordingListener()
            let client = ChatClient(configuration: .init(url: server.url, channelId: "echo", userId: "ida"))
            await client.setListener(listener)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await client.send(text: "hi")
            try await events.expectReply("hi")
            await client.destroy()
            var calls = listener.calls.makeAsyncIterator()
            var seen: [String] = []
            while let call = await calls.next(), call != "onDestroy" { seen.append(call) }
            #expect(
                seen == [
                    "onInitialize", "onStatusChange(connecting)", "onStatusChange(connected)", "onReceiveMessage(hi)",
                    "onStatusChange(disconnected)",
                ])
            withExtendedLifetime(listener) {}
        }
    }
}

/// A listener that writes down what it was told.
final class RecordingListener: ChatEventListener {
    let calls: AsyncStream<String>
    private let log: AsyncStream<String>.Continuation

    init() {
        (calls, log) = AsyncStream.makeStream(of: String.self)
    }

    func onInitialize() { log.yield("onInitialize") }
    func onStatusChange(connectionStatus: ConnectionStatus) { log.yield("onStatusChange(\(connectionStatus))") }
    func onReceiveMessage(message: ChatMessage) { log.yield("onReceiveMessage(\(message.payload.text ?? ""))") }
    func onDestroy() { log.yield("onDestroy") }
}
