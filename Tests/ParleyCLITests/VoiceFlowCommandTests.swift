import Foundation
import Testing

@testable import parley

/// `parley voiceflow validate|graph|run` on the voice-flow fixtures.
@Suite("parley voiceflow", .serialized)
struct VoiceFlowCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ParleyVoiceFlowTests/Fixtures").standardized

    func path(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func parley(_ arguments: [String]) async throws -> DecodeCommandTests.Run {
        try await DecodeCommandTests().parley(arguments)
    }

    func temporary(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-cli-\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func validatePassesACleanFlowAndFailsWithEveryMessage() async throws {
        let clean = try await parley([
            "voiceflow", "validate", path("ai-chat-flow.json"), "--prompts", path("ai-chat-prompts.json"),
        ])
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.hasSuffix("ai-chat-flow.json: 11 modules, 0 errors, 0 warnings\n"))

        let broken = try await parley([
            "voiceflow", "validate", path("seed-shutdown-flow.json"), "--prompts", path("seed-prompts.json"),
        ])
        #expect(broken.status == 1)
        #expect(
            broken.output.components(separatedBy: "\n").filter { $0.hasPrefix("error[voiceflow.unknownPrompt]") }.count
                == 2)
        #expect(broken.output.contains("2 errors, 0 warnings"))

        let malformed = try await parley(["voiceflow", "validate", try temporary("bad.json", "[{\"id\": 1}]")])
        #expect(malformed.status == 1)
        #expect(malformed.output.contains("error[voiceflow.missingKey]"))
    }

    @Test func graphPrintsMermaidAndDot() async throws {
        let mermaid = try await parley(["voiceflow", "graph", path("seed-shutdown-flow.json")])
        #expect(mermaid.status == 0)
        #expect(mermaid.output.hasPrefix("flowchart TD\n"))
        #expect(mermaid.output.contains("m1 -.-> m5"), "the runtime target is dashed:\n\(mermaid.output)")
        #expect(mermaid.output.contains("m5{{\"$[ShutdownModeFlowPlayStartModule]\"}}"))
        let dot = try await parley(["voiceflow", "graph", path("ai-chat-flow.json"), "--format", "dot"])
        #expect(dot.status == 0)
        #expect(dot.output.hasPrefix("digraph voiceflow {"))
        #expect(dot.output.contains("m1 -> m3 [label=\"intent: TransitionToSleepMode\"];"), "\(dot.output)")
    }

    /// A runtime field of `1e300` where a time in milliseconds belongs stopped `parley voiceflow run` with a trap;
    /// now the run ends with the typed error (and the same number given as `--field` text too).
    @Test func aHugeRuntimeFieldIsATypedErrorNotACrash() async throws {
        let flow = try temporary(
            "huge.json",
            """
            [
              {"id": "VF_START", "type": "node", "name": "start", "goTo": {"DEFAULT": "P"}},
              {"id": "P", "type": "process", "name": "P", "processParams": {"setValueForFieldNameCollection": [{"name": "$[Huge]", "value": 1e300}]}, "goTo": {"DEFAULT": "L"}},
              {"id": "L", "type": "audioListener", "name": "L", "recognizeAudioParams": {"srLocale": "en-US"}, "recordAudioParams": {"stopRecordParams": {"maxPreSpeechSilenceLengthMsRuntime": "$[Huge]"}}, "goTo": {"DEFAULT": "VF_END", "internalFailure": "Failed"}},
              {"id": "Failed", "type": "node", "name": "failed", "goTo": {"DEFAULT": "VF_END"}},
              {"id": "VF_END", "type": "node", "name": "end", "goTo": {"DEFAULT": ""}}
            ]
            """)
        let prompts = try temporary("prompts.json", "[]")
        let script = try temporary("turns.txt", "silence\n")
        let run = try await parley(["voiceflow", "run", flow, "--prompts", prompts, "--script", script])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("[0.000s] PreModuleStart(Failed)"), "the module's internalFailure route:\n\(run.output)")
        #expect(!run.output.contains("NMF_RECOGNIZE_AUDIO"), "no recognition with a broken timeout")
        #expect(lines.last == "finished: completed")
    }

    @Test func runPrintsTheTranscriptOfAScriptedConversation() async throws {
        let script = try temporary("turns.txt", "# the user\nsilence\nsay: transition to sleep mode\n")
        let run = try await parley([
            "voiceflow", "run", path("ai-chat-flow.json"), "--prompts", path("ai-chat-prompts.json"),
            "--field", "ChatResponseSectionText=Hello there", "--script", script,
        ])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "[0.000s] PlayAudioSegmentData(VA_VFM_AIChat_AudioListener_ChatResponse, P_AIChat_ChatResponseText, textString, text: \"Hello there\")"
            ))
        #expect(
            lines.contains(
                "[8.000s] MediaEvent(VA_VFM_AIChat_AudioListener_ChatResponse, VA_VFM_AIChat_AudioListener_ChatResponse, NMF_RECOGNIZE_AUDIO, NME_TIMEOUT)"
            ))
        #expect(lines.contains("[8.000s] PreModuleStart(VA_VFM_AIChat_Process_SleepModeRequested)"))
        #expect(lines.last == "finished: completed")
    }

    /// `--audio-in`: the caller's turns are audio files streamed through streaming PocketSphinx while the prompts are
    /// synthesised; a turn of silence times out, the next one is heard, and the long prompt of the second attempt is
    /// barged into.
    @Test func runWithAudioInHearsTheCallersFilesThroughTheRecognizer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func sox(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sox"] + arguments
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let quiet = folder.appendingPathComponent("quiet.wav").path
        try sox(["-n", "-r", "16000", "-c", "1", "-b", "16", quiet, "trim", "0", "0.5"])
        let spoken = folder.appendingPathComponent("spoken.wav").path
        let espeak = Process()
        espeak.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        espeak.arguments = ["espeak-ng", "-s", "140", "-w", spoken, "go to sleep"]
        try espeak.run()
        espeak.waitUntilExit()
        let sleep = folder.appendingPathComponent("sleep.wav").path
        try sox([spoken, "-r", "16000", "-c", "1", "-b", "16", sleep, "pad", "0.6"])

        let flow = try temporary(
            "live.json",
            """
            [
              {"id": "VF_START", "type": "node", "name": "start", "goTo": {"DEFAULT": "Ask"}},
              {"id": "Ask", "type": "audioDialog", "name": "Ask", "recognizeAudioParams": {"srSessionParams": {"enablePartialResults": true}}, "recordAudioParams": {"stopRecordParams": {"maxPreSpeechSilenceLengthMs": 2000}}, "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "promptID": "P_Ask"}, {"type": "timeout", "promptID": "P_Long", "recognizeWhilePlay": true}], "maxRetryCount": {"timeout": 1}}, "goTo": {"DEFAULT": "VF_END", "goToForUserInput": [{"input": "go to sleep", "goTo": "Sleep"}, {"input": "turn on the lights", "goTo": "VF_END"}]}},
              {"id": "Sleep", "type": "playAudio", "name": "Sleep", "playAudioParams": {"promptID": "P_Ask"}, "goTo": {"DEFAULT": "VF_END"}},
              {"id": "VF_END", "type": "node", "name": "end", "goTo": {"DEFAULT": ""}}
            ]
            """)
        let prompts = try temporary(
            "prompts.json",
            """
            [{"id": "P_Ask", "style": "single", "textString": "Yes?"},
             {"id": "P_Long", "style": "single", "textString": "I did not hear you. You can ask me to go to sleep or to turn on the lights, and I will keep talking for a long while so that you can interrupt me."}]
            """)
        let run = try await parley([
            "voiceflow", "run", flow, "--prompts", prompts, "--audio-in", quiet, sleep, "--audio-speed", "2",
        ])
        #expect(run.status == 0, "\(run.output)")
        // Transcript lines without their wall-clock times; the log lines on standard error left out.
        let lines = run.output.split(separator: "\n").filter { !$0.contains("parley.voiceflow:") }.map { line in
            line.hasPrefix("[") ? String(line.drop(while: { $0 != "]" }).dropFirst(2)) : String(line)
        }
        let timeout = try #require(lines.firstIndex(of: "MediaEvent(Ask, Ask, NMF_RECOGNIZE_AUDIO, NME_TIMEOUT)"))
        let bargeIn = try #require(
            lines.firstIndex(of: #"MediaEvent(Ask, Ask, NMF_PLAY_AUDIO, NME_STOPPED, {"reason":"bargeIn"})"#))
        let heard = try #require(lines.firstIndex(of: "SRHypothesis(Ask, complete: \"go to sleep\")"))
        #expect(timeout < bargeIn && bargeIn < heard)
        #expect(lines.contains("PreModuleStart(Sleep)"))
        #expect(!lines.contains("MediaEvent(Ask, P_Long, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)"))
        #expect(lines.last == "finished: completed")
    }

    @Test func liveWithoutASoundDeviceIsATypedErrorNotAHang() async throws {
        let run = try await parley([
            "voiceflow", "run", path("ai-chat-flow.json"), "--prompts", path("ai-chat-prompts.json"), "--live",
        ])
        // This machine has no sound card; where one exists, the flow would run against it.
        try #require(run.output.contains("speech.audioDeviceUnavailable"), "\(run.output)")
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("error[speech.audioDeviceUnavailable]: "))
        #expect(!run.output.contains("PreModuleStart"))
    }

    @Test func audioInRefusesAMissingFileAndScriptsTogether() async throws {
        let missing = try await parley([
            "voiceflow", "run", path("ai-chat-flow.json"), "--prompts", path("ai-chat-prompts.json"), "--audio-in",
            "/nonexistent/caller.wav",
        ])
        #expect(missing.status == 1)
        #expect(missing.output.contains("error[speech.audioFileMissing]: no audio file at /nonexistent/caller.wav"))
        let both = try await parley([
            "voiceflow", "run", path("ai-chat-flow.json"), "--prompts", path("ai-chat-prompts.json"), "--audio-in",
            "a.wav", "--script", "s.txt",
        ])
        #expect(both.status != 0)
        #expect(both.output.contains("--live and --audio-in go without --script"))
    }
}
