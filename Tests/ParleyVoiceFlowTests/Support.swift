import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow

/// The fixture folder's files.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
}

/// Drives a pure ``Engine`` to its end: every play succeeds (unless its prompt is in `failingPrompts`), each
/// recognition takes the next outcome, recordings stop for `recordStopReason`, pauses resume at once.
struct Simulation {
    enum Outcome {
        case heard(String, partials: [String] = [])
        /// A streamed partial hypothesis (live listening); the next outcome follows it.
        case partial(String)
        case silence
        case error
    }

    var engine: Engine
    var outcomes: [Outcome] = []
    var failingPrompts: Set<String> = []
    var recordStopReason = "stopRequest"
    /// Called after each callback, like a delegate (it may change the engine).
    var onEvent: (VoiceFlowEvent, inout Engine) -> Void = { _, _ in }
    /// Decides what comes of a play instead of its normal end (a barge-in, an interruption); `nil`: it ends.
    var onPlay: (PlaybackSegment, Int) -> Engine.Input? = { _, _ in nil }
    /// The segments played, in order (with their start positions and play counts).
    private(set) var played: [PlaybackSegment] = []
    /// The plans of listenings started during a prompt (`recognizeWhilePlay`).
    private(set) var listens: [RecognitionPlan] = []

    private(set) var transcript: [String] = []
    private(set) var plans: [RecognitionPlan] = []
    private(set) var recordings: [RecordingPlan] = []
    private(set) var reason: FinishReason?

    init(
        _ flow: String, prompts: String = "[]", map: String = "[]", fields: [String: JSONValue] = [:], seed: UInt64 = 7,
        audioFiles: Set<String> = []
    ) throws {
        let configuration = Engine.Configuration(
            flow: try VoiceFlow(parsing: flow), prompts: try PromptLibrary(parsing: prompts),
            audioToText: try AudioToTextMap(parsing: map), audioFileExists: { audioFiles.contains($0) })
        engine = Engine(configuration: configuration, fields: RuntimeFields(fields), random: SplitMix(seed: seed))
    }

    /// Runs from VF_START; returns the transcript (callbacks plus `pause` markers).
    @discardableResult
    mutating func run(limit: Int = 10_000) -> [String] {
        var input = Engine.Input.start
        for _ in 0..<limit {
            var next: Engine.Input?
            for action in engine.handle(input) {
                switch action {
                case .emit(let event):
                    transcript.append(event.description)
                    onEvent(event, &engine)
                case .proceed: next = .proceed
                case .play(let segment):
                    played.append(segment)
                    if let input = onPlay(segment, played.count - 1) {
                        next = input
                    } else {
                        next =
                            failingPrompts.contains(segment.promptID)
                            ? .segmentFailed(ParleyError(.audioFileMissing, "cannot play")) : .segmentEnded
                    }
                case .listen(let plan):
                    listens.append(plan)
                    transcript.append("listen")
                case .awaitRecognition:
                    next = nextOutcome()
                case .waitForInterruptionEnd:
                    transcript.append("interrupted")
                    next = .audioInterruptionEnded
                case .recognize(let plan):
                    plans.append(plan)
                    next = nextOutcome()
                case .record(let plan):
                    recordings.append(plan)
                    next = .recorded(
                        RecordingResult(
                            file: URL(fileURLWithPath: "/tmp/\(plan.fileName)"), stopReason: recordStopReason))
                case .waitForResume:
                    transcript.append("pause")
                    next = .resume
                case .finish(let reason):
                    self.reason = reason
                    return transcript
                }
            }
            guard let next else { return transcript }
            input = next
        }
        return transcript
    }

    private mutating func nextOutcome() -> Engine.Input {
        switch outcomes.isEmpty ? .error : outcomes.removeFirst() {
        case .heard(let text, let partials): .recognized(.hypothesis(text, partials: partials))
        case .partial(let text): .partial(text)
        case .silence: .recognized(.noInput)
        case .error: .recognitionFailed(ParleyError(.speechEngineFailed, "no microphone"))
        }
    }

    /// The module ids entered, in order.
    var modulesEntered: [String] {
        transcript.compactMap { line in
            guard line.hasPrefix("PreModuleStart(") else { return nil }
            return String(line.dropFirst("PreModuleStart(".count).dropLast())
        }
    }
}

/// A small seeded generator for engine tests (ParleyCore has the public one, `SeededRandomNumberGenerator`).
struct SplitMix: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_A8B6
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds a flow: VF_START → `first`, the given modules, VF_END. Modules are JSON object texts.
func flow(start first: String, _ modules: String...) -> String {
    """
    [
      {"id": "VF_START", "type": "node", "name": "start", "goTo": {"DEFAULT": "\(first)"}},
      \(modules.joined(separator: ",\n  ")),
      {"id": "VF_END", "type": "node", "name": "end", "goTo": {"DEFAULT": ""}},
    ]
    """
}

/// A one-prompt playAudio module going to `next`.
func play(_ id: String, _ prompt: String, next: String = "VF_END") -> String {
    #"{"id": "\#(id)", "type": "playAudio", "name": "\#(id)", "playAudioParams": {"promptID": "\#(prompt)"}, "goTo": {"DEFAULT": "\#(next)"}}"#
}

/// Text prompts, one per id, each saying its id.
func textPrompts(_ ids: String...) -> String {
    "[" + ids.map { #"{"id": "\#($0)", "style": "single", "textString": "\#($0) text"}"# }.joined(separator: ",") + "]"
}
