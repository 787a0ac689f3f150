import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Oracle's `BotsEventListener` through ``ChatEventListener``: one conversation against the real in-process server
/// that makes the client call every callback the listener has, each with the argument the seed describes, in order.
@Suite("Chat event listener", .serialized, .timeLimit(.minutes(1)))
struct ListenerTests {
    /// A listener that writes down every callback, with its argument, in the order it was called.
    final class EveryCallback: ChatEventListener {
        enum Call: Sendable, Hashable {
            case initialize
            case status(ConnectionStatus)
            case receive(String?)
            case upload(ParleyCore.Attachment)
            case language(String?)
            case beforeEnd
            case chatEnd
            case error(ParleyError.Code)
            case speech(String, final: Bool)
            case audio(dBFS: Double)
            case destroy

            var isAudio: Bool { if case .audio = self { true } else { false } }
        }

        let calls: AsyncStream<Call>
        private let log: AsyncStream<Call>.Continuation

        init() {
            (calls, log) = AsyncStream.makeStream(of: Call.self)
        }

        func onStatusChange(connectionStatus: ConnectionStatus) async { log.yield(.status(connectionStatus)) }
        func onReceiveMessage(message: ChatMessage) async { log.yield(.receive(message.payload.text)) }
        func onUploadAttachment(attachment: ParleyCore.Attachment) async { log.yield(.upload(attachment)) }
        func onInitialize() async { log.yield(.initialize) }
        func onDestroy() async { log.yield(.destroy) }
        func onChatLanguageChange(newLanguage: String?) async { log.yield(.language(newLanguage)) }
        func beforeEndConversation() async -> EndConversationStatus {
            log.yield(.beforeEnd)
            return .success
        }
        func chatEnd() async { log.yield(.chatEnd) }
        func onError(error: ParleyError) async { log.yield(.error(error.code)) }
        func onSpeechResponseReceived(data: String, final: Bool) async { log.yield(.speech(data, final: final)) }
        func onAudioReceived(level: AudioLevel) async { log.yield(.audio(dBFS: level.dBFS)) }
    }

    /// Reads the listener's calls in order, keeping every one.
    struct CallReader {
        var iterator: AsyncStream<EveryCallback.Call>.Iterator
        var seen: [EveryCallback.Call] = []

        /// Reads calls up to and including the first one `match` accepts, and returns it.
        @discardableResult
        mutating func until(
            _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
            _ match: (EveryCallback.Call) -> Bool
        ) async throws -> EveryCallback.Call {
            while let call = await iterator.next(isolation: #isolation) {
                seen.append(call)
                if match(call) { return call }
            }
            Issue.record("the listener's calls ended before \(what)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }

    @Test func everyCallbackIsCalledWithTheSeedsArgumentInOrder() async throws {
        let port = try freePort()
        var configuration = ChatClient.Configuration(url: .loopback(port: port), channelId: "echo", userId: "lis")
        configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
        configuration.multiLangChat = MultiLangChat(
            supportedLanguages: [SupportedLanguage(lang: "en"), SupportedLanguage(lang: "fr")])
        configuration.enableSpeechRecognition = true
        configuration.enableAutoSendSpeechResponse = false
        let speech = ChatClient.SpeechSetup(
            service: OnDeviceSpeechService(recognizer: ScriptedStreamingRecognizer(transcripts: ["order a pizza"])),
            microphone: BufferAudioSource(toneAudio()), speaker: DeadSink(),
            permissions: FixedPermissionSource.grantingAll)
        let client = ChatClient(configuration: configuration, speech: speech)
        let listener = EveryCallback()
        await client.setListener(listener)
        var calls = CallReader(iterator: listener.calls.makeAsyncIterator())
        var events = EventReader(await client.events())
        let echo = [ChannelConfiguration(id: "echo", skill: .echo)]
        var uploadedAttachment: ParleyCore.Attachment?
        try await InProcessServer.run(channels: echo, configure: { $0.port = port }) { server in

            // onInitialize, then onStatusChange as the socket opens.
            try await client.initialize()
            try await calls.until("connected") { $0 == .status(.connected) }

            // onReceiveMessage with the skill's message.
            try await client.send(text: "hi")
            try await calls.until("the echo") { $0 == .receive("hi") }

            // onUploadAttachment with the attachment the server stored, before the skill's answer to it.
            let file = Data("%PDF-1.7\n".utf8) + Data((0..<2000).map { UInt8($0 % 251) })
            let sent = try #require(
                try await client.sendAttachment(file, fileName: "menu.pdf", mimeType: "application/pdf"))
            let uploadCall = try await calls.until("the upload") { if case .upload = $0 { true } else { false } }
            guard case .upload(let uploaded) = uploadCall else { return }
            uploadedAttachment = uploaded
            #expect(sent.payload == .attachment(uploaded), "the callback has the attachment that was sent")
            #expect(uploaded.type == .file)
            #expect(uploaded.title == "menu.pdf")
            let (stored, _) = try await URLSession.shared.data(from: try #require(URL(string: uploaded.url)))
            #expect(stored == file, "the callback's URL is the server's copy of the file")
            try await calls.until("the skill's answer") { $0 == .receive("attachment") }

            // onChatLanguageChange with the language chosen (a tag of the menu), then nil for detection.
            try await client.setPrimaryLanguage("fr-CA")
            try await calls.until("French") { $0 == .language("fr") }
            try await client.setPrimaryLanguage(nil)
            try await calls.until("detection") { $0 == .language(nil) }

            // onSpeechResponseReceived (partial texts, then the final one) and onAudioReceived while recording.
            try await client.startRecording()
            try await calls.until("the final text") { $0 == .speech("order a pizza", final: true) }
            _ = try await events.next("the recording's end") { event in
                if case .recordingChanged(.idle) = event { () } else { nil }
            }

            // beforeEndConversation, the skill's goodbye, the socket closing, then chatEnd.
            try await client.endChat()
            try await calls.until("the end") { $0 == .chatEnd }

            // A new conversation, for what follows.
            try await client.connect()
            try await calls.until("connected again") { $0 == .status(.connected) }
        }
        // onError with the server's code, for a failure no call returned: the server went away, and the one that
        // comes back at its address no longer has the channel, so reconnecting ends in a final refusal.
        try await calls.until("the reconnect") { $0 == .status(.connecting) }
        try await InProcessServer.run(
            channels: [ChannelConfiguration(id: "other", skill: .echo)], configure: { $0.port = port }
        ) { _ in
            try await calls.until("the refusal") { if case .error = $0 { true } else { false } }
            try await calls.until("the end of reconnecting") { $0 == .status(.disconnected) }
        }

        // onDestroy.
        await client.destroy()
        try await calls.until("the destroy") { $0 == .destroy }

        let uploaded = try #require(uploadedAttachment)
        let levels = calls.seen.compactMap { call -> Double? in if case .audio(let dBFS) = call { dBFS } else { nil } }
        #expect(levels.count >= 10, "a level per 100 ms chunk while recording")
        #expect(levels.first == AudioLevel.floor, "the recording starts with silence")
        #expect(levels.contains { $0 > -20 }, "a sine of amplitude 8,000 is about -15 dBFS")
        #expect(levels.allSatisfy { $0 >= AudioLevel.floor && $0 <= 0 })
        #expect(
            calls.seen.filter { !$0.isAudio } == [
                .initialize, .status(.connecting), .status(.connected),
                .receive("hi"),
                .upload(uploaded), .receive("attachment"),
                .language("fr"), .language(nil),
                .speech("order", final: false), .speech("order a", final: false),
                .speech("order a pizza", final: false), .speech("order a pizza", final: true),
                .beforeEnd, .receive("closeSession"), .status(.disconnected), .chatEnd,
                .status(.connecting), .status(.connected),
                .status(.connecting), .error(.unknownChannel), .status(.disconnected),
                .destroy,
            ])
        withExtendedLifetime(listener) {}
    }
}
