import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

/// A microphone that gives `audio` and then stays open, as a person who stopped talking but not the recording.
struct OpenMicrophone: AudioSource {
    var audio: AudioBuffer

    func frames() -> SpeechStream<AudioBuffer> {
        let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
        for start in stride(from: 0, to: audio.samples.count, by: 1_600) {
            continuation.yield(
                AudioBuffer(samples: Array(audio.samples[start..<min(start + 1_600, audio.samples.count)])))
        }
        return stream  // never finished: the client ends it when it stops listening
    }
}

/// The screen model's speech: the microphone button, the popup's state, text and level, the alerts and the mute.
@Suite("ChatViewModel speech", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct SpeechViewModelTests {
    /// 0.5 s of silence, then a loud second of 440 Hz (a word to the scripted recognizer).
    static let tone = AudioBuffer(
        samples: [Int16](repeating: 0, count: 8_000)
            + (0..<16_000).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) })

    static func model(
        _ server: InProcessServer, transcripts: [String] = ["order pizza"], microphone: (any AudioSource)? = nil,
        permissions: FixedPermissionSource = .grantingAll, _ change: (inout ChatClient.Configuration) -> Void = { _ in }
    ) async throws -> ChatViewModel {
        var flags = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "sam")
        flags.enableSpeechRecognition = true
        change(&flags)
        let setup = ChatClient.SpeechSetup(
            service: OnDeviceSpeechService(recognizer: ScriptedStreamingRecognizer(transcripts: transcripts)),
            microphone: microphone ?? BufferAudioSource(tone + silence), permissions: permissions)
        let client = ChatClient(configuration: flags, speech: setup)
        let model = ChatViewModel(client: client, configuration: .init(locale: "en"))
        await model.start()
        try await client.initialize()
        await waitUntil("connected") { model.status == .connected }
        return model
    }

    static let silence = AudioBuffer(samples: [Int16](repeating: 0, count: 16_000))

    @Test func theMicrophoneSendsWhatWasSaidAndThePopupFollowsTheRecording() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let model = try await Self.model(server, microphone: OpenMicrophone(audio: Self.tone))
            #expect(model.composer.showsMicrophone)
            #expect(model.speech.listeningLabel == "Listening...")
            #expect(model.speech.sendLabel == "SEND")
            #expect(model.speech.cancelLabel == "CANCEL")
            #expect(model.speech.isActive == false)
            #expect(await model.startSpeechInput() == .done)
            // The tone is still "being spoken" (the microphone stays open): partials and a level, no final.
            await waitUntil("listening with a partial") {
                model.speech.state == .recording && model.speech.text == "order pizza"
            }
            await waitUntil("a level") { (model.speech.level ?? -100) > -20 }
            #expect(model.speech.levelFraction > 0.6)
            #expect(model.speech.isActive)
            #expect(await model.stopSpeechInput() == .done)  // SEND
            await waitUntil("the echo of what was said") { model.texts.suffix(2) == ["order pizza", "order pizza"] }
            await waitUntil("the popup closed") { model.speech.state == .idle }
            #expect(model.speech.level == nil)
            #expect(model.draft == "")
        }
    }

    @Test func withoutAutoSendTheTextLandsInTheDraft() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let model = try await Self.model(server) { $0.enableAutoSendSpeechResponse = false }
            #expect(await model.startSpeechInput() == .done)
            await waitUntil("the draft") { model.draft == "order pizza" }
            await waitUntil("idle") { model.speech.state == .idle }
            #expect(model.messageRows.isEmpty, "nothing was sent")
        }
    }

    @Test func refusalsShowTheSeedsAlerts() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let denied = try await Self.model(
                server, permissions: FixedPermissionSource([.microphone: .denied(reason: "no")]))
            #expect(await denied.startSpeechInput().failureCode == .speechPermissionDenied)
            #expect(denied.alert?.title == "Alert")
            #expect(denied.alert?.message == "Permission_Denied")
            #expect(denied.speech.state == .idle)

            let french = try await Self.model(server) { $0.speechLocale = "fr-fr" }
            #expect(await french.startSpeechInput().failureCode == .speechUnsupportedLocale)
            #expect(french.alert?.message == "The set speech locale is not supported. Cannot start recording.")

            let quiet = try await Self.model(server, microphone: BufferAudioSource(Self.silence))
            #expect(await quiet.startSpeechInput() == .done)
            await waitUntil("the no-speech alert") { quiet.alert != nil }
            #expect(quiet.alert?.message == "Error in voice recognition. Please try again later.")
            #expect(quiet.alert?.error.code == .speechNoSpeech)
        }
    }

    @Test func theMuteButtonFollowsEnableSpeechSynthesis() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let silent = try await Self.model(server)
            #expect(silent.speech.showsMuteButton == false)
            #expect(await silent.setSpeechMuted(false) == .ignored)

            let reading = try await Self.model(server) { $0.enableSpeechSynthesis = true }
            #expect(reading.speech.showsMuteButton)
            #expect(reading.speech.isMuted, "initSpeechSynthesisMuted")
            #expect(await reading.setSpeechMuted(false) == .done)
            await waitUntil("unmuted") { reading.speech.isMuted == false }
        }
    }
}

extension AudioBuffer {
    static func + (lhs: AudioBuffer, rhs: AudioBuffer) -> AudioBuffer {
        AudioBuffer(samples: lhs.samples + rhs.samples, sampleRate: lhs.sampleRate)
    }
}
