import Foundation
import ParleyServer
import ParleyServerTesting
import Testing

/// The widget's microphone in headless Chromium: a fake capture device plays a sentence espeak-ng spoke, the page
/// streams it to the real server's recognition socket (real PocketSphinx), the final text arrives as a user message
/// with its speechId, and the skill's reply is read aloud through `/tts/speak` (real espeak-ng).
@Suite("Widget speech in a real browser", .serialized, .timeLimit(.minutes(3)))
struct WidgetSpeechBrowserTests {
    /// Runs a program to its end; fails the test when it fails. Its end is awaited, not waited for on a thread
    /// (`waitUntilExit()` would block a thread of Swift's cooperative pool, two on a two-core machine).
    static func run(_ program: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (exited, ended) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.finish() }
        try process.run()
        for await _ in exited {}
        guard process.terminationStatus == 0 else {
            throw ParleyError(.internalError, "\(program) \(arguments.joined(separator: " ")) failed")
        }
    }

    @Test func aSentenceSpokenIntoChromiumsMicrophoneIsSentAndTheReplyIsReadAloud() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-widget-speech-\(UUID())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let spoken = output.appendingPathComponent("spoken.wav")
        let speech = output.appendingPathComponent("speech.wav")
        let silence = output.appendingPathComponent("silence.wav")
        try await Self.run("espeak-ng", ["-v", "en-us", "-s", "150", "-w", spoken.path, "turn on the lights"])
        // Half a second before the sentence, two after it: the server finds the end of the utterance in them.
        try await Self.run("sox", [spoken.path, "-r", "16000", "-c", "1", "-b", "16", speech.path, "pad", "0.5", "2"])
        try await Self.run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silence.path, "trim", "0", "8"])

        let voice = ChannelConfiguration(
            id: "voice", skill: .echo,
            speech: ChannelSpeech(enabled: true, phrases: ["turn on the lights", "turn off the lights", "order pizza"]))
        let run = try await InProcessServer.run(channels: [voice]) { server in
            try await WidgetBrowserTests.runScript(
                arguments: [
                    WidgetBrowserTests.browserFolder.appendingPathComponent("speech_browser_test.py").path,
                    server.url.absoluteString, speech.path, silence.path, output.path,
                ],
                log: output.appendingPathComponent("browser.log"))
        }
        #expect(run.status == 0, "the browser checks failed:\n\(run.output)")
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_VERBOSE"] != nil { print(run.output) }
        guard run.status == 0 else { return }
        let record = try JSONValue(parsing: Data(contentsOf: output.appendingPathComponent("speech.json")))
        #expect(record["heard"]?.stringValue?.lowercased().contains("turn on the lights") == true)
        try? FileManager.default.removeItem(at: output)
    }
}
