/// The life of one utterance in a recognition session, as a value: audio and voice activity in, what the session
/// must do out.
///
/// Time is counted in samples of audio heard, not on a clock, so the same audio ends the same way however fast it
/// arrives (a file is fed faster than real time; a microphone at real time).
///
/// - Listening: speech starting gives ``Action/speechStarted(at:)``; ``noSpeechSamples`` of audio without it give
///   ``Action/noSpeech(after:)``.
/// - Speaking: the end of speech gives ``Action/endOfSpeech``; ``maxSpeechSamples`` of speech give
///   ``Action/tooMuchSpeech``.
/// - ``audioDone()`` gives ``Action/endOfSpeech`` in either state; after any terminal action, nothing more.
struct Endpointer: Sendable, Hashable {
    /// Where the utterance is.
    enum State: Sendable, Hashable {
        /// Waiting for speech.
        case listening
        /// Speech started at this sample.
        case speaking(startSample: Int)
        /// A terminal action was given.
        case ended
    }

    /// What the session must do.
    enum Action: Sendable, Hashable {
        /// Report that speech started.
        case speechStarted(at: Duration)
        /// Take the final result (an empty one is reported as no speech).
        case endOfSpeech
        /// Report no speech: the timeout passed.
        case noSpeech(after: Duration)
        /// Take what was heard and report too much speech.
        case tooMuchSpeech
    }

    let sampleRate: Int
    let noSpeechSamples: Int
    let maxSpeechSamples: Int
    private(set) var state = State.listening
    /// Samples heard so far.
    private(set) var position = 0
    /// Where speech started, once it has (kept after the end).
    private(set) var startSample: Int?

    init(noSpeechTimeout: Duration, maxSpeech: Duration, sampleRate: Int = AudioBuffer.recognitionSampleRate) {
        self.sampleRate = sampleRate
        noSpeechSamples = max(1, AudioBuffer.samples(in: noSpeechTimeout, sampleRate: sampleRate))
        maxSpeechSamples = max(1, AudioBuffer.samples(in: maxSpeech, sampleRate: sampleRate))
    }

    /// Where speech started, while speaking.
    var speechStart: Int? {
        if case .speaking(let start) = state { start } else { nil }
    }

    /// `count` more samples were heard; `inSpeech` is the voice-activity detector's verdict after them.
    mutating func audio(count: Int, inSpeech: Bool) -> [Action] {
        let before = position
        switch state {
        case .ended:
            return []
        case .listening:
            position += count
            if inSpeech {
                state = .speaking(startSample: before)
                startSample = before
                return [.speechStarted(at: time(before))] + checkLength(start: before)
            }
            if position >= noSpeechSamples {
                state = .ended
                return [.noSpeech(after: time(position))]
            }
            return []
        case .speaking(let start):
            position += count
            if !inSpeech {
                state = .ended
                return [.endOfSpeech]
            }
            return checkLength(start: start)
        }
    }

    /// No more audio will come.
    mutating func audioDone() -> [Action] {
        guard state != .ended else { return [] }
        state = .ended
        return [.endOfSpeech]
    }

    /// The session was cancelled: nothing more will be reported.
    mutating func cancel() {
        state = .ended
    }

    /// The time of sample `index`.
    func time(_ index: Int) -> Duration {
        AudioBuffer.duration(ofSamples: index, sampleRate: sampleRate)
    }

    private mutating func checkLength(start: Int) -> [Action] {
        guard position - start >= maxSpeechSamples else { return [] }
        state = .ended
        return [.tooMuchSpeech]
    }
}
