import Foundation
import Testing

@testable import parley

/// The seed's AI-chat listener flow (`ai-chat-flow.json`, its audioListener module verbatim) run by the real `parley`
/// executable with caller audio that espeak-ng speaks, heard by streaming PocketSphinx: no scripted recognizer.
///
/// The flow has no `goToForUserInput`, so PocketSphinx listens with its open en-US language model, not a grammar. On
/// espeak-ng's voices that model hears most phrases wrongly, and some only as long as the audio stays exactly as it is:
/// at 170 words a minute "transition to sleep mode" was heard in 7 of 8 files that differed only in sox's random
/// dither. The voice and speed below (`en-us+klatt2`, 190 words a minute) were heard right in 16 of 16 dithered files
/// and undithered too; sox's `-R` keeps the dither the same from run to run. PocketSphinx never heard "audio listener
/// command" or "transition to shutdown mode" right in any voice tried, so the flow's other two intents are not spoken.
/// The seed's listener has no `recognizeWhilePlay`, so there is no barge-in to test in this flow; barge-in is tested
/// in `VoiceFlowCommandTests` and `LiveSpeechTests`.
@Suite("parley voiceflow run: the seed's flow with spoken caller audio", .serialized, .timeLimit(.minutes(2)))
struct SeedVoiceFlowTests {
    static let listener = "VA_VFM_AIChat_AudioListener_ChatResponse"
    static let reentry = "VA_VFM_AIChat_Process_RentryModule"
    static let chatResponse = "Here is the answer to your question."

    struct Finished {
        let status: Int32
        let output: String
        /// Whether the process was ended by a signal (the time limit, or a crash).
        let signalled: Bool
    }

    /// Runs `executable`, standard output and error into one file (so children left behind cannot hold a pipe
    /// open); terminated when `limit` passes, and killed 5 s later if it is still running.
    static func run(_ executable: URL, _ arguments: [String], within limit: Duration = .seconds(60)) async throws
        -> Finished
    {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("parley-seed-flow-\(UUID()).log")
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let seconds = Double(limit.components.seconds)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                guard process.isRunning else { return }
                process.terminate()
                DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
        }
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        return Finished(
            status: process.terminationStatus, output: output, signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs a program found on the `PATH` and expects it to succeed.
    static func tool(_ arguments: [String]) async throws {
        let finished = try await run(URL(fileURLWithPath: "/usr/bin/env"), arguments, within: .seconds(30))
        try #require(finished.status == 0 && !finished.signalled, "\(arguments): \(finished.output)")
    }

    /// A 16 kHz mono WAV of espeak-ng saying `text`, after 0.6 s of silence (as a caller's microphone would open),
    /// the same bytes on every run.
    static func spoken(_ text: String, in folder: URL) async throws -> String {
        let raw = folder.appendingPathComponent("raw-\(UUID()).wav").path
        try await tool(["espeak-ng", "-v", "en-us+klatt2", "-s", "190", "-w", raw, text])
        let file = folder.appendingPathComponent("\(text.replacingOccurrences(of: " ", with: "-")).wav").path
        try await tool(["sox", "-R", raw, "-r", "16000", "-c", "1", "-b", "16", file, "pad", "0.6"])
        return file
    }

    /// The listener's entry: the chat response is played, then the listener listens.
    static var listenerOpening: [String] {
        let (l, p) = (listener, "P_AIChat_ChatResponseText")
        return [
            "PreModuleStart(\(l))",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO, NME_STARTED)",
            "PlayAudioSegmentData(\(l), \(p), textString, text: \"\(chatResponse)\")",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO, NME_ENDED)",
            "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_STARTED)",
        ]
    }

    /// The listener's `DEFAULT` route: the seed's re-entry module, back to the listener.
    static var reentered: [String] {
        ["PreModuleEnd(\(listener))", "PreModuleStart(\(reentry))", "PreModuleEnd(\(reentry))"] + listenerOpening
    }

    /// Silence, then an utterance that names no intent, then "transition to sleep mode": the first two take the
    /// listener's retry path (`DEFAULT` → the re-entry module → the listener, which plays the chat response again),
    /// the third is recognised as the `TransitionToSleepMode` intent and routed to the sleep modules.
    @Test func silenceAndANoMatchReenterTheListenerAndTheSleepIntentIsRouted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-seed-flow-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let quiet = folder.appendingPathComponent("quiet.wav").path
        try await Self.tool(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", quiet, "trim", "0", "0.5"])
        let question = try await Self.spoken("what time is it", in: folder)
        let sleep = try await Self.spoken("transition to sleep mode", in: folder)

        let run = try await Self.run(
            DecodeCommandTests.productsDirectory.appendingPathComponent("parley"),
            [
                "voiceflow", "run", VoiceFlowCommandTests().path("ai-chat-flow.json"),
                "--prompts", VoiceFlowCommandTests().path("ai-chat-prompts.json"),
                "--field", "ChatResponseSectionText=\(Self.chatResponse)",
                "--audio-in", quiet, question, sleep, "--audio-speed", "2",
            ])
        try #require(!run.signalled, "parley was stopped by a signal:\n\(run.output)")
        #expect(run.status == 0, "\(run.output)")
        // Transcript lines without their wall-clock times; the log lines on standard error left out.
        let lines = run.output.split(separator: "\n").filter { !$0.contains("parley.voiceflow:") }.map { line in
            line.hasPrefix("[") ? String(line.drop(while: { $0 != "]" }).dropFirst(2)) : String(line)
        }
        let partial = "SRHypothesis(\(Self.listener), partial: "
        let l = Self.listener
        let (s, g) = ("VA_VFM_AIChat_Process_SleepModeRequested", "VA_VFM_AIChat_PlayAudio_GoingToSleep")
        let expected =
            ["PreModuleStart(VF_START)", "PreModuleEnd(VF_START)"] + Self.listenerOpening
            + ["MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_TIMEOUT)"] + Self.reentered
            + [
                "SRHypothesis(\(l), complete: \"what time is it\")",
                "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_ENDED)",
            ] + Self.reentered
            + [
                "SRHypothesis(\(l), complete: \"transition to sleep mode\")",
                "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_ENDED)",
                "PreModuleEnd(\(l))",
                "PreModuleStart(\(s))",
                "PreModuleEnd(\(s))",
                "PreModuleStart(\(g))",
                "MediaEvent(\(g), P_AIChat_GoingToSleep, NMF_PLAY_AUDIO, NME_STARTED)",
                "PlayAudioSegmentData(\(g), P_AIChat_GoingToSleep, textString, audioFile: GoingToSleep.wav, text: \"Going to sleep.\")",
                "MediaEvent(\(g), P_AIChat_GoingToSleep, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(\(g), P_AIChat_GoingToSleep, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "MediaEvent(\(g), P_AIChat_GoingToSleep, NMF_PLAY_AUDIO, NME_ENDED)",
                "PreModuleEnd(\(g))",
                "PreModuleStart(VF_END)",
                "PreModuleEnd(VF_END)",
                "finished: completed",
            ]
        #expect(lines.filter { !$0.hasPrefix(partial) } == expected, "\(run.output)")

        // The seed enables partial results: each spoken turn was heard word by word before its complete hypothesis.
        let listening = "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_STARTED)"
        let listenings = lines.indices.filter { lines[$0] == listening }
        let partialsPerListening = listenings.map { start in
            lines[start...].prefix { !$0.hasPrefix("SRHypothesis(\(l), complete:") && !$0.contains("NME_TIMEOUT") }
                .filter { $0.hasPrefix(partial) }.count
        }
        #expect(partialsPerListening.count == 3)
        #expect(partialsPerListening.dropFirst().allSatisfy { $0 > 0 }, "\(partialsPerListening)")
    }
}
