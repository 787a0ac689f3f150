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
    private var triggered = false
    private var finished = false
    /// Samples fed so far, and where the no-input countdown started.
    private var fed = 0
    private var armedAt: Int?

    init(plan: RecognitionPlan, onSpeech: @escaping @Sendable () async -> Void) {
        self.plan = plan
        self.onSpeech = onSpeech
    }

    /// Starts the session and the feeding.
    func start(recognizer: any StreamingRecognizer, audio: any CallerAudio) {
        let plan = self.plan
        task = Task {
            do throws(ParleyError) {
                let session = try await recognizer.startSession(
                    StreamingRecognitionRequest(
                        // Partials are always asked for: the first one is the recognizer's barge-in signal.
                        locale: plan.locale, phrases: plan.phrases, partialResults: true,
                        maxAlternatives: 1,
                        // The runner counts the no-input timeout itself, from the end of the prompt.
                        noSpeechTimeout: .seconds(86_400), maxSpeech: plan.maxSpeech ?? .seconds(30),
                        endSilence: plan.endSilence ?? plan.voiceActivity?.minSilence ?? .milliseconds(500)))
                let source = try await audio.nextTurn()
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.read(session) }
                    group.addTask { await self.feed(session, source.frames()) }
                    await group.next()
                    group.cancelAll()
                }
                await session.cancel()
            } catch {
                self.report(.failed(error))
            }
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

    /// Speech began: the no-input countdown no longer counts; `trigger` says whether this detector decides
    /// barge-in (the energy detector with `enableVAD`, the recognizer otherwise).
    private func speech(trigger: Bool) async {
        heardSpeech = true
        guard trigger, !triggered else { return }
        triggered = true
        await onSpeech()
    }

    private func read(_ session: any RecognitionSession) async {
        do throws(ParleyError) {
            for try await event in session.events {
                switch event {
                case .speechStarted:
                    await speech(trigger: false)
                case .partial(let result):
                    await speech(trigger: plan.voiceActivity == nil)
                    if plan.partialResults { report(.partial(result.text)) }
                case .final(let result):
                    await speech(trigger: plan.voiceActivity == nil)
                    report(.final(result.text))
                case .noSpeech:
                    report(.noInput)
                case .tooMuchSpeech(let result):
                    report(result.text.isEmpty ? .noInput : .final(result.text))
                }
            }
            // Cancelled, or ended without a terminal event.
            report(.noInput)
        } catch {
            report(.failed(error))
        }
    }

    private func feed(_ session: any RecognitionSession, _ frames: SpeechStream<AudioBuffer>) async {
        var detector = plan.voiceActivity.map { VoiceActivityDetector(parameters: $0.parameters) }
        let timeout = AudioBuffer.samples(in: plan.noInputTimeout, sampleRate: AudioBuffer.recognitionSampleRate)
        do throws(ParleyError) {
            for try await chunk in frames {
                if Task.isCancelled || finished { return }
                if let changes = detector?.process(chunk.samples),
                    changes.contains(where: { if case .speechStarted = $0 { true } else { false } })
                {
                    await speech(trigger: true)
                }
                try await session.feed(chunk)
                fed += chunk.samples.count
                if let armedAt, !heardSpeech, fed - armedAt >= timeout {
                    report(.noInput)
                    return
                }
            }
            await session.finishAudio()
        } catch {
            report(.failed(error))
        }
    }
}
