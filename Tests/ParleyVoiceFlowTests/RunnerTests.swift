import Foundation
import Logging
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// A player that plays until cancelled, sleeping on the virtual clock.
struct EndlessPlayer: AudioPlayer {
    let clock: VirtualClock
    func play(_ item: PlaybackItem) async throws(ParleyError) {
        do {
            try await clock.sleep(for: .seconds(3600))
        } catch {
            throw ParleyError(.speechEngineFailed, "cancelled")
        }
    }
}

/// The runner's control calls: stop, interrupt, resume, loading errors, fields and intents, permissions, voices.
@Suite("Runner")
struct RunnerTests {
    static let flowText = flow(
        start: "P", play("P", "Ask"), play("Q", "Ask"),
        #"{"id": "W", "type": "pauseResume", "name": "W", "goTo": {"DEFAULT": "VF_END"}}"#)

    func runner(player: some AudioPlayer, clock: VirtualClock) async throws -> VoiceFlowRunner {
        let runner = VoiceFlowRunner(recognizer: ScriptedRecognizer([]), player: player, clock: clock)
        try await runner.loadPrompts(json: textPrompts("Ask"))
        try await runner.loadVoiceFlow(json: Self.flowText)
        return runner
    }

    @Test func stopCancelsPlaybackAndReportsIt() async throws {
        let clock = VirtualClock()
        let runner = try await runner(player: EndlessPlayer(clock: clock), clock: clock)
        let run = Task { try await runner.run() }
        await clock.waitForSleepers(1)
        try await runner.stop()
        #expect(try await run.value == .stopped)
        #expect(
            await runner.history.map(\.event.description).suffix(4) == [
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STARTED)",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED)",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO, NME_STOPPED)",
                "PreModuleEnd(P)",
            ])
        #expect(await runner.isRunning == false)
        await #expect(throws: ParleyError(.invalidState, "no voice flow is running")) { try await runner.stop() }
    }

    @Test func interruptMovesToAnotherModule() async throws {
        let clock = VirtualClock()
        let runner = try await runner(player: EndlessPlayer(clock: clock), clock: clock)
        let run = Task { try await runner.run() }
        await clock.waitForSleepers(1)
        await #expect(throws: ParleyError(.danglingGoTo, "no module Atlantis in the flow")) {
            try await runner.interrupt(to: "Atlantis")
        }
        try await runner.interrupt(to: "W")
        while await !runner.isPaused { await Task.yield() }
        #expect(await runner.currentModuleID == "W")
        try await runner.resume()
        #expect(try await run.value == .completed)
        #expect(
            await runner.history.map(\.event.description).suffix(7) == [
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO_SEGMENT, NME_STOPPED)",
                "MediaEvent(P, Ask, NMF_PLAY_AUDIO, NME_STOPPED)",
                "PreModuleEnd(P)",
                "PreModuleStart(W)",
                "PreModuleEnd(W)",
                "PreModuleStart(VF_END)",
                "PreModuleEnd(VF_END)",
            ])
    }

    @Test func resumeOutsideAPauseIsAnError() async throws {
        let runner = try await runner(player: SilentPlayer(), clock: VirtualClock())
        await #expect(throws: ParleyError(.invalidState, "the voice flow is not paused")) { try await runner.resume() }
        #expect(await runner.lastError?.code == .invalidState)
    }

    @Test func loadingAnInvalidFlowFailsWithTheFirstValidationError() async throws {
        let runner = VoiceFlowRunner(recognizer: ScriptedRecognizer([]), player: SilentPlayer())
        await #expect(throws: ParleyError(.missingStart, "the flow has no VF_START module")) {
            try await runner.loadVoiceFlow(
                json: #"[{"id": "VF_END", "type": "node", "name": "e", "goTo": {"DEFAULT": ""}},]"#)
        }
        await #expect(throws: ParleyError.self) { try await runner.run() }
        await #expect(throws: ParleyError.self) { try await runner.loadVoiceFlow(file: "nowhere.json") }
        #expect(await runner.lastError?.code == .fileNotFound)
    }

    @Test func fieldsAndIntentsSurviveBetweenRuns() async throws {
        let runner = try await runner(player: SilentPlayer(), clock: VirtualClock())
        await runner.setRuntimeField("Name", "Ann")
        #expect(await runner.runtimeField("Name") == "Ann")
        #expect(await runner.resetRuntimeField("Name"))
        #expect(await runner.resetRuntimeField("Name") == false)
        await runner.setUserIntent("Sleep")
        #expect(await runner.userIntent == "Sleep")
        await runner.resetUserIntent()
        #expect(await runner.userIntent == nil)
        #expect(await runner.loadAudioListenerPrompt("Ask") == false, "no listener is running")
    }

    @Test func permissionsComeFromTheInjectedSource() async {
        let granting = VoiceFlowRunner(
            recognizer: ScriptedRecognizer([]), player: SilentPlayer(), permissions: FixedPermissionSource.grantingAll)
        #expect(await granting.requestMicrophonePermission() == .microphonePermissionGranted)
        #expect(await granting.requestSpeechRecognitionPermission() == .speechRecognizerPermissionGranted)
        #expect(
            await granting.history.map(\.event) == [
                .permissionEvent(.microphonePermissionGranted), .permissionEvent(.speechRecognizerPermissionGranted),
            ])
        #expect(await granting.lastError == nil)

        let denying = VoiceFlowRunner(
            recognizer: ScriptedRecognizer([]), player: SilentPlayer(),
            permissions: FixedPermissionSource([
                .microphone: .denied(reason: "the user said no"), .speechRecognition: .waiting,
            ]))
        #expect(await denying.requestMicrophonePermission() == .microphonePermissionDenied)
        #expect(await denying.lastError == ParleyError(.speechPermissionDenied, "microphone: the user said no"))
        #expect(await denying.requestSpeechRecognitionPermission() == .speechRecognizerPermissionDenied)
        #expect(
            await denying.history.map(\.event) == [
                .permissionEvent(.microphonePermissionDenied), .permissionEvent(.speechRecognizerPermissionDenied),
            ])
    }

    #if os(Linux)
        /// The platform's own answer: this CI machine has no sound card, so the microphone is denied, with sox's reason.
        @Test func withoutASoundCardLinuxDeniesTheMicrophone() async {
            guard !FileManager.default.fileExists(atPath: "/dev/snd") else { return }
            let runner = VoiceFlowRunner(recognizer: ScriptedRecognizer([]), player: SilentPlayer())
            #expect(await runner.requestMicrophonePermission() == .microphonePermissionDenied)
            let error = await runner.lastError
            #expect(error?.code == .speechPermissionDenied)
            #expect(error?.message.contains("no default audio device") == true, "\(String(describing: error))")
        }
    #endif

    @Test func voicesAndLogLevels() async throws {
        let runner = VoiceFlowRunner(
            synthesizer: EspeakSynthesizer(), recognizer: ScriptedRecognizer([]), player: SilentPlayer())
        let voices = try await runner.voices()
        let english = try #require(voices.first { $0.language == "en-us" })
        await runner.selectVoice(english.identifier)
        #expect(try await runner.selectedVoice() == english)
        #expect(await runner.logLevel(for: "P") == .info)
        await runner.setModuleLogLevels(["AudioPlayer": .trace])
        await runner.setLogLevel(.error)
        #expect(await runner.logLevel(for: "AudioPlayer") == .trace)
        #expect(await runner.logLevel(for: "P") == .error)
        await runner.loadAliases(["Qatar": "Kah-Tar"])
        #expect(await runner.loadedPronunciations.aliases == ["Qatar": "Kah-Tar"])
    }
}
