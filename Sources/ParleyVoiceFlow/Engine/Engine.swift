import Foundation
public import ParleyCore
public import ParleySpeech

/// The voice-flow interpreter as a value: feed it an ``Input``, perform the ``Action``s it returns, feed it what
/// came of them. It does no I/O, owns no clock and is tested without audio. ``VoiceFlowRunner`` is the actor that
/// performs its actions with real (or scripted) speech engines.
///
/// Every call returns callbacks (``Action/emit(_:)``) first and ends with exactly one of: ``Action/proceed``
/// (deliver the callbacks, then send ``Input/proceed``: the application may change runtime fields or the user
/// intent in between), a media action (``Action/play(_:)``, ``Action/recognize(_:)``, ``Action/record(_:)``,
/// answered by the matching input), ``Action/waitForResume``, or ``Action/finish(_:)``.
public struct Engine: Sendable {
    /// What the engine runs and how.
    public struct Configuration: Sendable {
        /// The flow.
        public var flow: VoiceFlow
        /// The prompt modules.
        public var prompts: PromptLibrary
        /// Text for audio files that cannot be played.
        public var audioToText: AudioToTextMap
        /// Whether an audio file name can be played (the runner checks the play-audio resource folders).
        public var audioFileExists: @Sendable (String) -> Bool
        /// The recognizer's engine name, reported in ``SRData/engine``.
        public var recognizerEngine: String
        /// How many modules the flow may pass without playing, recording or listening before it fails with
        /// `voiceflow.transitionLoop`.
        public var maxTransitionsWithoutMedia: Int
        /// The no-input timeout when a module sets no `maxPreSpeechSilenceLengthMs`.
        public var defaultNoInputTimeout: Duration
        /// Whether the runner can listen while it plays (live speech): then prompts with `recognizeWhilePlay` start
        /// listening (``Action/listen(_:)``) and can be barged into. Without it (file-based engines) they play to
        /// their end and listening follows, as for any prompt.
        public var listensWhilePlaying = true

        /// Creates a configuration. By default every audio file counts as missing, so prompts play their text.
        public init(
            flow: VoiceFlow, prompts: PromptLibrary = PromptLibrary(), audioToText: AudioToTextMap = AudioToTextMap(),
            audioFileExists: @escaping @Sendable (String) -> Bool = { _ in false },
            recognizerEngine: String = "scripted",
            maxTransitionsWithoutMedia: Int = 1000, defaultNoInputTimeout: Duration = .seconds(8)
        ) {
            self.flow = flow
            self.prompts = prompts
            self.audioToText = audioToText
            self.audioFileExists = audioFileExists
            self.recognizerEngine = recognizerEngine
            self.maxTransitionsWithoutMedia = maxTransitionsWithoutMedia
            self.defaultNoInputTimeout = defaultNoInputTimeout
        }
    }

    /// What happened.
    public enum Input: Sendable, Hashable {
        /// Run from `VF_START`.
        case start
        /// The callbacks of the last call were delivered.
        case proceed
        /// The segment of the last ``Action/play(_:)`` finished.
        case segmentEnded
        /// The segment of the last ``Action/play(_:)`` could not be played.
        case segmentFailed(ParleyError)
        /// The last ``Action/recognize(_:)`` heard something or nothing.
        case recognized(Recognition)
        /// The last ``Action/recognize(_:)`` failed.
        case recognitionFailed(ParleyError)
        /// The last ``Action/record(_:)`` finished.
        case recorded(RecordingResult)
        /// The last ``Action/record(_:)`` failed.
        case recordingFailed(ParleyError)
        /// Stop the flow (media in progress has been cancelled).
        case stop
        /// Leave the current module for `to` (media in progress has been cancelled).
        case interrupt(to: String)
        /// Continue after a `pauseResume` module.
        case resume
        /// A partial hypothesis of the listening in progress (answered by ``Action/awaitRecognition``).
        case partial(String)
        /// The caller started speaking during a prompt that allows it (`recognizeWhilePlay`): the playback was
        /// cancelled `playedTo` into its segment (`nil` when it had not started). The engine keeps listening.
        case bargeIn(playedTo: Duration?)
        /// The platform's audio session was interrupted (a phone call, another app's audio): media in progress was
        /// cancelled, `playedTo` into its segment when it was a playback.
        case audioInterruptionBegan(playedTo: Duration?)
        /// The audio-session interruption ended: `audioInterruptTransitionParams` decides what happens.
        case audioInterruptionEnded
    }

    /// What to do.
    public enum Action: Sendable, Hashable {
        /// Deliver a callback.
        case emit(VoiceFlowEvent)
        /// Deliver the callbacks so far, then send ``Input/proceed``.
        case proceed
        /// Play one segment, then send ``Input/segmentEnded`` or ``Input/segmentFailed(_:)``.
        indirect case play(PlaybackSegment)
        /// Listen, then send ``Input/recognized(_:)`` or ``Input/recognitionFailed(_:)``.
        indirect case recognize(RecognitionPlan)
        /// Record, then send ``Input/recorded(_:)`` or ``Input/recordingFailed(_:)``.
        indirect case record(RecordingPlan)
        /// Wait for ``Input/resume`` (or stop or interrupt).
        case waitForResume
        /// Start listening in the background and go on with the next action without waiting: the prompt that
        /// follows may be barged into (``Input/bargeIn(playedTo:)``). The outcome is read by
        /// ``awaitRecognition``.
        indirect case listen(RecognitionPlan)
        /// Wait for the next outcome of the listening in progress: ``Input/partial(_:)``,
        /// ``Input/recognized(_:)`` or ``Input/recognitionFailed(_:)``. The no-input timeout counts from the first
        /// of these waits.
        case awaitRecognition
        /// Wait for ``Input/audioInterruptionEnded`` (or stop or interrupt).
        case waitForInterruptionEnd
        /// The run is over.
        case finish(FinishReason)
    }

    /// The configuration.
    public let configuration: Configuration
    /// The runtime fields.
    public var fields: RuntimeFields
    /// The user intent the application set (reset on entering an `audioDialog` or `audioListener` and before each
    /// listening attempt).
    public var userIntent: String?
    /// The last error met while running (a failure route taken, or the reason the run failed).
    public internal(set) var lastError: ParleyError?
    /// The module the flow is in, while running or paused.
    public var currentModuleID: String? { phase.moduleID }
    /// Whether a run is in progress (running or paused).
    public var isActive: Bool {
        switch phase {
        case .idle, .finished: false
        default: true
        }
    }
    /// Whether the flow waits in a `pauseResume` module.
    public var isPaused: Bool {
        if case .paused = phase { return true }
        return false
    }
    /// Whether an audio-session interruption holds the flow.
    public var isInterrupted: Bool {
        if case .interrupted = phase { return true }
        return false
    }
    /// The flow-wide `audioInterruptTransitionParams`, set by the last `process` module that had them; a module's
    /// own parameters override them.
    public internal(set) var defaultInterruptTransition = InterruptTransition()

    // The machine's state, shared with its extensions (Engine+Transitions, +Playback, +Listening, +Interruptions).
    var random: AnyRandom
    var phase: Phase = .idle
    var visit = Visit(moduleID: "")
    /// Modules passed since the last media action.
    var transitions = 0

    /// Creates an engine; `random` chooses `select` prompts.
    public init(
        configuration: Configuration, fields: RuntimeFields = RuntimeFields(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.fields = fields
        self.random = AnyRandom(base: random)
    }

    /// Marks the hypothesis of the last `SRHypothesis` callback as rejected (`srClientRejectedHypothesis`): the
    /// dialog treats it as garbage.
    public mutating func rejectHypothesis() {
        visit.rejected = true
    }

    /// Queues a prompt module for the running `audioListener` (`loadAudioListenerPrompt`). Its text is resolved
    /// when its turn comes, so runtime fields set after this call still count.
    /// - Returns: `false` when the flow is not in an `audioListener` module.
    public mutating func loadListenerPrompt(_ promptID: String) -> Bool {
        guard let id = phase.moduleID, configuration.flow[id]?.type == .audioListener else { return false }
        visit.listenerQueue.append(promptID)
        return true
    }

    // MARK: Inputs

    /// Handles `input` and says what to do next.
    public mutating func handle(_ input: Input) -> [Action] {
        // The two steps of every transition, matched without building an (input, phase) pair.
        if case .proceed = input {
            if case .entering(let id, let position) = phase { return run(id, at: position) }
            if case .leaving(let id, let target, let position) = phase {
                return proceed(from: id, to: target, at: position)
            }
        }
        switch (input, phase) {
        case (.start, .idle), (.start, .finished):
            transitions = 0
            lastError = nil
            return enter("VF_START")
        case (.proceed, .afterSegment(var playback)):
            return continuePlayback(&playback)
        case (.proceed, .reviewing(let id, let hypothesis, let partials)):
            return evaluate(id, hypothesis: hypothesis, partials: partials)
        case (.proceed, .retrying(let id, let kind)):
            return retry(id, kind: kind)
        case (.segmentEnded, .playing(var playback)):
            guard let segment = playback.current else { return [] }
            playback.current = nil
            if segment.plays.map({ playback.playCount < $0 }) ?? true {
                var again = segment
                again.startPosition = nil
                playback.replay = again
            }
            phase = .afterSegment(playback)
            return [
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                        event: .ended,
                        data: segment.plays == 1 ? [:] : ["playCount": .number(Double(playback.playCount))]
                    )), .proceed,
            ]
        case (.bargeIn(let position), .playing(let playback)) where playback.listening,
            (.bargeIn(let position), .afterSegment(let playback)) where playback.listening:
            var actions: [Action] = []
            let data: JSONObject = position.map { ["positionMs": .number(Double(Self.milliseconds($0)))] } ?? [:]
            if let segment = playback.current {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                            event: .stopped, data: data)))
            }
            actions.append(
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio,
                        event: .stopped, data: ["reason": "bargeIn"])))
            phase = .recognizing(playback.moduleID)
            return actions + [.awaitRecognition]
        case (.partial(let text), .recognizing(let id)):
            visit.partials.append(text)
            return [
                .emit(
                    .srHypothesis(
                        moduleID: id,
                        data: SRData(engine: configuration.recognizerEngine, hypothesis: text, hypothesisType: .partial)
                    )),
                .awaitRecognition,
            ]
        case (.audioInterruptionBegan(let position), _):
            return interruptionBegan(playedTo: position)
        case (.audioInterruptionEnded, .interrupted(let id, let resume)):
            return interruptionEnded(id, resume: resume)
        case (.segmentFailed(let error), .playing(let playback)):
            var actions: [Action] = []
            if let segment = playback.current {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                            event: .error, data: Self.data(error))))
            }
            actions.append(
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio, event: .error,
                        data: Self.data(error))))
            return actions + failure(playback.moduleID, "loadPromptFailure", error)
        case (.recognized(let recognition), .recognizing(let id)):
            switch recognition {
            case .hypothesis(let text, let given):
                let partials = visit.partials + given
                var actions: [Action] = given.map {
                    .emit(
                        .srHypothesis(
                            moduleID: id,
                            data: SRData(
                                engine: configuration.recognizerEngine, hypothesis: $0, hypothesisType: .partial)))
                }
                visit.rejected = false
                actions.append(
                    .emit(
                        .srHypothesis(
                            moduleID: id,
                            data: SRData(
                                engine: configuration.recognizerEngine, hypothesis: text, hypothesisType: .complete))))
                actions.append(
                    .emit(
                        .mediaEvent(moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .ended, data: [:]))
                )
                phase = .reviewing(id, text, partials)
                return actions + [.proceed]
            case .noInput:
                phase = .retrying(id, DialogPromptType.timeout)
                return [
                    .emit(
                        .mediaEvent(
                            moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .timeout, data: [:])),
                    .proceed,
                ]
            }
        case (.recognitionFailed(let error), .recognizing(let id)):
            lastError = error
            phase = .retrying(id, DialogPromptType.srError)
            return [
                .emit(
                    .mediaEvent(
                        moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .error, data: Self.data(error))
                ), .proceed,
            ]
        case (.recorded(let result), .recording(let id)):
            var data: JSONObject = ["stopReason": .string(result.stopReason)]
            if let file = result.file { data.append("file", .string(file.lastPathComponent)) }
            let module = configuration.flow[id]
            let target = module?.goTo.stopRecordReasons[result.stopReason] ?? module?.goTo.defaultTarget
            return [
                .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recordAudio, event: .ended, data: data))
            ] + leave(id, target: target)
        case (.recordingFailed(let error), .recording(let id)):
            return [
                .emit(
                    .mediaEvent(
                        moduleID: id, mediaItemID: id, function: .recordAudio, event: .error, data: Self.data(error)))
            ] + failure(id, "internalFailure", error)
        case (.resume, .paused(let id)):
            return leave(id, target: configuration.flow[id]?.goTo.defaultTarget)
        case (.stop, _):
            guard isActive, let id = phase.moduleID else { return [] }
            let actions = stopMedia() + [.emit(.preModuleEnd(moduleID: id))]
            phase = .finished
            return actions + [.finish(.stopped)]
        case (.interrupt(let target), _):
            guard isActive, let id = phase.moduleID, configuration.flow[target] != nil else { return [] }
            let actions = stopMedia() + [.emit(.preModuleEnd(moduleID: id))]
            transitions = 0
            return actions + enter(target)
        default:
            return []
        }
    }

    /// Whole milliseconds, saturating at `Int`'s range (a position comes from the runner, not from the flow).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? Int.min : Int.max }
        return whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000_000)).partialValue
    }

    static func data(_ error: ParleyError) -> JSONObject {
        ["code": .string(error.code.rawValue), "message": .string(error.message)]
    }
}
