import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// Real speech on Linux: espeak-ng speaks the user's answer into a WAV file, the file is the "microphone" of an
/// audioDialog, pocketsphinx recognises it, and the flow takes the branch the words select. scripts/test installs
/// espeak-ng, pocketsphinx, pocketsphinx-en-us and sox.
@Suite("Real speech", .serialized)
struct RealSpeechTests {
    static let flowText = flow(
        start: "Ask",
        #"{"id": "Ask", "type": "audioDialog", "name": "Ask", "recognizeAudioParams": {"srEngine": "pocketSphinx", "srLocale": "en-US"}, "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "promptID": "P_Ask"}], "maxRetryCount": {"timeout": 0, "garbage": 0, "sr_error": 0}}, "goTo": {"DEFAULT": "VF_END", "maxGarbageCount": "Unknown", "maxTimeoutCount": "Unknown", "maxSRErrorCount": "Unknown", "goToForUserInput": [{"input": "go to sleep", "goTo": "Sleep"}, {"input": "play some music", "goTo": "Music"}, {"input": "turn off the lights", "goTo": "Lights"}]}}"#,
        play("Sleep", "P_Ask"), play("Music", "P_Ask"), play("Lights", "P_Ask"), play("Unknown", "P_Ask"))

    func run(saying utterance: String) async throws -> ([String], [VoiceFlowEvent]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("user.wav")
        try await EspeakSynthesizer(wordsPerMinute: 140).synthesize(SynthesisRequest(text: utterance), to: wav)

        let runner = VoiceFlowRunner(
            synthesizer: EspeakSynthesizer(), recognizer: PocketsphinxRecognizer(), player: SilentPlayer(),
            recorder: QueuedAudioSource(files: [wav]), clock: VirtualClock())
        try await runner.loadPrompts(json: #"[{"id": "P_Ask", "style": "single", "textString": "What shall I do?"}]"#)
        try await runner.loadVoiceFlow(json: Self.flowText)
        #expect(try await runner.run() == .completed)
        let history = await runner.history.map(\.event)
        let modules = history.compactMap { event -> String? in
            if case .preModuleStart(let id) = event { return id }
            return nil
        }
        return (modules, history)
    }

    @Test func aSpokenCommandTakesItsBranch() async throws {
        let (modules, history) = try await run(saying: "go to sleep")
        #expect(modules == ["VF_START", "Ask", "Sleep", "VF_END"])
        #expect(
            history.contains(
                .srHypothesis(
                    moduleID: "Ask",
                    data: SRData(engine: "pocketSphinx", hypothesis: "go to sleep", hypothesisType: .complete))))
    }

    @Test func anotherSpokenCommandTakesAnotherBranch() async throws {
        let (modules, _) = try await run(saying: "turn off the lights")
        #expect(modules == ["VF_START", "Ask", "Lights", "VF_END"])
    }
}
