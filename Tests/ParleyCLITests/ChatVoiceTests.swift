import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

@testable import parley

/// `parley chat --voice` through a pipe: a sound file as the microphone, PocketSphinx in the process, the real server.
@Suite("parley chat --voice", .serialized, .timeLimit(.minutes(2)))
struct ChatVoiceTests {
    /// Runs `parley` with `environment` added; standard output and error together.
    func parley(_ arguments: [String], input: String, environment: [String: String]) async throws
        -> DecodeCommandTests.Run
    {
        try await DecodeCommandTests().parley(
            arguments, input: input, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// `device`: PocketSphinx and espeak-ng in the `parley` process; `server`: the server's speech socket and TTS.
    @Test(arguments: ["device", "server"])
    func aSpokenFileIsHeardLiveSentAndAnsweredAndAMissingSpeakerIsOneLine(speech: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-voice-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("lights.wav")
        try await EspeakSynthesizer().synthesize(SynthesisRequest(text: "turn on the lights"), to: wav)
        let phrases = ["turn on the lights", "turn off the lights", "go to sleep"]
        let channel = ChannelConfiguration(
            id: "echo", skill: .echo, speech: ChannelSpeech(enabled: true, phrases: phrases))
        try await InProcessServer.run(channels: [channel]) { server in
            let run = try await parley(
                [
                    "chat", "--url", server.url.absoluteString, "--channel", "echo", "--voice", "--speech", speech,
                    "--audio-file", wav.path,
                ] + (speech == "device" ? ["--phrases", phrases.joined(separator: ",")] : []),
                input: "/listen\nand some text\n",
                // No such sound device, wherever the test runs: `play` fails as on a machine without a sound card.
                environment: ["AUDIODEV": "parley-no-such-device", "AUDIODRIVER": "alsa"])
            #expect(run.status == 0, "\(run.output)")
            let lines = run.output.split(separator: "\n").map(String.init)
            let partials = lines.filter { $0.hasPrefix("(hearing) ") }.map { String($0.dropFirst(10)) }
            #expect(!partials.isEmpty, "\(run.output)")
            #expect(partials.allSatisfy { "turn on the lights".hasPrefix($0) }, "\(partials)")
            let heard = try #require(lines.firstIndex(of: "(heard) turn on the lights"), "\(run.output)")
            let echo = try #require(lines.firstIndex { $0.contains("turn on the lights") && !$0.hasPrefix("(") })
            #expect(heard < echo, "heard, then sent and echoed")
            let speakerLines = lines.filter { $0.contains("cannot read replies aloud") }
            #expect(speakerLines.count == 1, "one line, however many replies: \(run.output)")
            #expect(run.output.contains("and some text"), "the chat went on in text")
        }
    }

    @Test func voiceOptionsAreChecked() async throws {
        let run = try await parley(
            ["chat", "--url", "http://127.0.0.1:9", "--channel", "x", "--audio-file", "/nonexistent.wav"], input: "",
            environment: [:])
        #expect(run.status != 0)
        #expect(run.output.contains("--audio-file and --phrases go with --voice"), "\(run.output)")
    }
}
