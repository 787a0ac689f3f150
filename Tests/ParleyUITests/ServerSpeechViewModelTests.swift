import ParleyServerTesting
import ParleyUI
import Testing

/// The screen model's speech through the chat server's recognition socket (`ServerSpeechService`).
@Suite("ChatViewModel server speech", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct ServerSpeechViewModelTests {
    /// `speechLocale` `fr-fr` is on Oracle's list, so the microphone opens; the server hears only English and refuses
    /// the socket. The alert is the seed's `odais_speech_unsupported_locale`, not "Speech Recognition Error".
    @Test func aLocaleTheServerRefusesShowsTheUnsupportedLocaleAlert() async throws {
        let channel = ChannelConfiguration(id: "voice", skill: .echo, speech: ChannelSpeech(enabled: true))
        try await InProcessServer.run(channels: [channel]) { server in
            var flags = ChatClient.Configuration(url: server.url, channelId: "voice", userId: "sam")
            flags.enableSpeechRecognition = true
            flags.speechLocale = "fr-fr"
            let client = ChatClient(
                configuration: flags,
                speech: ChatClient.SpeechSetup(
                    microphone: BufferAudioSource(SpeechViewModelTests.tone),
                    permissions: FixedPermissionSource.grantingAll))
            let model = ChatViewModel(client: client, configuration: .init(locale: "en"))
            await model.start()
            try await client.initialize()
            await waitUntil("connected") { model.status == .connected }
            #expect(await model.startSpeechInput() == .done, "the client's list has fr-fr: the microphone opens")
            await waitUntil("the alert") { model.alert != nil }
            #expect(model.alert?.error.code == .speechUnsupportedLocale)
            #expect(model.alert?.title == "Alert")
            #expect(model.alert?.message == "The set speech locale is not supported. Cannot start recording.")
            await waitUntil("the popup closed") { model.speech.state == .idle }
        }
    }
}
