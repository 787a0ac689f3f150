import Foundation
import ParleyCore
import ParleyServer
import ParleyServerTesting
import ParleySpeech
import Testing

@testable import ParleyClient

/// An audio session that keeps every call, can refuse, and sends the events a test gives it.
actor ScriptedAudioSession: AudioSessionControl {
    private(set) var calls: [String] = []
    private var refusal: ParleyError?
    private var waiters: [(String, CheckedContinuation<Void, Never>)] = []
    private nonisolated let stream: AsyncStream<AudioSessionEvent>
    private nonisolated let sink: AsyncStream<AudioSessionEvent>.Continuation

    init(refusing refusal: ParleyError? = nil) {
        self.refusal = refusal
        (stream, sink) = AsyncStream.makeStream(of: AudioSessionEvent.self)
    }

    func begin(_ use: AudioSessionUsage.Use) async throws(ParleyError) {
        if let refusal { throw refusal }
        note("begin \(use.rawValue)")
    }

    func end(_ use: AudioSessionUsage.Use) async {
        note("end \(use.rawValue)")
    }

    nonisolated func events() -> AsyncStream<AudioSessionEvent> { stream }

    /// The platform reports `event`.
    nonisolated func send(_ event: AudioSessionEvent) { sink.yield(event) }

    /// Something else happened (the microphone opened, say), in order with the calls.
    func note(_ call: String) {
        calls.append(call)
        let ready = waiters.filter { $0.0 == call }
        waiters.removeAll { $0.0 == call }
        ready.forEach { $0.1.resume() }
    }

    /// Waits until `call` has happened.
    func waitFor(_ call: String) async {
        guard !calls.contains(call) else { return }
        await withCheckedContinuation { waiters.append((call, $0)) }
    }
}

/// A microphone that tells the session when it opens, hands out `audio`, then stays open (a quiet room) unless
/// `ends`.
struct NotingMicrophone: AudioSource {
    let session: ScriptedAudioSession
    var audio: AudioBuffer
    var ends = true

    func frames() -> SpeechStream<AudioBuffer> {
        let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
        let task = Task {
            await session.note("microphone opened")
            for chunk in (try? await BufferAudioSource(audio).frames().collect()) ?? [] {
                continuation.yield(chunk)
            }
            if ends { continuation.finish() }
        }
        continuation.onTermination { task.cancel() }
        return stream
    }
}

/// A synthesiser that speaks every text as 100 ms of a tone at 22,050 Hz.
struct ToneSynthesizer: StreamingSynthesizer {
    let engine = "tone"
    func voices() async throws(ParleyError) -> [SynthesisVoice] { [] }
    func synthesize(_ request: SynthesisRequest, to file: URL) async throws(ParleyError) {}
    func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer> {
        .of([AudioBuffer(samples: [Int16](repeating: 4_000, count: 2_205), sampleRate: 22_050)])
    }
}

/// The app's text-to-speech, counting the texts and the stops.
actor CountingTTS: TTSService {
    private(set) var spoken: [String] = []
    private(set) var stops = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func speak(text: String) async { spoken.append(text) }
    func isSpeaking() async -> Bool { false }

    func stopSpeech() async {
        stops += 1
        let ready = waiters.filter { $0.0 <= stops }
        waiters.removeAll { $0.0 <= stops }
        ready.forEach { $0.1.resume() }
    }

    /// Waits until reading was stopped `count` times.
    func waitForStops(_ count: Int) async {
        guard stops < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

@Suite("ChatClient audio session", .serialized, .timeLimit(.minutes(2)))
struct ChatClientAudioSessionTests {
    func client(
        _ server: InProcessServer, session: ScriptedAudioSession, microphone: any AudioSource,
        transcripts: [String] = ["order a pizza"]
    ) -> ChatClient {
        var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "val")
        configuration.enableSpeechRecognition = true
        configuration.enableAutoSendSpeechResponse = false
        let setup = ChatClient.SpeechSetup(
            service: OnDeviceSpeechService(recognizer: ScriptedStreamingRecognizer(transcripts: transcripts)),
            microphone: microphone, speaker: RecordingSink(), permissions: FixedPermissionSource.grantingAll,
            audioSession: session)
        return ChatClient(configuration: configuration, speech: setup)
    }

    @Test func theSessionIsActivatedBeforeTheMicrophoneOpensAndGivenBackAfter() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let session = ScriptedAudioSession()
            let client = client(
                server, session: session, microphone: NotingMicrophone(session: session, audio: toneAudio()))
            var events = EventReader(await client.events())
            try await client.initialize()
            try await client.startRecording()
            let log = try await RecordingLog.read(&events)
            #expect(log.recognized?.0.text == "order a pizza")
            await session.waitFor("end recording")
            #expect(await session.calls == ["begin recording", "microphone opened", "end recording"])
            await client.destroy()
        }
    }

    @Test func aRefusedSessionIsATypedErrorAndTheMicrophoneStaysClosed() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let refusal = ParleyError(.audioDeviceUnavailable, "AVAudioSession did not activate: busy")
            let session = ScriptedAudioSession(refusing: refusal)
            let client = client(
                server, session: session, microphone: NotingMicrophone(session: session, audio: toneAudio()))
            var events = EventReader(await client.events())
            try await client.initialize()
            await #expect(throws: refusal) { try await client.startRecording() }
            let log = try await RecordingLog.read(&events)
            #expect(log.states == [.requestingPermission, .idle])
            #expect(log.failures == [refusal])
            #expect(await session.calls.isEmpty, "no microphone, nothing to give back")
            #expect(await client.recordingState == .idle)
            await client.destroy()
        }
    }

    @Test func anInterruptionStopsTheMicrophoneAndGivesTheSessionBack() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let session = ScriptedAudioSession()
            // A microphone that stays open: only the interruption ends this recording.
            let microphone = NotingMicrophone(session: session, audio: AudioBuffer(samples: []), ends: false)
            let client = client(server, session: session, microphone: microphone)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await client.startRecording()
            await session.waitFor("microphone opened")
            #expect(await client.recordingState == .recording)
            session.send(.interruptionBegan)
            var states: [RecordingState] = []
            while states.last != .idle {
                let event = try await events.next("a recording state") { event -> RecordingState? in
                    if case .recordingChanged(let state) = event { state } else { nil }
                }
                states.append(event)
            }
            #expect(states == [.requestingPermission, .recording, .finishing, .idle])
            await session.waitFor("end recording")
            #expect(await session.calls == ["begin recording", "microphone opened", "end recording"])
            await client.destroy()
        }
    }

    @Test func anInterruptionStopsReadAloud() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let session = ScriptedAudioSession()
            let tts = CountingTTS()
            var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "val")
            configuration.ttsService = tts
            let client = ChatClient(
                configuration: configuration, speech: ChatClient.SpeechSetup(audioSession: session))
            try await client.initialize()
            await client.speak(text: "Hello")
            #expect(await tts.spoken == ["Hello"])
            #expect(await tts.stops == 0)
            // A lost headset and an interruption stop reading; a new device does not.
            session.send(.routeChanged(.newDeviceAvailable))
            session.send(.routeChanged(.oldDeviceUnavailable))
            session.send(.interruptionBegan)
            await tts.waitForStops(2)
            #expect(await tts.stops == 2)
            await client.destroy()
        }
    }
}

@Suite struct SpeechReaderAudioSessionTests {
    @Test func eachTextHoldsTheSessionForPlaybackWhileItIsRead() async throws {
        let session = ScriptedAudioSession()
        let speaker = RecordingSink()
        let reader = SpeechReader(
            service: OnDeviceSpeechService(
                recognizer: ScriptedStreamingRecognizer(transcripts: []), synthesizer: ToneSynthesizer()),
            speaker: speaker,
            context: { SpeechContext(channelId: "demo", userId: "val", token: nil, sessionSecret: nil) },
            audioSession: session)
        await reader.speak(text: "one")
        await reader.speak(text: "two")
        await reader.waitUntilDone()
        #expect(await session.calls == ["begin playback", "end playback", "begin playback", "end playback"])
        #expect(await speaker.played.count == 2)
    }

    @Test func aRefusedSessionIsReportedAndNothingIsPlayed() async throws {
        let refusal = ParleyError(.audioDeviceUnavailable, "AVAudioSession did not activate: busy")
        let session = ScriptedAudioSession(refusing: refusal)
        let speaker = RecordingSink()
        let (failures, sink) = AsyncStream.makeStream(of: ParleyError.self)
        let reader = SpeechReader(
            service: OnDeviceSpeechService(
                recognizer: ScriptedStreamingRecognizer(transcripts: []), synthesizer: ToneSynthesizer()),
            speaker: speaker,
            context: { SpeechContext(channelId: "demo", userId: "val", token: nil, sessionSecret: nil) },
            failure: { sink.yield($0) }, audioSession: session)
        await reader.speak(text: "one")
        await reader.waitUntilDone()
        sink.finish()
        var reported: [ParleyError] = []
        for await failure in failures { reported.append(failure) }
        #expect(reported == [refusal])
        #expect(await speaker.played.isEmpty)
    }
}
