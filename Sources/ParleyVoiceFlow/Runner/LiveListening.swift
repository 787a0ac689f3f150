import Foundation
import ParleyCore
import ParleySpeech

/// One listening of a live run: feeds the caller's audio to a streaming recognition session and keeps what it
/// reports for the runner, which reads it with ``next()`` when the engine waits for recognition.
///
/// The caller's speech is found by the recognizer — its first hypothesis word (a partial), not its `speechStarted`,
/// which PocketSphinx's adaptive detector also gives for noise while it adapts — or, when the module sets
/// `enableVAD`, by Parley's energy ``VoiceActivityDetector`` (`minSpeechToDetectMs`, `minSilenceToDetectMs`);
/// either way `onSpeech` is called once, which is how a prompt is barged into. The no-input timeout is counted in
/// audio from ``arm()`` — when the prompt has ended — not from the start of listening, which may have begun with the
/// prompt.
actor LiveListening {
    enum Outcome: Sendable, Hashable {
        case partial(String)
        case final(String)
        case noInput
        case failed(ParleyError)

        var isTerminal: Bool {
            if case .partial = self { return false }
            return true
        }
    }

    private let plan: RecognitionPlan
    private let onSpeech: @Sendable () async -> Void
    private var outcomes: [Outcome] = []
    private var waiter: CheckedContinuation<Outcome?, Never>?
    private var task: Task<Void, Never>?
    private var heardSpeech = false
    private var recognizer: (any StreamingRecognizer)?
    private var session: (any RecognitionSession)?
    private var triggered = false
    private var finished = false
    /// Samples fed so far (read by tests), and where the no-input countdown started.
    private(set) var fed = 0
    private var armedAt: Int?
    /// While the next session opens: the audio fed meanwhile, given to it first, and whether the audio ended.
    private var held: [AudioBuffer]?
    private var endedWhileOpening = false

    init(plan: RecognitionPlan, onSpeech: @escaping @Sendable () async -> Void) {
        self.plan = plan
        self.onSpeech = onSpeech
    }

    /// Starts the session and the feeding.
    func start(recognizer: any StreamingRecognizer, audio: any CallerAudio) {
        self.recognizer = recognizer
        task = Task {
            do throws(ParleyError) {
                let first = try await self.openSession()
                self.session = first
                let source = try await audio.nextTurn()
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.read(first) }
                    group.addTask { await self.feed(source.frames()) }
                    await group.next()
                    group.cancelAll()
                }
                await self.session?.cancel()
            } catch {
                self.report(.failed(error))
            }
        }
    }

    /// Starts a recognition session (the first, or the next after noise ended one without words).
    private func openSession() async throws(ParleyError) -> any RecognitionSession {
        guard let recognizer else { throw ParleyError(.speechEngineUnavailable, "no recognizer") }
        let session = try await recognizer.startSession(
            StreamingRecognitionRequest(
                // Partials are always asked for: the first one is the recognizer's barge-in signal.
                locale: plan.locale, phrases: plan.phrases, partialResults: true, maxAlternatives: 1,
                // The runner counts the no-input timeout itself, from the end of the prompt.
                noSpeechTimeout: .seconds(86_400), maxSpeech: plan.maxSpeech ?? .seconds(30),
                endSilence: plan.endSilence ?? plan.voiceActivity?.minSilence ?? .milliseconds(500)))
        return session
    }

    /// Opens the session after one that ended without words; the audio fed while it opens is kept and given to it
    /// first, in order. (It went to the ended session and was lost: opening one took seconds on a busy machine, and
    /// the start of the caller's answer with it.)
    private func replaceSession() async throws(ParleyError) -> any RecognitionSession {
        held = []
        endedWhileOpening = false
        do {
            let next = try await openSession()
            // `feed` may hold more while this is fed: drained until none is left, then the session is the current.
            while let chunk = held?.first {
                held?.removeFirst()
                try await next.feed(chunk)
            }
            held = nil
            session = next
            if endedWhileOpening { await next.finishAudio() }
            return next
        } catch {
            held = nil
            throw error
        }
    }

    /// Starts the no-input countdown (the first call counts).
    func arm() {
        if armedAt == nil { armedAt = fed }
    }

    /// The next outcome: partials, then one terminal outcome; `nil` when the calling task is cancelled.
    func next() async -> Outcome? {
        if !outcomes.isEmpty { return outcomes.removeFirst() }
        if finished { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter() }
        }
    }

    /// Stops listening.
    func cancel() {
        task?.cancel()
        finished = true
        cancelWaiter()
    }

    private func cancelWaiter() {
        waiter?.resume(returning: nil)
        waiter = nil
    }

    private func report(_ outcome: Outcome) {
        guard !finished else { return }
        if outcome.isTerminal { finished = true }
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: outcome)
        } else {
            outcomes.append(outcome)
        }
        if outcome.isTerminal { task?.cancel() }
    }

    /// Speech began (a recognised word, or the energy detector over the audio fed): the no-input countdown no longer
    /// counts; `trigger` says whether this detector decides barge-in (the energy detector only with `enableVAD`).
    private func speech(trigger: Bool) async {
        heardSpeech = true
        guard trigger, !triggered else { return }
        triggered = true
        await onSpeech()
    }

    private func read(_ first: any RecognitionSession) async {
        var current = first
        do throws(ParleyError) {
            while true {
                // PocketSphinx's detector may take noise for speech and end that "utterance" without words: that is
                // not the caller's answer, so listening goes on with a new session; only the no-input timeout, a
                // final or an error end it.
                guard try await readUtterance(current), !finished, !Task.isCancelled else { break }
                heardSpeech = false
                current = try await replaceSession()
            }
            // Cancelled, or ended without a terminal event.
            report(.noInput)
        } catch {
            report(.failed(error))
        }
    }

    /// Reads one session's events; returns whether it ended without words (noise).
    private func readUtterance(_ session: any RecognitionSession) async throws(ParleyError) -> Bool {
        for try await event in session.events {
            switch event {
            case .speechStarted:
                break
            case .partial(let result):
                await speech(trigger: plan.voiceActivity == nil)
                if plan.partialResults { report(.partial(result.text)) }
            case .final(let result):
                await speech(trigger: plan.voiceActivity == nil)
                report(.final(result.text))
                return false
            case .noSpeech:
                return true
            case .tooMuchSpeech(let result):
                if result.text.isEmpty { return true }
                report(.final(result.text))
                return false
            }
        }
        return false
    }

    private func feed(_ frames: SpeechStream<AudioBuffer>) async {
        // Speech in the audio itself stops the no-input countdown, which counts audio fed: the recognizer's first word
        // can come seconds of audio later when the machine is busy, and the caller who is speaking would be told
        // they said nothing. Only with the flow's `enableVAD` does this detector also decide barge-in.
        var detector = VoiceActivityDetector(parameters: plan.voiceActivity?.parameters ?? VoiceActivityParameters())
        let timeout = AudioBuffer.samples(in: plan.noInputTimeout, sampleRate: AudioBuffer.recognitionSampleRate)
        do throws(ParleyError) {
            for try await chunk in frames {
                if Task.isCancelled || finished { return }
                if detector.process(chunk.samples).contains(where: {
                    if case .speechStarted = $0 { true } else { false }
                }) {
                    await speech(trigger: plan.voiceActivity != nil)
                }
                if held != nil {
                    held?.append(chunk)  // the next session is opening
                } else {
                    try await session?.feed(chunk)
                }
                fed += chunk.samples.count
                if let armedAt, !heardSpeech, fed - armedAt >= timeout {
                    report(.noInput)
                    return
                }
            }
            if held != nil {
                endedWhileOpening = true
            } else {
                await session?.finishAudio()
            }
        } catch {
            report(.failed(error))
        }
    }
}
