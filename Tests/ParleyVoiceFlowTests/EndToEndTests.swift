import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// The seed's two complete examples run through ``VoiceFlowRunner`` with the scripted recognizer, the silent player
/// and the virtual clock; the callback sequence is asserted exactly.
@Suite("Voice flows end to end")
struct EndToEndTests {
    /// Prompts the shutdown flow names that the seed's prompt list does not define: ours.
    static let shutdownExtraPrompts = """
        [
            {"id": "P_TurningOffShuttingDown", "style": "combo",
             "promptCollection": [{"promptID": "P_TurningOff"}, {"promptID": "P_ShuttingDown"}]},
            {"id": "P_ShuttingDown", "style": "single", "textString": "Shutting down."},
            {"id": "P_GoodBye", "style": "single", "audioFile": "GoodBye.wav"},
        ]
        """

    /// A folder with `en-US/TurningOff.wav`, so that prompt plays as a file found through the language folder.
    static func audioFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-vf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("en-US"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: folder.appendingPathComponent("en-US/TurningOff.wav").path, contents: Data())
        return folder
    }

    @Test func theShutdownFlowPlaysItsComboPromptAndEnds() async throws {
        let clock = VirtualClock()
        let recognizer = ScriptedRecognizer([], clock: clock)
        let runner = VoiceFlowRunner(
            recognizer: recognizer, player: SilentPlayer(), clock: clock, random: SeededRandomNumberGenerator(seed: 1))
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await runner.setResourceLocation(folder, for: .playAudio)
        try await runner.setResourceLocation(Fixture.folder, for: .voiceFlow)
        try await runner.loadPrompts(file: "seed-prompts.json")
        try await runner.loadPrompts(json: Self.shutdownExtraPrompts)
        try await runner.loadAudioToTextMap(json: #"[{"audioFile": "GoodBye.wav", "textString": "Good bye.",},]"#)
        try await runner.loadVoiceFlow(file: "seed-shutdown-flow.json")
        await runner.setRuntimeField("ShutdownModeFlowPlayStartModule", "VA_VFM_Shutdown_PlayAudio_DefaultShutdown")
        #expect(await runner.validate().isEmpty)

        let reason = try await runner.run()

        #expect(reason == .completed)
        let play = "VA_VFM_Shutdown_PlayAudio_DefaultShutdown"
        #expect(
            await runner.history.map(\.event.description) == [
                "PreModuleStart(VF_START)",
                "PreModuleEnd(VF_START)",
                "PreModuleStart(VA_VFM_Shutdown_Process_LoadPreStart)",
                "PreModuleEnd(VA_VFM_Shutdown_Process_LoadPreStart)",
                "PreModuleStart(\(play))",
                "MediaEvent(\(play), \(play), NMF_PLAY_AUDIO, NME_STARTED)",
                "PlayAudioSegmentData(\(play), P_TurningOff, audioFile, audioFile: TurningOff.wav, text: \"Turning off.\")",
                "MediaEvent(\(play), P_TurningOff, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(\(play), P_TurningOff, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "PlayAudioSegmentData(\(play), P_ShuttingDown, textString, text: \"Shutting down.\")",
                "MediaEvent(\(play), P_ShuttingDown, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(\(play), P_ShuttingDown, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "PlayAudioSegmentData(\(play), P_GoodBye, textString, audioFile: GoodBye.wav, text: \"Good bye.\")",
                "MediaEvent(\(play), P_GoodBye, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(\(play), P_GoodBye, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
                "MediaEvent(\(play), \(play), NMF_PLAY_AUDIO, NME_ENDED)",
                "PreModuleEnd(\(play))",
                "PreModuleStart(VA_VFM_Shutdown_Process_TransitionToShutdownMode)",
                "PreModuleEnd(VA_VFM_Shutdown_Process_TransitionToShutdownMode)",
                "PreModuleStart(VF_END)",
                "PreModuleEnd(VF_END)",
            ])
        #expect(await recognizer.requests.isEmpty)
        #expect(await runner.isRunning == false)
    }

    @Test func theShutdownFlowWithoutItsRuntimeFieldFailsAtTheProcessModule() async throws {
        let runner = VoiceFlowRunner(recognizer: ScriptedRecognizer([]), player: SilentPlayer())
        try await runner.loadPrompts(json: try Fixture.text("seed-prompts.json"))
        try await runner.loadPrompts(json: Self.shutdownExtraPrompts)
        try await runner.loadVoiceFlow(json: try Fixture.text("seed-shutdown-flow.json"))
        let reason = try await runner.run()
        guard case .failed(let error) = reason else {
            Issue.record("expected a failure, got \(reason)")
            return
        }
        #expect(error.code == .internalFailure)
        #expect(error.message.contains("ShutdownModeFlowPlayStartModule"))
        #expect(await runner.lastError == error)
        #expect(
            await runner.history.map(\.event.description).last == "PreModuleStart(VA_VFM_Shutdown_Process_LoadPreStart)"
        )
    }

    /// The seed's AI-chat application: sets the response text on PreModuleStart, queues one more segment when the
    /// first ends, and turns "go to sleep" into the TransitionToSleepMode intent.
    struct ChatApp: VoiceFlowDelegate {
        static let listener = "VA_VFM_AIChat_AudioListener_ChatResponse"

        func preModuleStart(_ runner: VoiceFlowRunner, moduleID: String) async {
            if moduleID == Self.listener {
                await runner.setRuntimeField("ChatResponseSectionText", "Let's go ahead and start chatting.")
                await runner.setRuntimeField("ChatResponseParagraphStartPlayPosition", 0)
            }
        }

        func mediaEvent(
            _ runner: VoiceFlowRunner, moduleID: String, mediaItemID: String, function: MediaFunction,
            event: MediaEvent, data: JSONObject
        ) async {
            guard moduleID == Self.listener, mediaItemID == "P_AIChat_ChatResponseText", function == .playAudioSegment,
                event == .ended
            else { return }
            if await runner.runtimeField("ChatResponseSectionText") == "Let's go ahead and start chatting." {
                await runner.setRuntimeField("ChatResponseSectionText", "let's just keep chatting")
                #expect(await runner.loadAudioListenerPrompt("P_AIChat_ChatResponseText"))
            }
        }

        func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool {
            if moduleID == Self.listener, data.hypothesis.caseInsensitiveCompare("go to sleep") == .orderedSame {
                await runner.setUserIntent("TransitionToSleepMode")
            }
            return false
        }
    }

    static func chatRunner(_ turns: [UserTurn], clock: VirtualClock) async throws -> (
        VoiceFlowRunner, ScriptedRecognizer
    ) {
        let recognizer = ScriptedRecognizer(turns, clock: clock)
        let runner = VoiceFlowRunner(recognizer: recognizer, player: SilentPlayer(), clock: clock)
        try await runner.loadPrompts(json: try Fixture.text("ai-chat-prompts.json"))
        try await runner.loadVoiceFlow(json: try Fixture.text("ai-chat-flow.json"))
        await runner.setDelegate(ChatApp())
        return (runner, recognizer)
    }

    static let listenerOpening: [String] = {
        let l = ChatApp.listener
        let p = "P_AIChat_ChatResponseText"
        return [
            "PreModuleStart(\(l))",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO, NME_STARTED)",
            "PlayAudioSegmentData(\(l), \(p), textString, text: \"Let's go ahead and start chatting.\")",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
            "PlayAudioSegmentData(\(l), \(p), textString, text: \"let's just keep chatting\")",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)",
            "MediaEvent(\(l), \(p), NMF_PLAY_AUDIO, NME_ENDED)",
            "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_STARTED)",
        ]
    }()

    static let goingToSleep: [String] = {
        let s = "VA_VFM_AIChat_Process_SleepModeRequested"
        let g = "VA_VFM_AIChat_PlayAudio_GoingToSleep"
        return [
            "PreModuleEnd(\(ChatApp.listener))",
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
        ]
    }()

    @Test func theAIChatListenerPlaysTwoSegmentsThenGoesToSleepOnTheIntent() async throws {
        let clock = VirtualClock()
        let (runner, recognizer) = try await Self.chatRunner([.say("go to sleep")], clock: clock)
        let reason = try await runner.run()
        #expect(reason == .completed)
        let l = ChatApp.listener
        #expect(
            await runner.history.map(\.event.description) == ["PreModuleStart(VF_START)", "PreModuleEnd(VF_START)"]
                + Self.listenerOpening + [
                    "SRHypothesis(\(l), complete: \"go to sleep\")",
                    "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_ENDED)",
                ] + Self.goingToSleep)
        #expect(await runner.runtimeField("SleepModeReason") == "UserRequested")
        let requests = await recognizer.requests
        #expect(requests.count == 1)
        #expect(requests.first?.noInputTimeout == .milliseconds(8000), "maxPreSpeechSilenceLengthMs")
        #expect(requests.first?.partialResults == true, "srSessionParams.enablePartialResults")
        #expect(requests.first?.locale == "en-US")
        #expect(clock.now == .zero, "nothing waited")
    }

    @Test func aSilentTurnTimesOutOnTheVirtualClockAndReentersTheListener() async throws {
        let clock = VirtualClock()
        let (runner, _) = try await Self.chatRunner([.silence, .say("go to sleep")], clock: clock)
        let reason = try await runner.run()
        #expect(reason == .completed)
        let l = ChatApp.listener
        let r = "VA_VFM_AIChat_Process_RentryModule"
        let history = await runner.history
        #expect(
            history.map(\.event.description) == ["PreModuleStart(VF_START)", "PreModuleEnd(VF_START)"]
                + Self.listenerOpening + [
                    "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_TIMEOUT)",
                    "PreModuleEnd(\(l))",
                    "PreModuleStart(\(r))",
                    "PreModuleEnd(\(r))",
                ] + Self.listenerOpening + [
                    "SRHypothesis(\(l), complete: \"go to sleep\")",
                    "MediaEvent(\(l), \(l), NMF_RECOGNIZE_AUDIO, NME_ENDED)",
                ] + Self.goingToSleep)
        let timeout = history.first { $0.event.description.contains("NME_TIMEOUT") }
        #expect(timeout?.elapsed == .seconds(8))
        #expect(clock.now == VirtualClock.Instant(offset: .seconds(8)))
    }

    @Test func aRecognitionErrorTakesMaxSRErrorCount() async throws {
        let clock = VirtualClock()
        let (runner, _) = try await Self.chatRunner([.error("microphone busy")], clock: clock)
        #expect(try await runner.run() == .completed)
        let modules = await runner.history.compactMap { entry -> String? in
            if case .preModuleStart(let id) = entry.event { return id }
            return nil
        }
        #expect(modules == ["VF_START", ChatApp.listener, "VA_VFM_AIChat_PlayAudio_NotAbleToListen", "VF_END"])
        #expect(
            await runner.history.map(\.event.description).contains(
                "MediaEvent(\(ChatApp.listener), \(ChatApp.listener), NMF_RECOGNIZE_AUDIO, NME_ERROR, {\"code\":\"speech.engineFailed\",\"message\":\"microphone busy\"})"
            ))
    }

    @Test func theEventStreamCarriesTheSameCallbacksInOrder() async throws {
        let clock = VirtualClock()
        let (runner, _) = try await Self.chatRunner([.say("go to sleep")], clock: clock)
        _ = try await runner.run()
        let history = await runner.history.map(\.event)
        var streamed: [VoiceFlowEvent] = []
        for await event in runner.events {
            streamed.append(event)
            if streamed.count == history.count { break }
        }
        #expect(streamed == history)
    }
}
