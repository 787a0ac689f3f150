import Foundation
import ParleySpeech
import Testing

@testable import ParleyServer

/// The speech members of the configuration file, and the locale mapping the recognition socket uses.
@Suite("Speech configuration")
struct SpeechConfigurationTests {
    @Test func aChannelsSpeechDecodesAndRoundTrips() throws {
        let json = #"""
            {"channels": [{"id": "shop", "speech": {"enabled": true, "locales": ["en-us", "en-gb"],
              "phrases": ["turn on the lights"]}}, {"id": "quiet"}],
             "tlsCertificate": "/etc/parley/cert.pem", "tlsKey": "/etc/parley/key.pem", "speechEngine": "scripted"}
            """#
        let file = try ServerConfigurationFile(decoding: Array(json.utf8))
        #expect(
            file.channels[0].speech
                == ChannelSpeech(enabled: true, locales: ["en-us", "en-gb"], phrases: ["turn on the lights"]))
        #expect(file.channels[1].speech == ChannelSpeech(), "off unless asked")
        #expect(file.channels[1].speech.enabled == false)
        #expect(file.tlsCertificate == "/etc/parley/cert.pem" && file.tlsKey == "/etc/parley/key.pem")
        #expect(file.speechEngine == "scripted")
        #expect(try ServerConfigurationFile(json: file.jsonValue).jsonValue == file.jsonValue)
    }

    @Test(arguments: [
        (#"{"channels": [{"id": "a", "speech": {"enabled": true, "voice": "x"}}]}"#, "voice"),
        (#"{"channels": [], "tlsCertificate": "/c.pem"}"#, "tlsKey"),
        (#"{"channels": [], "speechEngine": "google"}"#, "speechEngine"),
    ])
    func mistakesAreNamed(_ json: String, _ member: String) {
        #expect {
            try ServerConfigurationFile(decoding: Array(json.utf8))
        } throws: { error in
            (error as? ParleyError)?.code == .invalidValue && "\(error)".contains(member)
        }
    }

    /// A locale is served when the channel offers it and the engine hears it or its language.
    @Test func localesMapToWhatTheEngineHears() async throws {
        let service = SpeechService(
            configuration: SpeechConfiguration(
                recognizer: ScriptedStreamingRecognizer(transcripts: []), synthesizer: nil),
            metrics: ServerMetrics())
        let speech = ChannelSpeech(enabled: true, locales: ["en-us", "en-GB", "de-de"])
        #expect(try await service.engineLocale(for: "EN-US", on: speech) == "en-US")
        #expect(try await service.engineLocale(for: "en-gb", on: speech) == "en-US")
        // Offered, but the engine hears no German; English, but not offered.
        for locale in ["de-de", "en-au"] {
            await #expect {
                try await service.engineLocale(for: locale, on: speech)
            } throws: { error in
                (error as? ParleyError)?.code == .speechUnsupportedLocale
            }
        }
    }

    /// The configuration example of `docs/speech.md` loads as it reads.
    @Test func theDocumentedExampleLoads() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/speech.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let examples = try text.components(separatedBy: "```json\n").dropFirst().map {
            try JSONValue(parsing: $0.components(separatedBy: "\n```")[0])
        }
        let file = try ServerConfigurationFile(json: #require(examples.first { $0["channels"] != nil }))
        #expect(
            file.channels.first?.speech
                == ChannelSpeech(enabled: true, locales: ["en-us", "en-gb"], phrases: ["turn on the lights"]))
        #expect(file.speechEngine == "system")
        #expect(file.tlsKey == "/etc/parley/key.pem")
    }

    @Test func theWAVHeaderCarriesTheRate() {
        let header = WAVHeader.bytes(sampleRate: 22_050)
        #expect(header.count == 44)
        #expect(Array(header[0..<4]) == Array("RIFF".utf8))
        #expect(Array(header[24..<28]) == [0x22, 0x56, 0x00, 0x00])
        #expect(Array(header[28..<32]) == [0x44, 0xAC, 0x00, 0x00])
    }
}
