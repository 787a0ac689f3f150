import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// The engine as a value: every module type, prompt style, failure route and retry rule, without audio or clocks.
@Suite("Engine")
struct EngineTests {
    // MARK: Module types

    @Test func nodeAndProcessSetFieldsAndFollowDefault() throws {
        var simulation = try Simulation(
            flow(
                start: "P",
                #"{"id": "P", "type": "process", "name": "P", "processParams": {"setValueForFieldNameCollection": [{"name": "$[Mode]", "value": "Sleep"}, {"name": "$[Done]", "value": true}, {"name": "$[Greeting]", "value": "Hi $[User]"}]}, "goTo": {"DEFAULT": "N"}}"#,
                #"{"id": "N", "type": "node", "name": "N", "goTo": {"DEFAULT": "$[Next]"}}"#,
                #"{"id": "X", "type": "runAEC", "name": "X", "goTo": {"DEFAULT": "VF_END"}}"#),
            fields: ["User": "Ann", "Next": "X"])
        #expect(
            simulation.run() == [
                "PreModuleStart(VF_START)", "PreModuleEnd(VF_START)", "PreModuleStart(P)", "PreModuleEnd(P)",
                "PreModuleStart(N)", "PreModuleEnd(N)", "PreModuleStart(X)", "PreModuleEnd(X)",
                "PreModuleStart(VF_END)", "PreModuleEnd(VF_END)",
            ])
        #expect(simulation.reason == .completed)
        #expect(simulation.engine.fields["Mode"] == "Sleep")
        #expect(simulation.engine.fields["Done"] == true)
        #expect(simulation.engine.fields["Greeting"] == "Hi Ann")
    }

    @Test func playAudioStylesSingleComboSerialAndSeededSelect() throws {
        let prompts = """
            [{"id": "A", "style": "single", "textString": "a"}, {"id": "B", "style": "single", "textString": "b"},
             {"id": "C", "style": "single", "textString": "c"},
             {"id": "Combo", "style": "combo", "promptCollection": [{"promptID": "A"}, {"promptID": "B"}]},
             {"id": "Pick", "style": "select", "promptCollection": [{"promptID": "A"}, {"promptID": "B"}, {"promptID": "C"}]}]
            """
        func texts(_ module: String, seed: UInt64 = 7) throws -> [String] {
            var simulation = try Simulation(flow(start: "M", module), prompts: prompts, seed: seed)
            simulation.run()
            return simulation.transcript.filter { $0.hasPrefix("PlayAudioSegmentData") }
        }
        #expect(
            try texts(play("M", "Combo")) == [
                "PlayAudioSegmentData(M, A, textString, text: \"a\")",
                "PlayAudioSegmentData(M, B, textString, text: \"b\")",
            ])
        #expect(
            try texts(
                #"{"id": "M", "type": "playAudio", "name": "M", "playAudioParams": {"style": "combo", "promptCollection": [{"promptID": "C"}, {"promptID": "Combo"}]}, "goTo": {"DEFAULT": "VF_END"}}"#
            ).count == 3)
        #expect(
            try texts(
                #"{"id": "M", "type": "playAudio", "name": "M", "playAudioParams": {"style": "serial", "promptCollection": [{"promptID": "B"}, {"promptID": "C"}]}, "goTo": {"DEFAULT": "VF_END"}}"#
            ) == [
                "PlayAudioSegmentData(M, B, textString, text: \"b\")"
            ], "serial plays the first prompt on the first attempt")
        let picks = try (1...12).map { seed in try texts(play("M", "Pick"), seed: UInt64(seed)) }
        #expect(picks.allSatisfy { $0.count == 1 })
        #expect(Set(picks.map { $0[0] }).count == 3, "select reaches every prompt over several seeds")
        #expect(
            try texts(play("M", "Pick"), seed: 5) == texts(play("M", "Pick"), seed: 5),
            "the same seed picks the same prompt")
    }

    @Test func audioFilesPlayWhenPresentAndFallBackToTheMapThenToText() throws {
        let prompts = """
            [{"id": "Here", "audioFile": "here.wav", "textString": "here"},
             {"id": "Mapped", "audioFile": "mapped.wav", "textString": "own text"},
             {"id": "Texted", "audioFile": "gone.wav", "textString": "fallback"},
             {"id": "Runtime", "audioFile": "$[File]"}]
            """
        var simulation = try Simulation(
            flow(
                start: "M",
                #"{"id": "M", "type": "playAudio", "name": "M", "playAudioParams": {"promptCollection": [{"promptID": "Here"}, {"promptID": "Mapped"}, {"promptID": "Texted"}, {"promptID": "Runtime"}]}, "goTo": {"DEFAULT": "VF_END"}}"#
            ),
            prompts: prompts,
            map: #"[{"audioFile": "mapped.wav", "textString": "map says $[Name]", "textLanguage": "fr-FR"}]"#,
            fields: ["Name": "hi", "File": "here.wav"], audioFiles: ["here.wav"])
        simulation.run()
        #expect(
            simulation.transcript.filter { $0.hasPrefix("PlayAudioSegmentData") } == [
                "PlayAudioSegmentData(M, Here, audioFile, audioFile: here.wav, text: \"here\")",
                "PlayAudioSegmentData(M, Mapped, textString, audioFile: mapped.wav, text: \"map says hi\")",
                "PlayAudioSegmentData(M, Texted, textString, audioFile: gone.wav, text: \"fallback\")",
                "PlayAudioSegmentData(M, Runtime, audioFile, audioFile: here.wav)",
            ])
    }

    @Test func recordAudioPlaysItsPromptThenRecordsAndRoutesByStopReason() throws {
        let module =
            #"{"id": "R", "type": "recordAudio", "name": "R", "recordAudioParams": {"id": "take", "recordPlayPromptParams": {"promptID": "Beep"}, "stopRecordParams": {"maxAudioLengthMs": 5000, "maxPreSpeechSilenceLengthMsRuntime": "$[Pre]", "maxPreSpeechSilenceLengthMs": 100}}, "goTo": {"DEFAULT": "VF_END", "goToForStopRecordReason": {"maxAudioExceeded": "TooLong"}}}"#
        let text = flow(start: "R", module, play("TooLong", "Beep"))
        var simulation = try Simulation(text, prompts: textPrompts("Beep"), fields: ["Pre": "2500"])
        simulation.recordStopReason = "maxAudioExceeded"
        simulation.run()
        #expect(simulation.modulesEntered == ["VF_START", "R", "TooLong", "VF_END"])
        #expect(
            Array(simulation.transcript[2...9]) == [
                "PreModuleStart(R)",
                "MediaEvent(R, Beep, NMF_PLAY_AUDIO, NME_STARTED)",
                "PlayAudioSegmentData(R, Beep, textString, text: \"Beep text\")",
                "MediaEvent(R, Beep, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(R, Beep, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "MediaEvent(R, Beep, NMF_PLAY_AUDIO, NME_ENDED)",
                "MediaEvent(R, R, NMF_RECORD_AUDIO, NME_STARTED)",
                "MediaEvent(R, R, NMF_RECORD_AUDIO, NME_ENDED, {\"stopReason\":\"maxAudioExceeded\",\"file\":\"take.wav\"})",
            ])
        #expect(simulation.recordings.first?.maxLength == .seconds(5))
        #expect(simulation.recordings.first?.maxPreSpeechSilence == .milliseconds(2500), "the runtime twin wins")

        var noPlay = try Simulation(
            text.replacingOccurrences(
                of: #""promptID": "Beep"}"#, with: #""promptID": "Beep", "recordPromptNoPlay": true}"#),
            prompts: textPrompts("Beep"))
        noPlay.run()
        #expect(
            noPlay.transcript[3] == "MediaEvent(R, R, NMF_RECORD_AUDIO, NME_STARTED)",
            "recordPromptNoPlay skips the prompt")
        #expect(noPlay.modulesEntered == ["VF_START", "R", "VF_END"], "other stop reasons take DEFAULT")
    }

    /// A runtime field is data from outside the flow: `1e300` (or a negative or fractional time) where a time in
    /// milliseconds belongs is a typed error that takes the module's failure route, never a trap.
    @Test(arguments: [1e300, -1e300, -5, 2.5, 1e17])
    func aRuntimeTimeOutOfRangeIsATypedError(_ value: Double) throws {
        let module =
            #"{"id": "R", "type": "recordAudio", "name": "R", "recordAudioParams": {"id": "take", "stopRecordParams": {"maxAudioLengthMsRuntime": "$[Huge]"}}, "goTo": {"DEFAULT": "VF_END", "internalFailure": "Oops"}}"#
        let text = flow(start: "R", module, play("Oops", "Beep"))
        var simulation = try Simulation(text, prompts: textPrompts("Beep"), fields: ["Huge": .number(value)])
        simulation.run()
        #expect(simulation.modulesEntered == ["VF_START", "R", "Oops", "VF_END"])
        #expect(simulation.recordings.isEmpty)
        #expect(simulation.engine.lastError?.code.rawValue == "voiceflow.invalidValue")
        #expect(simulation.engine.lastError?.message.contains("maxAudioLengthMs") == true)

        var asText = try Simulation(text, prompts: textPrompts("Beep"), fields: ["Huge": .string("1e300")])
        asText.run()
        #expect(asText.modulesEntered == ["VF_START", "R", "Oops", "VF_END"], "the same number as text")
    }

    @Test func pauseResumeWaitsForResume() throws {
        var simulation = try Simulation(
            flow(start: "Wait", #"{"id": "Wait", "type": "pauseResume", "name": "W", "goTo": {"DEFAULT": "VF_END"}}"#))
        simulation.run()
        #expect(
            Array(simulation.transcript[2...5]) == [
                "PreModuleStart(Wait)", "pause", "PreModuleEnd(Wait)", "PreModuleStart(VF_END)",
            ])
    }

    // MARK: Dialogs

    static func dialog(
        retries: String = #""maxRetryCount": {"timeout": 2, "garbage": 1, "sr_error": 1}"#, prompts: String? = nil
    ) -> String {
        let dialogPrompts =
            prompts ?? """
                [{"type": "preInitial", "promptID": "Hello"}, {"type": "initial", "promptID": "Ask"},
                 {"type": "timeout", "style": "serial", "promptCollection": [{"promptID": "T1"}, {"promptID": "T2"}]},
                 {"type": "garbage", "promptID": "G"}]
                """
        return flow(
            start: "D",
            #"{"id": "D", "type": "audioDialog", "name": "D", "audioDialogParams": {"dialogPromptCollection": \#(dialogPrompts), \#(retries)}, "recordAudioParams": {"stopRecordParams": {"maxPreSpeechSilenceLengthMs": 3000}}, "goTo": {"DEFAULT": "Default", "maxTimeoutCount": "NoInput", "maxGarbageCount": "NoMatch", "maxSRErrorCount": "Broken", "userIntentCollection": [{"intent": "Sleep", "goTo": "Sleep"}], "goToForUserInput": [{"input": "red", "goTo": "Red"}, {"input": "blue", "comparator": "contains", "goTo": "Blue"}, {"input": "go", "comparator": "starts", "goTo": "Go"}, {"input": "yes", "enablePartialSRHypothsis": true, "goTo": "Yes"}]}}"#,
            play("Default", "Ask"), play("NoInput", "Ask"), play("NoMatch", "Ask"), play("Broken", "Ask"),
            play("Sleep", "Ask"),
            play("Red", "Ask"), play("Blue", "Ask"), play("Go", "Ask"), play("Yes", "Ask"))
    }

    static let dialogPrompts = textPrompts("Hello", "Ask", "T1", "T2", "G")

    func prompts(_ simulation: Simulation) -> [String] {
        simulation.transcript.compactMap { line in
            guard line.hasPrefix("PlayAudioSegmentData(D, ") else { return nil }
            return String(line.dropFirst("PlayAudioSegmentData(D, ".count).prefix { $0 != "," })
        }
    }

    @Test func inputComparatorsAreCaseInsensitive() throws {
        for (heard, target) in [
            ("RED", "Red"), (" Red ", "Red"), ("navy blue please", "Blue"), ("go away", "Go"), ("red car", "NoMatch"),
        ] {
            var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
            simulation.outcomes = [.heard(heard), .heard(heard)]
            simulation.run()
            #expect(simulation.modulesEntered.dropFirst(2).first == target, "\(heard)")
        }
        var phrases = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        phrases.outcomes = [.heard("red")]
        phrases.run()
        #expect(phrases.plans.first?.phrases == ["red", "blue", "go", "yes"])
        #expect(phrases.plans.first?.noInputTimeout == .seconds(3))
    }

    @Test func partialHypothesesMatchOnlyWhereEnabled() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.heard("yesterday", partials: ["yes"])]
        simulation.run()
        #expect(simulation.modulesEntered.dropFirst(2).first == "Yes")
        #expect(simulation.transcript.contains("SRHypothesis(D, partial: \"yes\")"))
    }

    @Test func intentsWinOverInputsAndAreResetBeforeEachAttempt() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.engine.userIntent = "Sleep"  // stale: reset on entering the dialog
        simulation.outcomes = [.heard("red")]
        simulation.onEvent = { event, engine in
            if case .srHypothesis = event { engine.userIntent = "Sleep" }
        }
        simulation.run()
        #expect(simulation.modulesEntered.dropFirst(2).first == "Sleep")

        var stale = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        stale.engine.userIntent = "Sleep"
        stale.outcomes = [.heard("red")]
        stale.run()
        #expect(stale.modulesEntered.dropFirst(2).first == "Red")
    }

    @Test func aRejectedHypothesisCountsAsGarbage() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.heard("red"), .heard("blue")]
        var first = true
        simulation.onEvent = { event, engine in
            if case .srHypothesis = event, first {
                first = false
                engine.rejectHypothesis()
            }
        }
        simulation.run()
        #expect(prompts(simulation) == ["Hello", "Ask", "G"])
        #expect(simulation.modulesEntered.dropFirst(2).first == "Blue")
    }

    @Test func timeoutsRetryWithSerialPromptsThenTakeMaxTimeoutCount() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.silence, .silence, .silence]
        simulation.run()
        #expect(prompts(simulation) == ["Hello", "Ask", "T1", "T2"], "preInitial once; timeout prompts in series")
        #expect(
            simulation.transcript.filter { $0.hasSuffix("NME_TIMEOUT)") }.count == 3, "timeout: 2 allows two retries")
        #expect(simulation.modulesEntered.dropFirst(2).first == "NoInput")
    }

    @Test func garbageRetriesOnceThenTakesMaxGarbageCount() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.heard("purple"), .heard("green")]
        simulation.run()
        #expect(prompts(simulation) == ["Hello", "Ask", "G"])
        #expect(simulation.modulesEntered.dropFirst(2).first == "NoMatch")
    }

    @Test func recognitionErrorsRetryWithTheInitialPromptWhenThereIsNoErrorPrompt() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.error, .error]
        simulation.run()
        #expect(prompts(simulation) == ["Hello", "Ask", "Ask"])
        #expect(simulation.modulesEntered.dropFirst(2).first == "Broken")
    }

    @Test func countersAreSeparatePerKind() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.silence, .heard("purple"), .silence, .heard("red")]
        simulation.run()
        #expect(prompts(simulation) == ["Hello", "Ask", "T1", "G", "T2"])
        #expect(simulation.modulesEntered.dropFirst(2).first == "Red")
    }

    @Test func defaultsAndRuntimeMaximaApply() throws {
        var defaults = try Simulation(
            Self.dialog(retries: #""_COMMENT_": "no maxRetryCount""#), prompts: Self.dialogPrompts)
        defaults.outcomes = [.silence, .silence, .silence]
        defaults.run()
        #expect(defaults.transcript.filter { $0.hasSuffix("NME_TIMEOUT)") }.count == 3, "default: two timeout retries")
        #expect(Engine.defaultRetries == ["timeout": 2, "garbage": 2, "sr_error": 1])

        var runtime = try Simulation(
            Self.dialog(retries: #""maxRetryCount": {"timeout": 2, "timeoutRuntime": "$[Tries]", "garbage": 1}"#),
            prompts: Self.dialogPrompts, fields: ["Tries": 0])
        runtime.outcomes = [.silence]
        runtime.run()
        #expect(runtime.modulesEntered.dropFirst(2).first == "NoInput", "timeoutRuntime 0: no retry")
    }

    @Test func aHypothesisInAModuleWithoutRulesTakesDefault() throws {
        var simulation = try Simulation(
            flow(
                start: "D",
                #"{"id": "D", "type": "audioDialog", "name": "D", "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "promptID": "Ask"}]}, "goTo": {"DEFAULT": "VF_END"}}"#
            ), prompts: textPrompts("Ask"))
        simulation.outcomes = [.heard("anything")]
        simulation.run()
        #expect(simulation.modulesEntered == ["VF_START", "D", "VF_END"])
        #expect(simulation.plans.first?.noInputTimeout == .seconds(8), "the default no-input timeout")
    }

    // MARK: Listener

    @Test func aListenerIntentSetDuringPlaybackLeavesBeforeListening() throws {
        var simulation = try Simulation(
            flow(
                start: "L",
                #"{"id": "L", "type": "audioListener", "name": "L", "audioListenerParams": {"promptID": "$[Prompt]"}, "goTo": {"DEFAULT": "VF_END", "userIntentCollection": [{"intent": "Stop", "goTo": "Bye"}]}}"#,
                play("Bye", "Ask")), prompts: textPrompts("Ask", "Long"), fields: ["Prompt": "Long"])
        simulation.onEvent = { event, engine in
            if case .mediaEvent(_, _, .playAudioSegment, .ended, _) = event { engine.userIntent = "Stop" }
        }
        simulation.run()
        #expect(
            Array(simulation.transcript[2...8]) == [
                "PreModuleStart(L)",
                "MediaEvent(L, Long, NMF_PLAY_AUDIO, NME_STARTED)",
                "PlayAudioSegmentData(L, Long, textString, text: \"Long text\")",
                "MediaEvent(L, Long, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(L, Long, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "MediaEvent(L, Long, NMF_PLAY_AUDIO, NME_STOPPED)",
                "PreModuleEnd(L)",
            ])
        #expect(simulation.plans.isEmpty)
    }

    // MARK: Failure routes

    @Test func loadPromptFailureRoutesThenInternalFailureThenDefault() throws {
        func route(_ goTo: String) throws -> [String] {
            var simulation = try Simulation(
                flow(
                    start: "P",
                    #"{"id": "P", "type": "playAudio", "name": "P", "playAudioParams": {"promptID": "Nope"}, "goTo": {\#(goTo)}}"#,
                    play("LPF", "Ask"), play("IF", "Ask")), prompts: textPrompts("Ask"))
            simulation.run()
            #expect(simulation.engine.lastError?.code == .loadPromptFailure)
            return simulation.modulesEntered
        }
        #expect(
            try route(#""DEFAULT": "VF_END", "loadPromptFailure": "LPF", "internalFailure": "IF""#) == [
                "VF_START", "P", "LPF", "VF_END",
            ])
        #expect(try route(#""DEFAULT": "VF_END", "internalFailure": "IF""#) == ["VF_START", "P", "IF", "VF_END"])
        #expect(try route(#""DEFAULT": "VF_END""#) == ["VF_START", "P", "VF_END"])
    }

    @Test func aSegmentThatFailsToPlayTakesLoadPromptFailure() throws {
        var simulation = try Simulation(
            flow(
                start: "P",
                #"{"id": "P", "type": "playAudio", "name": "P", "playAudioParams": {"promptID": "Ask"}, "goTo": {"DEFAULT": "VF_END", "loadPromptFailure": "LPF"}}"#,
                play("LPF", "Other")), prompts: textPrompts("Ask", "Other"))
        simulation.failingPrompts = ["Ask"]
        simulation.run()
        #expect(
            Array(simulation.transcript[4...8]) == [
                "PlayAudioSegmentData(P, Ask, textString, text: \"Ask text\")",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO_SEGMENT, NME_ERROR, {\"code\":\"speech.audioFileMissing\",\"message\":\"cannot play\"})",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO, NME_ERROR, {\"code\":\"speech.audioFileMissing\",\"message\":\"cannot play\"})",
                "PreModuleEnd(P)",
            ])
        #expect(simulation.modulesEntered == ["VF_START", "P", "LPF", "VF_END"])
    }

    @Test func aMissingAudioFileWithoutTextIsALoadPromptFailure() throws {
        var simulation = try Simulation(
            flow(
                start: "P",
                #"{"id": "P", "type": "playAudio", "name": "P", "playAudioParams": {"promptID": "Rec"}, "goTo": {"DEFAULT": "VF_END", "loadPromptFailure": "LPF"}}"#,
                play("LPF", "Ask")),
            prompts: #"[{"id": "Rec", "audioFile": "missing.wav"}, {"id": "Ask", "textString": "a"}]"#)
        simulation.run()
        #expect(
            simulation.engine.lastError
                == ParleyError(
                    .loadPromptFailure, "prompt Rec: audio file missing.wav is missing and there is no text for it"))
        #expect(simulation.modulesEntered == ["VF_START", "P", "LPF", "VF_END"])
    }

    @Test func anUnsetRuntimeTargetTakesInternalFailureOrFailsTheRun() throws {
        var routed = try Simulation(
            flow(
                start: "N",
                #"{"id": "N", "type": "node", "name": "N", "goTo": {"DEFAULT": "$[Where]", "internalFailure": "IF"}}"#,
                play("IF", "Ask")), prompts: textPrompts("Ask"))
        routed.run()
        #expect(routed.modulesEntered == ["VF_START", "N", "IF", "VF_END"])

        var failed = try Simulation(
            flow(start: "N", #"{"id": "N", "type": "node", "name": "N", "goTo": {"DEFAULT": "$[Where]"}}"#))
        failed.run()
        #expect(
            failed.reason
                == .failed(ParleyError(.internalFailure, "goTo target $[Where] of N is an unset runtime field")))
        #expect(failed.transcript.last == "PreModuleStart(N)")
    }

    @Test func aRuntimeTargetNamingNoModuleIsAnInternalFailure() throws {
        var simulation = try Simulation(
            flow(start: "N", #"{"id": "N", "type": "node", "name": "N", "goTo": {"DEFAULT": "$[Where]"}}"#),
            fields: ["Where": "Atlantis"])
        simulation.run()
        #expect(simulation.reason == .failed(ParleyError(.danglingGoTo, "goTo target Atlantis of N names no module")))
    }

    @Test func processLoopsWithoutMediaAreStopped() throws {
        let text = flow(
            start: "A",
            #"{"id": "A", "type": "process", "name": "A", "goTo": {"DEFAULT": "B"}}"#,
            #"{"id": "B", "type": "process", "name": "B", "goTo": {"DEFAULT": "A"}}"#)
        var simulation = try Simulation(text)
        simulation.run()
        guard case .failed(let error) = simulation.reason else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .transitionLoop)
        #expect(simulation.modulesEntered.count == 1001)
    }

    // MARK: Control

    @Test func stopAndInterruptReportStoppedMedia() throws {
        var simulation = try Simulation(
            flow(start: "P", play("P", "Ask"), play("Q", "Ask")), prompts: textPrompts("Ask"))
        var engine = simulation.engine
        _ = engine.handle(.start)
        _ = engine.handle(.proceed)  // leave VF_START
        _ = engine.handle(.proceed)  // enter P
        let playing = engine.handle(.proceed)
        #expect(
            playing.last == .play(PlaybackSegment(moduleID: "P", promptID: "Ask", type: .textString, text: "Ask text")))
        var interrupted = engine
        #expect(
            interrupted.handle(.interrupt(to: "Q")) == [
                .emit(
                    .mediaEvent(
                        moduleID: "P", mediaItemID: "Ask", function: .playAudioSegment, event: .stopped, data: [:])),
                .emit(.mediaEvent(moduleID: "P", mediaItemID: "Ask", function: .playAudio, event: .stopped, data: [:])),
                .emit(.preModuleEnd(moduleID: "P")),
                .emit(.preModuleStart(moduleID: "Q")),
                .proceed,
            ])
        #expect(
            engine.handle(.stop) == [
                .emit(
                    .mediaEvent(
                        moduleID: "P", mediaItemID: "Ask", function: .playAudioSegment, event: .stopped, data: [:])),
                .emit(.mediaEvent(moduleID: "P", mediaItemID: "Ask", function: .playAudio, event: .stopped, data: [:])),
                .emit(.preModuleEnd(moduleID: "P")),
                .finish(.stopped),
            ])
        #expect(engine.isActive == false)
        #expect(engine.handle(.stop).isEmpty, "stopping twice does nothing")
        simulation.engine = engine
    }

    @Test func runtimeFieldsResolveWholeAndPartialReferences() {
        let fields = RuntimeFields(["Name": "Ann", "Count": 3, "On": true])
        #expect(fields.resolve("$[Name]") == "Ann")
        #expect(fields.resolve("$[Count]") == "3")
        #expect(fields.resolve("$[Missing]") == nil)
        #expect(fields.resolve("Hi $[Name], $[Count] new, $[Missing]!") == "Hi Ann, 3 new, !")
        #expect(fields.resolve("literal $$[Name]") == "literal $[Name]")
        #expect(fields.resolve(JSONValue.string("$[On]")) == .bool(true))
        #expect(RuntimeFields.reference(in: "$[A]b") == nil)
    }
}
