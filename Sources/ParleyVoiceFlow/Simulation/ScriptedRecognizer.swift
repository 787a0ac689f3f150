public import ParleyCore
public import ParleySpeech

/// A speech recognizer that answers from a script of ``UserTurn``s, for deterministic voice-flow tests and
/// simulations (`parley voiceflow simulate`).
///
/// A `silence` turn moves ParleyCore's `VirtualClock` forward by the request's no-input timeout and reports no
/// input, so tests see timeouts happen in virtual time without sleeping:
///
/// ```swift
/// let clock = VirtualClock()
/// let recognizer = ScriptedRecognizer([.silence, .say("go to sleep")], clock: clock)
/// let runner = VoiceFlowRunner(recognizer: recognizer, player: SilentPlayer(), clock: clock)
/// ```
///
/// When the script runs out, recognition fails with `testing.scriptExhausted` (the flow takes its `sr_error`
/// route), so a test with too few turns fails visibly.
public actor ScriptedRecognizer: SpeechRecognizer {
    /// `scripted`.
    public nonisolated let engine = "scripted"
    private var turns: [UserTurn]
    private let clock: VirtualClock?
    /// The requests received, in order.
    public private(set) var requests: [RecognitionRequest] = []

    /// Creates a recognizer that plays `turns` in order.
    public init(_ turns: [UserTurn], clock: VirtualClock? = nil) {
        self.turns = turns
        self.clock = clock
    }

    /// The turns not used yet.
    public var remainingTurns: [UserTurn] { turns }

    /// Answers with the next turn.
    public func recognize(_ request: RecognitionRequest) async throws(ParleyError) -> Recognition {
        requests.append(request)
        guard !turns.isEmpty else {
            throw ParleyError(.scriptExhausted, "the script has no turn left for \(request.taskID)")
        }
        switch turns.removeFirst() {
        case .say(let text, let partials):
            return .hypothesis(text, partials: partials)
        case .silence:
            if let clock { await clock.advance(by: request.noInputTimeout) }
            return .noInput
        case .error(let message):
            throw ParleyError(.speechEngineFailed, message)
        }
    }
}
