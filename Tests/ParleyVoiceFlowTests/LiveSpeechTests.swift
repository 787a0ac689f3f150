import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// Live speech end to end on Linux: espeak-ng speaks the caller's turns, sox makes them 16 kHz, the runner streams
/// them through PocketSphinx's streaming recognizer while it synthesises its prompts with espeak-ng, all paced at
/// real audio time (positions are audio positions, so the speed changes nothing but the wall time).
/// scripts/test installs espeak-ng, sox and the PocketSphinx libraries and model.
@Suite("Live speech", .serialized)
struct LiveSpeechTests {
    // Real time, not twice it: PocketSphinx decodes on the test process's two cooperative threads, and under the
    // whole suite's load it fell so far behind at twice real time that a caller's answer was heard too late.
    static let speed = 1.0

    /// A 16 kHz WAV of `text` after `silence` (nothing but silence when `text` is nil).
    static func callerAudio(_ text: String?, after silence: Double = 0.3) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("caller.wav")
        guard let text else {
            try sox(["-n", "-r", "16000", "-c", "1", "-b", "16", output.path, "trim", "0", String(silence)])
            return output
        }
        let spoken = folder.appendingPathComponent("spoken.wav")
        try await EspeakSynthesizer(wordsPerMinute: 140).synthesize(SynthesisRequest(text: text), to: spoken)
        try sox([spoken.path, "-r", "16000", "-c", "1", "-b", "16", output.path, "pad", String(silence)])
        return output
    }

    static func sox(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sox"] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sox \(arguments)")
    }

    static func runner(_ files: [URL], output: any AudioSink = DiscardingSink()) -> VoiceFlowRunner {
        let pacing = AudioPacing(speed: speed)
        let live = LiveSpeech(
            recognizer: PocketsphinxStreamingRecognizer(), synthesizer: EspeakSynthesizer(),
            callerAudio: ScriptedCallerAudio(files: files, pacing: pacing) { SoxAudioSource.file($0).frames() },
            output: output, audioFiles: { SoxAudioSource.file($0).frames() }, pacing: pacing)
        return VoiceFlowRunner(
            live: live, permissions: FixedPermissionSource.grantingAll, random: SeededRandomNumberGenerator(seed: 3))
    }

    static func dialog(
        recognizeWhilePlay: Bool = false, retries: String = #""timeout": 1, "garbage": 1"#, vad: String = ""
    ) -> String {
        flow(
            start: "Ask",
            #"{"id": "Ask", "type": "audioDialog", "name": "Ask", "recognizeAudioParams": {"srEngine": "pocketSphinx", "srLocale": "en-US", "srSessionParams": {"enablePartialResults": true}}, "recordAudioParams": {\#(vad) "stopRecordParams": {"maxPreSpeechSilenceLengthMs": 2000}}, "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "promptID": "P_Ask", "recognizeWhilePlay": \#(recognizeWhilePlay)}, {"type": "timeout", "promptID": "P_Timeout"}, {"type": "garbage", "promptID": "P_Sorry"}], "maxRetryCount": {\#(retries)}}, "goTo": {"DEFAULT": "VF_END", "maxTimeoutCount": "Failed", "maxGarbageCount": "Failed", "maxSRErrorCount": "Failed", "goToForUserInput": [{"input": "go to sleep", "goTo": "Sleep"}, {"input": "turn on the lights", "goTo": "Lights"}]}}"#,
            play("Sleep", "P_Done"), play("Lights", "P_Done"), play("Failed", "P_Done"))
    }

    static let longPrompt =
        "Welcome to the assistant. You can ask me to go to sleep, or to turn on the lights, or to do many other "
        + "things that I will now describe at great length, so that you have plenty of time to interrupt me."
    static let prompts = """
        [{"id": "P_Ask", "style": "single", "textString": "\(longPrompt)"},
         {"id": "P_Timeout", "style": "single", "textString": "I did not hear you."},
         {"id": "P_Sorry", "style": "single", "textString": "Sorry?"},
         {"id": "P_Done", "style": "single", "textString": "Done."}]
        """

    static func modules(_ history: [VoiceFlowEvent]) -> [String] {
        history.compactMap { event in
            if case .preModuleStart(let id) = event { return id }
            return nil
        }
    }

    @Test func aSpokenCommandIsRecognisedWhileItIsSpokenAndTakesItsBranch() async throws {
        let runner = Self.runner([try await Self.callerAudio("turn on the lights")])
        try await runner.loadPrompts(json: Self.prompts.replacingOccurrences(of: Self.longPrompt, with: "Yes?"))
        try await runner.loadVoiceFlow(json: Self.dialog())
        #expect(try await runner.run() == .completed)
        let history = await runner.history.map(\.event)
        #expect(Self.modules(history) == ["VF_START", "Ask", "Lights", "VF_END"])
        let hypotheses = history.compactMap { event -> SRData? in
            if case .srHypothesis(_, let data) = event { return data }
            return nil
        }
        #expect(
            hypotheses.last
                == SRData(engine: "pocketSphinx", hypothesis: "turn on the lights", hypothesisType: .complete))
        #expect(hypotheses.dropLast().contains { $0.hypothesisType == .partial }, "partials arrive while it is spoken")
        #expect(hypotheses.dropLast().allSatisfy { $0.hypothesisType == .partial })
    }

    struct RejectLights: VoiceFlowDelegate {
        func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool {
            data.hypothesisType == .complete && data.hypothesis == "turn on the lights"
        }
    }

    @Test func noInputAndNoMatchRetryWithTheirPromptsThenTheCommandIsHeard() async throws {
        let runner = Self.runner([
            try await Self.callerAudio(nil, after: 0.5),
            try await Self.callerAudio("turn on the lights"),
            try await Self.callerAudio("go to sleep"),
        ])
        try await runner.loadPrompts(json: Self.prompts.replacingOccurrences(of: Self.longPrompt, with: "Yes?"))
        try await runner.loadVoiceFlow(json: Self.dialog())
        await runner.setDelegate(RejectLights())
        #expect(try await runner.run() == .completed)
        let lines = await runner.history.map(\.event.description)
        #expect(Self.modules(await runner.history.map(\.event)) == ["VF_START", "Ask", "Sleep", "VF_END"])
        let timeout = try #require(lines.firstIndex(of: "MediaEvent(Ask, Ask, NMF_RECOGNIZE_AUDIO, NME_TIMEOUT)"))
        let timeoutPrompt = try #require(lines.firstIndex { $0.hasPrefix("PlayAudioSegmentData(Ask, P_Timeout") })
        let rejected = try #require(lines.firstIndex(of: "SRHypothesis(Ask, complete: \"turn on the lights\")"))
        let sorry = try #require(lines.firstIndex { $0.hasPrefix("PlayAudioSegmentData(Ask, P_Sorry") })
        let heard = try #require(lines.firstIndex(of: "SRHypothesis(Ask, complete: \"go to sleep\")"))
        #expect(timeout < timeoutPrompt && timeoutPrompt < rejected && rejected < sorry && sorry < heard)
    }

    @Test(arguments: ["", #""vadParams": {"enableVAD": true, "minSpeechToDetectMs": 100},"#])
    func theCallersSpeechCutsALongPromptAndIsRecognised(vad: String) async throws {
        let full = try await EspeakSynthesizer().stream(SynthesisRequest(text: Self.longPrompt)).collect()
            .reduce(Duration.zero) { $0 + $1.duration }
        let runner = Self.runner([try await Self.callerAudio("go to sleep", after: 1.0)])
        try await runner.loadPrompts(json: Self.prompts)
        try await runner.loadVoiceFlow(json: Self.dialog(recognizeWhilePlay: true, vad: vad))
        #expect(try await runner.run() == .completed)
        let history = await runner.history.map(\.event)
        let lines = history.map(\.description)
        #expect(Self.modules(history) == ["VF_START", "Ask", "Sleep", "VF_END"], "\(lines)")
        let listening = try #require(lines.firstIndex(of: "MediaEvent(Ask, Ask, NMF_RECOGNIZE_AUDIO, NME_STARTED)"))
        let started = try #require(lines.firstIndex(of: "MediaEvent(Ask, P_Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)"))
        let stopped = try #require(
            lines.firstIndex { $0.hasPrefix("MediaEvent(Ask, P_Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED") })
        let bargeIn = try #require(
            lines.firstIndex(of: #"MediaEvent(Ask, Ask, NMF_PLAY_AUDIO, NME_STOPPED, {"reason":"bargeIn"})"#))
        let firstHypothesis = try #require(lines.firstIndex { $0.hasPrefix("SRHypothesis(Ask") })
        #expect(listening < started && started < stopped && stopped == bargeIn - 1 && bargeIn < firstHypothesis)
        #expect(!lines.contains("MediaEvent(Ask, P_Ask, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)"))
        #expect(lines.contains("SRHypothesis(Ask, complete: \"go to sleep\")"))
        guard case .mediaEvent(_, _, _, _, let data) = history[stopped], let position = data["positionMs"]?.intValue
        else {
            Issue.record("no position in \(lines[stopped])")
            return
        }
        // The caller starts speaking 1 s into the prompt (give or take espeak-ng's start); the prompt lasts far longer.
        #expect(position >= 500, "stopped at \(position) ms, before the caller spoke")
        #expect(.milliseconds(position) < full - .seconds(3), "stopped at \(position) ms of \(full)")
    }

    @Test func aLiveRecordingWithEnableVADStopsAfterTheSilenceThatFollowsSpeech() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-rec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = Self.runner([try await Self.callerAudio("go to sleep", after: 0.5)])
        try await runner.setResourceLocation(folder, for: .recordAudio)
        try await runner.loadVoiceFlow(
            json: flow(
                start: "R",
                #"{"id": "R", "type": "recordAudio", "name": "R", "recordAudioParams": {"id": "take", "vadParams": {"enableVAD": true}, "stopRecordParams": {"maxAudioLengthMs": 20000, "maxPreSpeechSilenceLengthMs": 5000, "maxPostSpeechSilenceLengthMs": 700}}, "goTo": {"DEFAULT": "VF_END", "goToForStopRecordReason": {"maxPostSpeechSilenceExceeded": "Done"}}}"#,
                #"{"id": "Done", "type": "node", "name": "Done", "goTo": {"DEFAULT": "VF_END"}}"#))
        #expect(try await runner.run() == .completed)
        let lines = await runner.history.map(\.event.description)
        #expect(
            lines.contains(
                #"MediaEvent(R, R, NMF_RECORD_AUDIO, NME_ENDED, {"stopReason":"maxPostSpeechSilenceExceeded","file":"take.wav"})"#
            ), "\(lines)")
        #expect(Self.modules(await runner.history.map(\.event)) == ["VF_START", "R", "Done", "VF_END"])
        let file = try #require(
            [folder.appendingPathComponent("en-US/take.wav"), folder.appendingPathComponent("take.wav")].first {
                FileManager.default.fileExists(atPath: $0.path)
            })
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let seconds = Double(size - 44) / 32_000
        // 0.5 s of silence, about a second of speech, then the 700 ms of silence (with the detector's hangover).
        #expect(seconds > 1.5 && seconds < 4, "recorded \(seconds) s")
    }

    /// Collects what is played, one entry per segment.
    actor CollectingSink: AudioSink {
        private(set) var played: [Duration] = []

        func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
            var total = Duration.zero
            for try await chunk in audio { total += chunk.duration }
            played.append(total)
        }
    }

    @Test func loopPlayMaxPlayCountAndStartPosMsShapeWhatIsPlayed() async throws {
        let prompts = """
            [{"id": "Once", "style": "single", "textString": "Thank you for holding."},
             {"id": "Thrice", "style": "single", "textString": "Thank you for holding.", "audioPlaybackParams": {"loopPlay": true, "maxPlayCount": 3}},
             {"id": "Later", "style": "single", "textString": "Thank you for holding.", "audioPlaybackParams": {"startPosMsRuntime": "$[Start]"}}]
            """
        let sink = CollectingSink()
        let runner = Self.runner([], output: sink)
        try await runner.loadPrompts(json: prompts)
        try await runner.loadVoiceFlow(
            json: flow(start: "A", play("A", "Once", next: "B"), play("B", "Thrice", next: "C"), play("C", "Later")))
        await runner.setRuntimeField("Start", 600)
        #expect(try await runner.run() == .completed)
        let played = await sink.played
        try #require(played.count == 5, "\(played)")
        let once = played[0]
        #expect(once > .milliseconds(800))
        // Chunk durations are rounded to the nanosecond, so sums may differ by a few.
        func close(_ a: Duration, _ b: Duration) -> Bool { abs((a - b) / .microseconds(1)) < 1 }
        #expect(played[1...3].allSatisfy { close($0, once) }, "three whole plays: \(played)")
        #expect(close(played[4], once - .milliseconds(600)), "from 600 ms on: \(played)")
    }

    struct InterruptOnce: VoiceFlowDelegate {
        func mediaEvent(
            _ runner: VoiceFlowRunner, moduleID: String, mediaItemID: String, function: MediaFunction,
            event: MediaEvent, data: JSONObject
        ) async {
            if function == .playAudioSegment, event == .started, await runner.history.count < 8 {
                try? await runner.audioInterruptionBegan()
            }
            if function == .audioSession, event == .interruptionBegan { try? await runner.audioInterruptionEnded() }
        }
    }

    @Test func anAudioSessionInterruptionStopsThePromptAndResumesIt() async throws {
        let runner = Self.runner([])
        try await runner.loadPrompts(json: textPrompts("A"))
        try await runner.loadVoiceFlow(
            json: flow(
                start: "M",
                #"{"id": "M", "type": "playAudio", "name": "M", "playAudioParams": {"promptID": "A"}, "audioInterruptTransitionParams": {"transitionType": "resume"}, "goTo": {"DEFAULT": "VF_END"}}"#
            ))
        await runner.setDelegate(InterruptOnce())
        #expect(try await runner.run() == .completed)
        let lines = await runner.history.map(\.event.description).filter { $0.hasPrefix("MediaEvent") }
        #expect(
            lines == [
                "MediaEvent(M, A, NMF_PLAY_AUDIO, NME_STARTED)",
                "MediaEvent(M, A, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(M, A, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED)",
                "MediaEvent(M, A, NMF_PLAY_AUDIO, NME_STOPPED)",
                "MediaEvent(M, M, NMF_AUDIO_SESSION, NME_INTERRUPTION_BEGAN)",
                #"MediaEvent(M, M, NMF_AUDIO_SESSION, NME_INTERRUPTION_ENDED, {"transitionType":"resume"})"#,
                "MediaEvent(M, A, NMF_PLAY_AUDIO, NME_STARTED)",
                "MediaEvent(M, A, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(M, A, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)", "MediaEvent(M, A, NMF_PLAY_AUDIO, NME_ENDED)",
            ])
        await #expect(throws: ParleyError.self) { try await runner.audioInterruptionEnded() }
    }

    @Test func theAudioSessionConfigurationParsesTheSeedsJSONAndIsRecordedOnLinux() async throws {
        let seed = try AudioSessionConfiguration(parsing: try Fixture.text("seed-audio-session.json"))
        #expect(seed.categories == ["mixWithOthers", "allowBluetooth", "defaultToSpeaker"])
        #expect(seed.mode == .default)
        #expect(
            AudioSessionConfiguration.standard
                == AudioSessionConfiguration(
                    categories: ["allowBluetooth", "duckOthers", "defaultToSpeaker"], mode: .voiceChat))
        #expect(throws: ParleyError.self) {
            try AudioSessionConfiguration(parsing: #"{"categories": {"duckOthers": "maybe"}}"#)
        }
        #expect(throws: ParleyError.self) { try AudioSessionConfiguration(parsing: #"{"mode": "karaoke"}"#) }

        let runner = Self.runner([])
        let report = try await runner.initializeAudioSession(json: try Fixture.text("seed-audio-session.json"))
        #expect(report.configuration == seed)
        #expect(report.applied == false, "Linux has no per-app audio session")
        #expect(report.note?.contains("recorded only") == true)
        #expect(await runner.initializeDefaultAudioSession().configuration == .standard)
        #expect(await runner.audioSession?.configuration == .standard)
    }
}
