import Foundation
import ParleyServerTesting
import Testing

@testable import ParleyClient

/// The recording lifecycle as a value: every event in every state, without a microphone.
@Suite("Recording state machine")
struct RecordingStateMachineTests {
    @Test func aRecordingGoesThroughPermissionRecordingAndFinishingBackToIdle() {
        var machine = RecordingStateMachine()
        #expect(machine.handle(.start) == .perform([.requestPermission(attempt: 1), .report(.requestingPermission)]))
        #expect(
            machine.handle(.permissionGranted(attempt: 1))
                == .perform([.startCapture(attempt: 1), .report(.recording)]))
        #expect(machine.handle(.stop) == .perform([.finishAudio, .report(.finishing)]))
        #expect(machine.handle(.recognitionEnded(attempt: 1)) == .perform([.cancelCapture, .report(.idle)]))
        #expect(machine.state == .idle)
        #expect(machine.handle(.start) == .perform([.requestPermission(attempt: 2), .report(.requestingPermission)]))
    }

    @Test func startingTwiceIsRefusedInEveryBusyState() {
        var machine = RecordingStateMachine()
        _ = machine.handle(.start)
        for next in [RecordingStateMachine.Event.permissionGranted(attempt: 1), .stop] {
            guard case .refused(let error) = machine.handle(.start) else {
                Issue.record("a second start in \(machine.state) was not refused")
                return
            }
            #expect(error.code == .speechAlreadyRecording)
            _ = machine.handle(next)
        }
        #expect(machine.state == .finishing)
        guard case .refused = machine.handle(.start) else {
            Issue.record("start while finishing")
            return
        }
    }

    @Test func eventsOfAnOldAttemptOrTheWrongStateAreIgnored() {
        var machine = RecordingStateMachine()
        #expect(machine.handle(.stop) == .ignored, "stopping while idle does nothing")
        #expect(machine.handle(.recognitionEnded(attempt: 0)) == .ignored)
        _ = machine.handle(.start)
        #expect(machine.handle(.stop) == .perform([.report(.idle)]), "stopped while the permission is asked")
        // The permission answer of the abandoned attempt comes late: nothing starts.
        #expect(machine.handle(.permissionGranted(attempt: 1)) == .ignored)
        _ = machine.handle(.start)
        #expect(machine.handle(.permissionGranted(attempt: 1)) == .ignored, "attempt 1 is over")
        #expect(machine.handle(.permissionDenied(attempt: 2)) == .perform([.report(.idle)]))
        _ = machine.handle(.start)
        _ = machine.handle(.permissionGranted(attempt: 3))
        #expect(machine.handle(.recognitionEnded(attempt: 2)) == .ignored)
        #expect(machine.handle(.audioEnded(attempt: 3)) == .perform([.finishAudio, .report(.finishing)]))
        #expect(machine.handle(.audioEnded(attempt: 3)) == .ignored)
        #expect(machine.handle(.stop) == .ignored, "already finishing")
        #expect(machine.handle(.permissionGranted(attempt: 3)) == .ignored)
        #expect(machine.handle(.cancel) == .perform([.cancelCapture, .report(.idle)]))
        #expect(machine.handle(.cancel) == .ignored)
    }

    @Test func theRecognizerMayEndTheUtteranceWhileRecording() {
        var machine = RecordingStateMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.permissionGranted(attempt: 1))
        #expect(machine.handle(.recognitionEnded(attempt: 1)) == .perform([.cancelCapture, .report(.idle)]))
    }
}

@Suite("Speech pieces")
struct SpeechPieceTests {
    static let voices = [
        SynthesisVoice(engine: "e", identifier: "en-1", name: "Ava", language: "en-US", quality: "enhanced"),
        SynthesisVoice(engine: "e", identifier: "en-2", name: "Tom", language: "en-US", quality: "default"),
        SynthesisVoice(engine: "e", identifier: "fr-1", name: "Amélie", language: "fr-FR", quality: "enhanced"),
    ]

    @Test func voicePreferencesFallBackFromNameToLanguageToTheEngineDefault() {
        let choose = { VoicePreference.choose($0, from: Self.voices)?.identifier }
        #expect(choose([VoicePreference(language: "en-us", name: "ava")]) == "en-1", "name and language match")
        #expect(
            choose([
                VoicePreference(language: "de-DE", name: "Hans"), VoicePreference(language: "fr_FR", name: "Amélie"),
            ])
                == "fr-1", "a later preference's exact match beats an earlier one's language")
        #expect(choose([VoicePreference(language: "en-US", name: "Zoe")]) == "en-2", "the language's default voice")
        #expect(choose([VoicePreference(language: "fr-FR")]) == "fr-1", "the language's only voice")
        #expect(choose([VoicePreference(language: "en-US", name: "Amélie")]) == "en-2", "a name in another language")
        #expect(choose([VoicePreference(language: "ja-JP", name: "Kyoko")]) == nil, "the engine's default")
        #expect(choose([]) == nil)
    }

    /// The frames of `docs/protocol.md` §5.1.
    @Test func recognitionFramesBecomeUpdates() {
        let parse = ServerSpeechService.update(from:)
        #expect(
            parse(#"{"event":"partialResult","requestId":"r1","nbest":[{"utterance":"turn on"}]}"#)
                == .partial("turn on"))
        #expect(
            parse(
                #"{"event":"finalResult","requestId":"r1","nbest":[{"utterance":"turn on the lights"},{"utterance":"turn off the lights"}]}"#
            )
                == .final(
                    SpeechResult(
                        requestId: "r1", text: "turn on the lights",
                        alternatives: ["turn on the lights", "turn off the lights"])))
        #expect(parse(#"{"event":"finalResult","requestId":"r2","nbest":[]}"#) == .noSpeech)
        #expect(parse(#"{"event":"finalResult","requestId":"r3","nbest":[],"resultCode":"1"}"#) == .tooMuchSpeech)
        #expect(parse(#"{"code":"ERR","message":"busy"}"#) == nil, "a frame with a code and no event is ignored")
        #expect(parse("not json") == nil)
    }

    @Test func cardsAreReadAsTheirText() throws {
        let cards = MessagePayload(
            .card(
                .init(
                    layout: .horizontal,
                    cards: [Card(title: "Cheese Pizza", description: "Classic"), Card(title: "Veggie")])))
        #expect(ChatClient.spokenText(cards) == "Cheese Pizza. Classic. Veggie")
        #expect(ChatClient.spokenText(.text("Hi")) == "Hi")
        #expect(ChatClient.spokenText(.text("")) == nil)
    }
}

/// A speaker that keeps what it was given.
actor RecordingSink: AudioSink {
    private(set) var played: [AudioBuffer] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    nonisolated func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
        let chunks = try await audio.collect()
        await keep(chunks)
    }

    private func keep(_ chunks: [AudioBuffer]) {
        played.append(contentsOf: chunks)
        waiters.forEach { $0.resume() }
        waiters = []
    }

    /// Waits until something was played.
    func waitForAudio() async {
        guard played.isEmpty else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// A speaker on a machine without one.
struct DeadSink: AudioSink {
    func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
        throw ParleyError(.audioDeviceUnavailable, "no default audio device configured")
    }
}

/// The app's own text-to-speech (Oracle's `ttsService`): keeps the texts.
actor RecordingTTS: TTSService {
    private(set) var spoken: [String] = []
    private(set) var stops = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func speak(text: String) async {
        spoken.append(text)
        let ready = waiters.filter { $0.0 <= spoken.count }
        waiters.removeAll { $0.0 <= spoken.count }
        ready.forEach { $0.1.resume() }
    }

    func stopSpeech() async { stops += 1 }
    func isSpeaking() async -> Bool { false }

    func waitFor(_ count: Int) async {
        guard spoken.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

/// Audio: `before` samples of silence, a 440 Hz tone of `tone` samples, `after` samples of silence (16 kHz).
func toneAudio(before: Int = 8_000, tone: Int = 16_000, after: Int = 16_000) -> AudioBuffer {
    let wave = (0..<tone).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
    return AudioBuffer(samples: [Int16](repeating: 0, count: before) + wave + [Int16](repeating: 0, count: after))
}

/// What a recording reports, up to its result (or failure) and the return to idle.
struct RecordingLog {
    var states: [RecordingState] = []
    var partials: [String] = []
    var finals: [String] = []
    var levels: [AudioLevel] = []
    var recognized: (SpeechResult, Bool)?
    var failures: [ParleyError] = []
    /// Messages from the other side that arrived while recording (a fast echo can beat the return to idle).
    var received: [ChatMessage] = []

    /// The first reply: one that came during the recording, or the next one.
    mutating func reply(_ events: inout EventReader) async throws -> ChatMessage {
        if !received.isEmpty { return received.removeFirst() }
        return try await events.received()
    }

    /// Reads events until the recording is idle again after it started.
    static func read(_ events: inout EventReader) async throws -> RecordingLog {
        var log = RecordingLog()
        while true {
            let event = try await events.next("a speech event") { event -> ChatEvent? in
                switch event {
                case .recordingChanged, .speechResponseReceived, .audioLevel, .speechRecognized, .speechFailed,
                    .messageReceived:
                    event
                default: nil
                }
            }
            switch event {
            case .recordingChanged(let state):
                log.states.append(state)
                if state == .idle, log.recognized != nil || !log.failures.isEmpty { return log }
            case .speechResponseReceived(let text, let final):
                if final { log.finals.append(text) } else { log.partials.append(text) }
            case .audioLevel(let level): log.levels.append(level)
            case .speechRecognized(let result, let sent): log.recognized = (result, sent)
            case .speechFailed(let error): log.failures.append(error)
            case .messageReceived(let message): log.received.append(message)
            default: break
            }
        }
    }
}

@Suite("ChatClient speech", .serialized, .timeLimit(.minutes(2)))
struct ChatClientSpeechTests {
    func client(
        _ server: InProcessServer, channel: String = "demo", recognizer: any StreamingRecognizer,
        microphone: any AudioSource = BufferAudioSource(toneAudio()),
        permissions: FixedPermissionSource = .grantingAll, speaker: any AudioSink = DeadSink(),
        configure: (inout ChatClient.Configuration) -> Void = { _ in }
    ) -> ChatClient {
        var configuration = ChatClient.Configuration(url: server.url, channelId: channel, userId: "val")
        configuration.enableSpeechRecognition = true
        configure(&configuration)
        let setup = ChatClient.SpeechSetup(
            service: OnDeviceSpeechService(recognizer: recognizer), microphone: microphone, speaker: speaker,
            permissions: permissions)
        return ChatClient(configuration: configuration, speech: setup)
    }

    @Test func withoutAutoSendTheTextIsHandedToTheAppAndNothingIsSent() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let client = client(server, recognizer: ScriptedStreamingRecognizer(transcripts: ["order a pizza"])) {
                $0.enableAutoSendSpeechResponse = false
            }
            var events = EventReader(await client.events())
            try await client.initialize()
            let before = await client.messages().count
            try await client.startRecording()
            let log = try await RecordingLog.read(&events)
            #expect(log.states == [.requestingPermission, .recording, .finishing, .idle])
            #expect(log.partials == ["order", "order a", "order a pizza"])
            #expect(log.finals == ["order a pizza"])
            #expect(log.recognized?.0.text == "order a pizza")
            #expect(log.recognized?.1 == false)
            // One level per 100 ms chunk while recording: the tone is loud, the silence is the floor.
            #expect(log.levels.count >= 10)
            #expect(log.levels.contains { $0.dBFS > -20 }, "a sine of amplitude 8,000 is about -15 dBFS")
            #expect(log.levels.first?.dBFS == AudioLevel.floor)
            #expect(await client.messages().count == before, "nothing was sent")
            #expect(await client.recordingState == .idle)
            await client.destroy()
        }
    }

    /// Oracle's listener callbacks, in event order: partial and final texts, and a level per chunk.
    final class SpeechListener: ChatEventListener {
        enum Call: Sendable, Hashable {
            case text(String, final: Bool)
            case level
        }
        let calls: AsyncStream<Call>.Continuation
        init(_ calls: AsyncStream<Call>.Continuation) { self.calls = calls }
        func onSpeechResponseReceived(data: String, final: Bool) async { calls.yield(.text(data, final: final)) }
        func onAudioReceived(level: AudioLevel) async { calls.yield(.level) }
    }

    @Test func theListenerHearsTextsAndLevels() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let client = client(server, recognizer: ScriptedStreamingRecognizer(transcripts: ["order a pizza"]))
            let (calls, log) = AsyncStream.makeStream(of: SpeechListener.Call.self)
            let listener = SpeechListener(log)
            await client.setListener(listener)
            try await client.initialize()
            try await client.startRecording()
            var texts: [SpeechListener.Call] = []
            var levels = 0
            for await call in calls {
                if call == .level { levels += 1 } else { texts.append(call) }
                if call == .text("order a pizza", final: true) { break }
            }
            #expect(
                texts == [
                    .text("order", final: false), .text("order a", final: false), .text("order a pizza", final: false),
                    .text("order a pizza", final: true),
                ])
            #expect(levels >= 10, "a level per 100 ms chunk until the end of speech")
            await client.destroy()
        }
    }

    @Test func refusalsAreTypedErrorsAndEvents() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let denied = client(
                server, recognizer: ScriptedStreamingRecognizer(transcripts: ["x"]),
                permissions: FixedPermissionSource([.microphone: .denied(reason: "the user said no")]))
            var events = EventReader(await denied.events())
            try await denied.initialize()
            do throws(ParleyError) {
                try await denied.startRecording()
            } catch {
                #expect(error.code == .speechPermissionDenied)
                #expect(error.message.contains("the user said no"))
            }
            let log = try await RecordingLog.read(&events)
            #expect(log.states == [.requestingPermission, .idle])
            #expect(log.failures.map(\.code) == [.speechPermissionDenied])
            #expect(await denied.recordingState == .idle)
            await denied.destroy()

            let french = client(server, recognizer: ScriptedStreamingRecognizer(transcripts: ["x"])) {
                $0.speechLocale = "fr-fr"
            }
            try await french.initialize()
            do throws(ParleyError) {
                try await french.startRecording()
                Issue.record("PocketSphinx-like engines here speak en-US only")
            } catch {
                #expect(error.code == .speechUnsupportedLocale)
            }
            #expect(await french.setSpeechLocale("en_US") == true)
            #expect(await french.setSpeechLocale("xx-yy") == false)
            await french.destroy()

            let off = client(server, recognizer: ScriptedStreamingRecognizer(transcripts: ["x"])) {
                $0.enableSpeechRecognition = false
            }
            try await off.initialize()
            await #expect(
                throws: ParleyError(.featureDisabled, "speech input is switched off (enableSpeechRecognition is false)")
            ) {
                try await off.startRecording()
            }
            await off.destroy()
        }
    }

    @Test func silenceIsNoSpeechAndStoppingEndsARecordingEarly() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let quiet = client(
                server, recognizer: ScriptedStreamingRecognizer(transcripts: ["never"]),
                microphone: BufferAudioSource(AudioBuffer(samples: [Int16](repeating: 0, count: 8_000))))
            var events = EventReader(await quiet.events())
            try await quiet.initialize()
            try await quiet.startRecording()
            let log = try await RecordingLog.read(&events)
            #expect(log.failures.map(\.code) == [.speechNoSpeech])
            #expect(log.recognized == nil)
            await quiet.destroy()
        }
    }

    @Test func repliesAreReadAloudThroughTheInjectedTTSServiceWhenUnmuted() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let tts = RecordingTTS()
            let client = client(server, recognizer: ScriptedStreamingRecognizer(transcripts: [])) {
                $0.enableSpeechSynthesis = true
                $0.ttsService = tts
            }
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(await client.isSpeechSynthesisMuted, "initSpeechSynthesisMuted is true by default")
            await client.setSpeechSynthesisMuted(false)
            try await client.send(text: "Order Pizza")
            let reply = try await events.received()
            await tts.waitFor(1)
            let spoken = await tts.spoken
            #expect(spoken.first == ChatClient.spokenText(reply.payload))
            #expect(!(spoken.first ?? "").isEmpty)
            await client.setSpeechSynthesisMuted(true)
            #expect(await tts.stops == 1, "muting stops what is being read")
            await client.destroy()
        }
    }
}

/// The real WebSocket transport, keeping every frame the client writes (to read the wire form of a message).
actor FrameTap: ChatTransport {
    private(set) var sent: [String] = []
    private let base = WebSocketTransport()

    private func keep(_ text: String) { sent.append(text) }

    nonisolated func connect(
        to url: URL, headers: [String: String], session: @escaping @Sendable (TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        try await base.connect(to: url, headers: headers) { connection in
            let tapped = TransportConnection(
                inbound: connection.inbound,
                send: { text in
                    await self.keep(text)
                    try await connection.send(text)
                }, close: { await connection.close($0, reason: $1) })
            try await session(tapped)
        }
    }
}

/// Real speech through the real engines: espeak-ng speaks the user's words, PocketSphinx hears them in the client's
/// process, the real server's skill answers, and espeak-ng reads the answer into a recording speaker.
@Suite("On-device speech end to end", .serialized, .timeLimit(.minutes(2)))
struct OnDeviceSpeechEndToEndTests {
    static let phrases = ["turn on the lights", "turn off the lights", "go to sleep", "play some music"]

    /// `text` spoken by espeak-ng at 16 kHz, between silences.
    static func speech(_ text: String) async throws -> AudioBuffer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-client-sr-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav")
        try await EspeakSynthesizer().synthesize(SynthesisRequest(text: text), to: wav)
        let chunks = try await SoxAudioSource.file(wav).frames().collect()
        let silence = { [Int16](repeating: 0, count: $0) }
        return AudioBuffer(samples: silence(4_800) + chunks.flatMap(\.samples) + silence(24_000))
    }

    @Test func spokenWordsReachTheServerWithTheirSpeechIdAndTheReplyIsReadAloud() async throws {
        let audio = try await Self.speech("turn on the lights")
        try await RecordingBot.run { bot, webhook in
            _ = try await InProcessServer.run(channels: [ChannelConfiguration(id: "voice", skill: .webhook(webhook))]) {
                server in
                var configuration = ChatClient.Configuration(url: server.url, channelId: "voice", userId: "val")
                configuration.enableSpeechRecognition = true
                configuration.enableSpeechSynthesis = true
                configuration.initSpeechSynthesisMuted = false
                configuration.speechSynthesisVoicePreferences = [VoicePreference(language: "en-us")]
                let speaker = RecordingSink()
                let tap = FrameTap()
                let service = OnDeviceSpeechService(
                    recognizer: PocketsphinxStreamingRecognizer(), synthesizer: EspeakSynthesizer(),
                    request: StreamingRecognitionRequest(phrases: Self.phrases))
                let client = ChatClient(
                    configuration: configuration, transport: tap,
                    speech: ChatClient.SpeechSetup(
                        service: service, microphone: BufferAudioSource(audio), speaker: speaker,
                        permissions: FixedPermissionSource.grantingAll))
                var events = EventReader(await client.events())
                try await client.initialize()
                try await client.startRecording()
                var log = try await RecordingLog.read(&events)
                #expect(log.failures.isEmpty, "\(log.failures)")
                #expect(!log.partials.isEmpty)
                #expect(log.partials.allSatisfy { "turn on the lights".hasPrefix($0) }, "\(log.partials)")
                #expect(log.finals == ["turn on the lights"])
                let (result, sent) = try #require(log.recognized)
                #expect(sent)
                #expect(result.text == "turn on the lights")

                #expect(try await log.reply(&events).payload.text == "echo: turn on the lights")
                let request = try #require(await bot.requests.last)
                #expect(request["messagePayload"]?["text"]?.stringValue == "turn on the lights")
                // The wire form the server got: a text message with sdkMetadata.speechId = the request id.
                let frames = await tap.sent.compactMap { try? JSONValue(parsing: $0) }
                let spoken = try #require(frames.first { $0["messagePayload"]?["text"] == "turn on the lights" })
                #expect(spoken["sdkMetadata"]?["speechId"]?.stringValue == result.requestId)
                let user = try #require(await client.messages().first { $0.sender == .user })
                guard case .user(let message) = user.envelope else {
                    Issue.record("not a user message")
                    return
                }
                #expect(message.sdkMetadata?.speechId == result.requestId)

                // The reply, read by espeak-ng into the speaker.
                await speaker.waitForAudio()
                let played = await speaker.played
                #expect(played.allSatisfy { $0.sampleRate == 22_050 })
                let seconds = Double(played.map(\.samples.count).reduce(0, +)) / 22_050
                #expect(seconds > 0.8 && seconds < 5, "\(seconds) s of \"echo: turn on the lights\"")
                #expect(played.flatMap(\.samples).contains { abs(Int($0)) > 1_000 }, "speech, not silence")
                await client.destroy()
            }
        }
    }
}
