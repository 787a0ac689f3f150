import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// The engine's live-speech parameters as a value machine: loopPlay/maxPlayCount, startPosMs, enableVAD,
/// recognizeWhilePlay (barge-in), streamed partials and audio-session interruptions — no audio, no clock, no sleeps.
@Suite("Engine: live parameters")
struct LiveEngineTests {
    static let loopPrompts = """
        [{"id": "Hold", "style": "single", "textString": "please hold", "audioPlaybackParams": {"loopPlay": true, "maxPlayCount": 3}},
         {"id": "Forever", "style": "single", "textString": "music", "audioPlaybackParams": {"loopPlayRuntime": "$[Loop]", "maxPlayCount": 0}},
         {"id": "Once", "style": "single", "textString": "once", "audioPlaybackParams": {"maxPlayCount": 5}},
         {"id": "From", "style": "single", "textString": "from", "audioPlaybackParams": {"startPosMs": 1500, "startPosMsRuntime": "$[Start]"}}]
        """

    @Test func loopPlayPlaysMaxPlayCountTimesAndCountsThem() throws {
        var simulation = try Simulation(flow(start: "M", play("M", "Hold")), prompts: Self.loopPrompts)
        simulation.run()
        #expect(simulation.played.count == 3)
        #expect(
            simulation.transcript.filter { $0.contains("NMF_PLAY_AUDIO_SEGMENT") } == [
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED, {"playCount":1})"#,
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED, {"playCount":1})"#,
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED, {"playCount":2})"#,
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED, {"playCount":2})"#,
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED, {"playCount":3})"#,
                #"MediaEvent(M, Hold, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED, {"playCount":3})"#,
            ])
        #expect(simulation.transcript.filter { $0.contains("NMF_PLAY_AUDIO,") }.count == 2, "one STARTED, one ENDED")
        #expect(simulation.reason == .completed)
    }

    @Test func maxPlayCountWithoutLoopPlaysOnceAndLoopWithoutLimitRunsUntilStopped() throws {
        var once = try Simulation(flow(start: "M", play("M", "Once")), prompts: Self.loopPrompts)
        once.run()
        #expect(once.played.count == 1)
        #expect(once.played.first?.plays == 1)

        // loopPlay from a runtime field, maxPlayCount 0: it plays until something stops it.
        var forever = try Simulation(
            flow(start: "M", play("M", "Forever")), prompts: Self.loopPrompts, fields: ["Loop": true])
        forever.run(limit: 40)
        #expect(forever.played.count >= 10)
        #expect(forever.played.allSatisfy { segment in segment.plays == nil })
        #expect(forever.reason == nil, "still playing")
        let actions = forever.engine.handle(.stop)
        #expect(actions.last == .finish(.stopped))
        #expect(
            actions.contains(
                .emit(
                    .mediaEvent(
                        moduleID: "M", mediaItemID: "Forever", function: .playAudio, event: .stopped, data: [:]
                    ))))

        var unset = try Simulation(flow(start: "M", play("M", "Forever")), prompts: Self.loopPrompts)
        unset.run()
        #expect(unset.played.count == 1, "no loop without the field")
    }

    @Test func startPosMsAndItsRuntimeTwinApplyToTheFirstPlayOnly() throws {
        var fixed = try Simulation(flow(start: "M", play("M", "From")), prompts: Self.loopPrompts)
        fixed.run()
        #expect(fixed.played.map(\.startPosition) == [1500])

        var runtime = try Simulation(
            flow(start: "M", play("M", "From")), prompts: Self.loopPrompts, fields: ["Start": "2500"])
        runtime.run()
        #expect(runtime.played.map(\.startPosition) == [2500], "a valid runtime field overrides")

        let looping = """
            [{"id": "L", "style": "single", "textString": "l", "audioPlaybackParams": {"startPosMs": 800, "loopPlay": true, "maxPlayCount": 2}}]
            """
        var loop = try Simulation(flow(start: "M", play("M", "L")), prompts: looping)
        loop.run()
        #expect(loop.played.map(\.startPosition) == [800, nil], "repeats start at the beginning")
    }

    static func dialog(bargeIn: String = #""recognizeWhilePlay": true"#, vad: String = "") -> String {
        flow(
            start: "D",
            #"{"id": "D", "type": "audioDialog", "name": "D", "recognizeAudioParams": {"srSessionParams": {"enablePartialResults": true}}, "recordAudioParams": {\#(vad) "stopRecordParams": {"maxPreSpeechSilenceLengthMs": 3000, "maxPostSpeechSilenceLengthMs": 700, "maxSpeechLengthMs": 9000}}, "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "style": "combo", "promptCollection": [{"promptID": "Intro"}, {"promptID": "Ask"}], \#(bargeIn)}, {"type": "garbage", "promptID": "Sorry"}], "maxRetryCount": {"garbage": 1}}, "goTo": {"DEFAULT": "VF_END", "maxGarbageCount": "VF_END", "goToForUserInput": [{"input": "go to sleep", "goTo": "Sleep"}, {"input": "yes", "enablePartialSRHypothsis": true, "goTo": "Yes"}]}}"#,
            play("Sleep", "Sorry"), play("Yes", "Sorry"))
    }

    static let dialogPrompts = textPrompts("Intro", "Ask", "Sorry")

    @Test func recognizeWhilePlayListensWithThePromptAndABargeInStopsIt() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.onPlay = { segment, index in index == 0 ? .bargeIn(playedTo: .milliseconds(1234)) : nil }
        simulation.outcomes = [.partial("go"), .partial("go to"), .heard("go to sleep")]
        simulation.run()
        #expect(
            Array(simulation.transcript.prefix(14)) == [
                "PreModuleStart(VF_START)", "PreModuleEnd(VF_START)", "PreModuleStart(D)",
                "MediaEvent(D, D, NMF_PLAY_AUDIO, NME_STARTED)",
                "MediaEvent(D, D, NMF_RECOGNIZE_AUDIO, NME_STARTED)", "listen",
                "PlayAudioSegmentData(D, Intro, textString, text: \"Intro text\")",
                "MediaEvent(D, Intro, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                #"MediaEvent(D, Intro, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED, {"positionMs":1234})"#,
                #"MediaEvent(D, D, NMF_PLAY_AUDIO, NME_STOPPED, {"reason":"bargeIn"})"#,
                "SRHypothesis(D, partial: \"go\")", "SRHypothesis(D, partial: \"go to\")",
                "SRHypothesis(D, complete: \"go to sleep\")", "MediaEvent(D, D, NMF_RECOGNIZE_AUDIO, NME_ENDED)",
            ])
        #expect(
            simulation.played.filter { $0.moduleID == "D" }.map(\.promptID) == ["Intro"],
            "the second prompt never plays")
        #expect(simulation.plans.isEmpty, "no second listening after the prompt")
        #expect(simulation.listens.count == 1)
        #expect(simulation.listens.first?.noInputTimeout == .milliseconds(3000))
        #expect(simulation.listens.first?.endSilence == .milliseconds(700))
        #expect(simulation.listens.first?.maxSpeech == .milliseconds(9000))
        #expect(simulation.listens.first?.voiceActivity == nil, "enableVAD is off by default")
        #expect(simulation.modulesEntered == ["VF_START", "D", "Sleep", "VF_END"])
    }

    @Test func withoutABargeInTheWholePromptPlaysAndTheListeningGoesOn() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.partial("y"), .heard("no idea")]
        simulation.run()
        let transcript = simulation.transcript
        let ended = try #require(transcript.firstIndex(of: "MediaEvent(D, D, NMF_PLAY_AUDIO, NME_ENDED)"))
        let partial = try #require(transcript.firstIndex(of: "SRHypothesis(D, partial: \"y\")"))
        #expect(ended < partial)
        #expect(
            transcript[..<partial].filter { $0 == "MediaEvent(D, D, NMF_RECOGNIZE_AUDIO, NME_STARTED)" }.count == 1,
            "one listening through both prompts")
        #expect(simulation.played.prefix(2).map(\.promptID) == ["Intro", "Ask"])
        #expect(simulation.played.prefix(2).allSatisfy { $0.bargeIn })
        // "no idea" matches nothing, but the streamed partial "y"… does not match "yes" either: garbage, retry.
        #expect(transcript.contains("PlayAudioSegmentData(D, Sorry, textString, text: \"Sorry text\")"))
        #expect(
            simulation.played.first { $0.promptID == "Sorry" }?.bargeIn == false,
            "the garbage prompt has no recognizeWhilePlay")
        #expect(simulation.plans.count == 1, "the retry listens after its prompt")
    }

    @Test func fileBasedEnginesPlayBargeInPromptsToTheEndThenListen() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        var configuration = simulation.engine.configuration
        configuration.listensWhilePlaying = false
        simulation.engine = Engine(configuration: configuration)
        simulation.outcomes = [.heard("go to sleep")]
        simulation.run()
        #expect(simulation.listens.isEmpty)
        #expect(simulation.plans.count == 1)
        #expect(simulation.played.prefix(2).map(\.promptID) == ["Intro", "Ask"])
        #expect(simulation.modulesEntered == ["VF_START", "D", "Sleep", "VF_END"])
        let transcript = simulation.transcript
        let ended = try #require(transcript.firstIndex(of: "MediaEvent(D, D, NMF_PLAY_AUDIO, NME_ENDED)"))
        let listening = try #require(transcript.firstIndex(of: "MediaEvent(D, D, NMF_RECOGNIZE_AUDIO, NME_STARTED)"))
        #expect(ended < listening)
    }

    @Test func streamedPartialsCountForPartialInputMatches() throws {
        var simulation = try Simulation(Self.dialog(), prompts: Self.dialogPrompts)
        simulation.outcomes = [.partial("yes"), .heard("yes please")]
        simulation.run()
        #expect(simulation.modulesEntered == ["VF_START", "D", "Yes", "VF_END"])
    }

    @Test func enableVADAndItsParametersReachThePlans() throws {
        var simulation = try Simulation(
            Self.dialog(
                bargeIn: #""recognizeWhilePlayRuntime": "$[Barge]""#,
                vad:
                    #""vadParams": {"enableVADRuntime": "$[VAD]", "minSpeechToDetectMs": 120, "minSilenceToDetectMs": 400},"#
            ), prompts: Self.dialogPrompts, fields: ["VAD": true, "Barge": "false"])
        simulation.outcomes = [.heard("go to sleep")]
        simulation.run()
        #expect(simulation.listens.isEmpty, "recognizeWhilePlay false from its runtime field")
        let plan = try #require(simulation.plans.first)
        #expect(plan.voiceActivity == VoiceActivityPlan(minSpeech: .milliseconds(120), minSilence: .milliseconds(400)))
        #expect(plan.voiceActivity?.parameters.onsetFrames == 6)
        #expect(plan.voiceActivity?.parameters.hangoverFrames == 20)

        let record = flow(
            start: "R",
            #"{"id": "R", "type": "recordAudio", "name": "R", "recordAudioParams": {"vadParams": {"enableVAD": true}, "stopRecordParams": {"maxPostSpeechSilenceLengthMs": 900}}, "goTo": {"DEFAULT": "VF_END"}}"#
        )
        var recording = try Simulation(record)
        recording.run()
        #expect(recording.recordings.first?.voiceActivity == VoiceActivityPlan())
        #expect(recording.recordings.first?.maxPostSpeechSilence == .milliseconds(900))
    }

    @Test func aListenerWithRecognizeWhilePlayIsBargedIntoByACommand() throws {
        let flowText = flow(
            start: "L",
            #"{"id": "L", "type": "audioListener", "name": "L", "audioListenerParams": {"promptID": "Story", "recognizeWhilePlay": true}, "goTo": {"DEFAULT": "VF_END", "goToForUserInput": [{"input": "stop", "goTo": "Stopped"}]}}"#,
            play("Stopped", "Story"))
        var simulation = try Simulation(flowText, prompts: textPrompts("Story"))
        simulation.onPlay = { _, index in index == 0 ? .bargeIn(playedTo: .milliseconds(300)) : nil }
        simulation.outcomes = [.heard("stop")]
        simulation.run()
        #expect(simulation.modulesEntered == ["VF_START", "L", "Stopped", "VF_END"])
        #expect(
            simulation.transcript.contains(#"MediaEvent(L, Story, NMF_PLAY_AUDIO, NME_STOPPED, {"reason":"bargeIn"})"#))
    }

    // MARK: Audio-session interruptions

    static func interrupted(_ params: String, process: String = "") -> String {
        flow(
            start: "P",
            #"{"id": "P", "type": "process", "name": "P", \#(process) "goTo": {"DEFAULT": "M"}}"#,
            #"{"id": "M", "type": "playAudio", "name": "M", "playAudioParams": {"style": "combo", "promptCollection": [{"promptID": "A"}, {"promptID": "B"}]}, \#(params) "goTo": {"DEFAULT": "VF_END"}}"#,
            play("Other", "B"))
    }

    /// Interrupts the first play of prompt A 5 s in.
    static func simulate(_ flowText: String) throws -> Simulation {
        var simulation = try Simulation(flowText, prompts: textPrompts("A", "B"))
        simulation.onPlay = { _, index in index == 0 ? .audioInterruptionBegan(playedTo: .seconds(5)) : nil }
        simulation.run()
        return simulation
    }

    @Test func anInterruptionEndsTheFlowByDefault() throws {
        let simulation = try Self.simulate(Self.interrupted(""))
        #expect(simulation.reason == .interrupted)
        #expect(
            Array(simulation.transcript.suffix(6)) == [
                "MediaEvent(M, A, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED)",
                "MediaEvent(M, M, NMF_PLAY_AUDIO, NME_STOPPED)",
                "MediaEvent(M, M, NMF_AUDIO_SESSION, NME_INTERRUPTION_BEGAN)", "interrupted",
                #"MediaEvent(M, M, NMF_AUDIO_SESSION, NME_INTERRUPTION_ENDED, {"transitionType":"end"})"#,
                "PreModuleEnd(M)",
            ])
    }

    @Test func resumeReplaysTheSegmentFromWhereItStoppedLessTheRewind() throws {
        let simulation = try Self.simulate(
            Self.interrupted(
                #""audioInterruptTransitionParams": {"transitionType": "resume", "rewindCurrentAudioSegmentMsRuntime": "$[Rewind]", "rewindCurrentAudioSegmentMs": 1500},"#
            ))
        #expect(simulation.played.map(\.promptID) == ["A", "A", "B"])
        #expect(simulation.played.map(\.startPosition) == [nil, 3500, nil])
        #expect(simulation.reason == .completed)
        #expect(simulation.modulesEntered == ["VF_START", "P", "M", "VF_END"])
    }

    @Test func repeatGotoAndTheFlowWideDefaultFromAProcessModule() throws {
        let repeated = try Self.simulate(
            Self.interrupted(#""audioInterruptTransitionParams": {"transitionType": "repeat"},"#))
        #expect(repeated.modulesEntered == ["VF_START", "P", "M", "M", "VF_END"])
        #expect(repeated.played.map(\.promptID) == ["A", "A", "B"])
        #expect(repeated.played.map(\.startPosition) == [nil, nil, nil])

        let goto = try Self.simulate(
            Self.interrupted(
                #""audioInterruptTransitionParams": {"transitionType": "goto", "goToVoiceFlowModuleID": "Other"},"#))
        #expect(goto.modulesEntered == ["VF_START", "P", "M", "Other", "VF_END"])

        let gotoDefault = try Self.simulate(
            Self.interrupted(#""audioInterruptTransitionParams": {"transitionType": "goto"},"#))
        #expect(
            gotoDefault.modulesEntered == ["VF_START", "P", "M", "VF_END"], "goToVoiceFlowModuleID defaults to VF_END")
        #expect(gotoDefault.reason == .completed)

        let flowWide = try Self.simulate(
            Self.interrupted(
                "",
                process:
                    #""audioInterruptTransitionParams": {"transitionType": "goto", "goToVoiceFlowModuleID": "Other"},"#)
        )
        #expect(flowWide.modulesEntered == ["VF_START", "P", "M", "Other", "VF_END"])

        let overridden = try Self.simulate(
            Self.interrupted(
                #""audioInterruptTransitionParams": {"transitionType": "end"},"#,
                process:
                    #""audioInterruptTransitionParams": {"transitionType": "goto", "goToVoiceFlowModuleID": "Other"},"#)
        )
        #expect(overridden.reason == .interrupted, "the module's own parameters win")
    }

    @Test func anInterruptedListeningStartsAgainOnResume() throws {
        let simulation = try Simulation(
            Self.dialog(bargeIn: #""recognizeWhilePlay": false"#).replacingOccurrences(
                of: #""audioDialogParams""#,
                with: #""audioInterruptTransitionParams": {"transitionType": "resume"}, "audioDialogParams""#),
            prompts: Self.dialogPrompts)
        var engine = simulation.engine
        // Up to the listening: start, then proceed through the prompts.
        var input = Engine.Input.start
        var listening = false
        for _ in 0..<50 where !listening {
            let actions = engine.handle(input)
            if actions.contains(where: { if case .recognize = $0 { true } else { false } }) {
                listening = true
            } else if actions.last == .proceed {
                input = .proceed
            } else {
                input = .segmentEnded
            }
        }
        #expect(listening)
        let began = engine.handle(.audioInterruptionBegan(playedTo: nil))
        #expect(
            began == [
                .emit(
                    .mediaEvent(moduleID: "D", mediaItemID: "D", function: .recognizeAudio, event: .stopped, data: [:])),
                .emit(
                    .mediaEvent(
                        moduleID: "D", mediaItemID: "D", function: .audioSession, event: .interruptionBegan, data: [:])),
                .waitForInterruptionEnd,
            ])
        #expect(engine.isInterrupted)
        let ended = engine.handle(.audioInterruptionEnded)
        #expect(
            ended.contains(
                .emit(
                    .mediaEvent(moduleID: "D", mediaItemID: "D", function: .recognizeAudio, event: .started, data: [:]))
            ))
        if case .recognize(let plan)? = ended.last { #expect(plan.moduleID == "D") } else { Issue.record("\(ended)") }
    }
}
