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
    public private(set) var lastError: ParleyError?
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
    public private(set) var defaultInterruptTransition = InterruptTransition()

    private var random: AnyRandom
    private var phase: Phase = .idle
    private var visit = Visit(moduleID: "")
    private var transitions = 0

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

    // MARK: Modules

    /// Leaves `id` for `target` (or finishes), counting the transition; `position` is the target's, when known.
    private mutating func proceed(from id: String, to target: String, at position: Int?) -> [Action] {
        if id == "VF_END" || target.isEmpty {
            phase = .finished
            return [.finish(.completed)]
        }
        transitions += 1
        if transitions > configuration.maxTransitionsWithoutMedia {
            return fail(
                ParleyError(
                    .transitionLoop,
                    "the flow passed \(configuration.maxTransitionsWithoutMedia) modules without media; "
                        + "last \(id) → \(target)"
                ))
        }
        return enter(target, at: position)
    }

    /// Enters module `id`, found at `position` (looked up when nil). The position travels with the phase, so that
    /// a transition looks its target up once.
    private mutating func enter(_ id: String, at position: Int? = nil) -> [Action] {
        guard let position = position ?? configuration.flow.position(of: id) else {
            return fail(ParleyError(.internalFailure, "no module \(id) in the flow"))
        }
        let type = configuration.flow.step(at: position).type
        visit = Visit(moduleID: id)
        if type == .audioDialog || type == .audioListener { userIntent = nil }
        phase = .entering(id, position)
        return [.emit(.preModuleStart(moduleID: id)), .proceed]
    }

    private mutating func run(_ id: String, at position: Int) -> [Action] {
        // Modules without media run from their prepared step, without copying the module.
        let step = configuration.flow.step(at: position)
        switch step.type {
        case .node, .runAEC:
            return leave(id, step)
        case .process:
            for assignment in step.assignments {
                fields[assignment.field] =
                    assignment.isLiteral ? assignment.value : fields.resolve(assignment.value) ?? assignment.value
            }
            if let transition = step.interruptTransition { defaultInterruptTransition = transition }
            return leave(id, step)
        default:
            break
        }
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        switch module.parameters {
        case .playAudio(let choice):
            do {
                let list = try self.segments(for: choice, moduleID: id)
                return startPlayback(id, itemID: choice.promptID.resolve(with: fields) ?? id, list, then: .leave)
            } catch {
                return failure(id, "loadPromptFailure", error)
            }
        case .recordAudio(let record):
            if let promptID = record.promptID.resolve(with: fields),
                !(record.promptNoPlay.resolve(with: fields) ?? false)
            {
                do {
                    return startPlayback(
                        id, itemID: promptID, try segments(promptID, moduleID: id, attempt: 0), then: .record)
                } catch {
                    return failure(id, "loadPromptFailure", error)
                }
            }
            return startRecording(id)
        case .audioDialog:
            return startAttempt(id, kind: nil)
        case .audioListener(let listener):
            guard let promptID = listener.promptID.resolve(with: fields) else {
                return failure(
                    id, "loadPromptFailure", ParleyError(.loadPromptFailure, "audioListener \(id) has no promptID"))
            }
            visit.listenerQueue = [promptID]
            visit.listenerBargeIn = listener.recognizeWhilePlay.resolve(with: fields) ?? false
            var playback = Playback(moduleID: id, itemID: promptID, then: .recognize)
            return [
                .emit(
                    .mediaEvent(moduleID: id, mediaItemID: promptID, function: .playAudio, event: .started, data: [:]))
            ] + continuePlayback(&playback)
        case .empty where module.type == .pauseResume:
            phase = .paused(id)
            return [.waitForResume]
        default:
            return failure(
                id, "internalFailure", ParleyError(.unknownModuleType, "module \(id) has unknown type \(module.type)"))
        }
    }

    /// Leaves `id` for its step's `DEFAULT` target, found without a lookup when the target is literal.
    private mutating func leave(_ id: String, _ step: VoiceFlow.Step) -> [Action] {
        guard let position = step.defaultTargetPosition, let target = step.defaultTarget else {
            return leave(id, target: step.defaultTarget)
        }
        phase = .leaving(id, target, position)
        return [.emit(.preModuleEnd(moduleID: id)), .proceed]
    }

    /// Leaves `id` for `target` (resolved now): `PreModuleEnd`, then the next module on ``Input/proceed``.
    private mutating func leave(_ id: String, target: String?) -> [Action] {
        guard let raw = target else {
            return failure(
                id, "internalFailure", ParleyError(.missingKey, "module \(id) has no goTo target for this outcome"),
                isFallback: true)
        }
        guard let resolved = fields.resolve(raw) else {
            return failure(
                id, "internalFailure",
                ParleyError(.internalFailure, "goTo target \(raw) of \(id) is an unset runtime field"), isFallback: true
            )
        }
        let position = resolved.isEmpty ? nil : configuration.flow.position(of: resolved)
        if !resolved.isEmpty, id != "VF_END", position == nil {
            return failure(
                id, "internalFailure", ParleyError(.danglingGoTo, "goTo target \(resolved) of \(id) names no module"),
                isFallback: true)
        }
        phase = .leaving(id, resolved, position)
        return [.emit(.preModuleEnd(moduleID: id)), .proceed]
    }

    /// Takes the failure route `key` (`loadPromptFailure` falls back to `internalFailure`, both to `DEFAULT`).
    /// When even that is impossible (or this is already a fallback), the run fails.
    private mutating func failure(_ id: String, _ key: String, _ error: ParleyError, isFallback: Bool = false)
        -> [Action]
    {
        lastError = error
        let goTo = configuration.flow[id]?.goTo ?? GoTo()
        let candidates =
            key == "loadPromptFailure"
            ? [goTo.routes["loadPromptFailure"], goTo.routes["internalFailure"]] : [goTo.routes["internalFailure"]]
        let defaultTarget = isFallback ? nil : goTo.defaultTarget
        for case let target? in candidates + [defaultTarget] {
            if let resolved = fields.resolve(target), resolved.isEmpty || configuration.flow[resolved] != nil {
                phase = .leaving(id, resolved, nil)
                return [.emit(.preModuleEnd(moduleID: id)), .proceed]
            }
        }
        return fail(error)
    }

    private mutating func fail(_ error: ParleyError) -> [Action] {
        lastError = error
        phase = .finished
        return [.finish(.failed(error))]
    }

    // MARK: Playback

    private mutating func startPlayback(
        _ id: String, itemID: String, _ segments: [PlaybackSegment], then: Playback.Then
    ) -> [Action] {
        var playback = Playback(moduleID: id, itemID: itemID, queue: segments, then: then)
        return [.emit(.mediaEvent(moduleID: id, mediaItemID: itemID, function: .playAudio, event: .started, data: [:]))]
            + continuePlayback(&playback)
    }

    private mutating func continuePlayback(_ playback: inout Playback) -> [Action] {
        let isListener = configuration.flow[playback.moduleID]?.type == .audioListener
        if isListener, let target = intentTarget(playback.moduleID) {
            return [
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio,
                        event: .stopped, data: [:]))
            ]
                + leave(playback.moduleID, target: target)
        }
        while playback.queue.isEmpty, isListener, !visit.listenerQueue.isEmpty {
            let promptID = visit.listenerQueue.removeFirst()
            do {
                let bargeIn = visit.listenerBargeIn
                playback.queue = try segments(promptID, moduleID: playback.moduleID, attempt: 0).map {
                    var segment = $0
                    segment.bargeIn = bargeIn
                    return segment
                }
            } catch {
                return failure(playback.moduleID, "loadPromptFailure", error)
            }
        }
        if let replay = playback.replay {
            playback.replay = nil
            playback.queue.insert(replay, at: 0)
        } else {
            playback.playCount = 0
        }
        guard !playback.queue.isEmpty else {
            let ended = Action.emit(
                .mediaEvent(
                    moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio, event: .ended,
                    data: [:]))
            if playback.listening {
                phase = .recognizing(playback.moduleID)
                transitions = 0
                return [ended, .awaitRecognition]
            }
            switch playback.then {
            case .leave:
                return [ended]
                    + leave(playback.moduleID, target: configuration.flow[playback.moduleID]?.goTo.defaultTarget)
            case .record: return [ended] + startRecording(playback.moduleID)
            case .recognize: return [ended] + startRecognition(playback.moduleID)
            }
        }
        let segment = playback.queue.removeFirst()
        playback.current = segment
        playback.playCount += 1
        var actions: [Action] = []
        if segment.bargeIn, configuration.listensWhilePlaying, !playback.listening, playback.then == .recognize {
            // Listening starts with the first prompt the caller may barge into.
            do throws(ParleyError) {
                let plan = try recognitionPlan(playback.moduleID)
                playback.listening = true
                userIntent = nil
                visit.partials = []
                actions += [
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: playback.moduleID, function: .recognizeAudio,
                            event: .started, data: [:])),
                    .listen(plan),
                ]
            } catch {
                return failure(playback.moduleID, "internalFailure", error)
            }
        }
        phase = .playing(playback)
        transitions = 0
        return actions + [
            .emit(
                .playAudioSegmentData(
                    moduleID: playback.moduleID, promptID: segment.promptID, segmentType: segment.type,
                    audioFile: segment.audioFile, textString: segment.text, textFile: segment.textFile)),
            .emit(
                .mediaEvent(
                    moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                    event: .started,
                    data: segment.plays == 1 ? [:] : ["playCount": .number(Double(playback.playCount))])),
            .play(segment),
        ]
    }

    // MARK: Audio-session interruptions

    private mutating func interruptionBegan(playedTo position: Duration?) -> [Action] {
        guard isActive, !isInterrupted, let id = phase.moduleID else { return [] }
        let resume: ResumePoint
        switch phase {
        case .playing(let playback), .afterSegment(let playback): resume = .playback(playback, position)
        case .recognizing: resume = .recognition
        case .recording: resume = .recording
        case .paused: resume = .pause
        default: resume = .step(phase)
        }
        let actions = stopMedia()
        phase = .interrupted(id, resume)
        return actions + [
            .emit(
                .mediaEvent(
                    moduleID: id, mediaItemID: id, function: .audioSession, event: .interruptionBegan, data: [:])),
            .waitForInterruptionEnd,
        ]
    }

    /// Applies the module's `audioInterruptTransitionParams` (or the flow-wide ones a `process` module set):
    /// `resume` (the default is `end`), `repeat`, `goto` or `end`.
    private mutating func interruptionEnded(_ id: String, resume: ResumePoint) -> [Action] {
        let own = configuration.flow[id]?.interruptTransition
        let transition = own.flatMap { $0.isEmpty ? nil : $0 } ?? defaultInterruptTransition
        let type = transition.transitionType.resolve(with: fields) ?? "end"
        let ended = Action.emit(
            .mediaEvent(
                moduleID: id, mediaItemID: id, function: .audioSession, event: .interruptionEnded,
                data: ["transitionType": .string(type)]))
        switch type {
        case "resume":
            return [ended] + resumeAfterInterruption(id, resume, transition: transition)
        case "repeat":
            return [ended, .emit(.preModuleEnd(moduleID: id))] + enter(id)
        case "goto":
            let target = transition.goToModuleID.resolve(with: fields) ?? "VF_END"
            guard let position = configuration.flow.position(of: target) else {
                return [ended]
                    + failure(
                        id, "internalFailure",
                        ParleyError(.danglingGoTo, "goToVoiceFlowModuleID \(target) of \(id) names no module"),
                        isFallback: true)
            }
            transitions = 0
            return [ended, .emit(.preModuleEnd(moduleID: id))] + enter(target, at: position)
        default:
            phase = .finished
            return [ended, .emit(.preModuleEnd(moduleID: id)), .finish(.interrupted)]
        }
    }

    private mutating func resumeAfterInterruption(_ id: String, _ resume: ResumePoint, transition: InterruptTransition)
        -> [Action]
    {
        switch resume {
        case .playback(var playback, let position):
            let rewind: Int
            do throws(ParleyError) {
                rewind = try transition.rewind.resolve(with: fields) ?? 0
            } catch {
                phase = .afterSegment(playback)
                return failure(id, "internalFailure", error)
            }
            if var segment = playback.current {
                playback.current = nil
                let from = position.map { max(0, Self.milliseconds($0) - rewind) }
                segment.startPosition = from ?? segment.startPosition
                playback.replay = segment
                playback.playCount -= 1
            }
            if playback.listening {
                // The interruption stopped the listening too: it starts again with the prompt.
                playback.listening = false
            }
            return [
                .emit(
                    .mediaEvent(
                        moduleID: id, mediaItemID: playback.itemID, function: .playAudio, event: .started, data: [:]))
            ] + continuePlayback(&playback)
        case .recognition:
            return startRecognition(id)
        case .recording:
            return startRecording(id)
        case .pause:
            phase = .paused(id)
            return [.waitForResume]
        case .step(let saved):
            phase = saved
            return [.proceed]
        }
    }

    private mutating func stopMedia() -> [Action] {
        switch phase {
        case .playing(let playback), .afterSegment(let playback):
            var actions: [Action] = []
            if let segment = playback.current {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                            event: .stopped, data: [:])))
            }
            actions.append(
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio,
                        event: .stopped, data: [:])))
            if playback.listening {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: playback.moduleID, function: .recognizeAudio,
                            event: .stopped, data: [:])))
            }
            return actions
        case .recognizing(let id):
            return [
                .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .stopped, data: [:]))
            ]
        case .recording(let id):
            return [
                .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recordAudio, event: .stopped, data: [:]))
            ]
        default:
            return []
        }
    }

    // MARK: Prompts

    /// The segments of a `playAudioParams` (or dialog prompt) choice: `promptID`, or `promptCollection` chosen by
    /// `style` (default `single` with a `promptID`, `combo` with a collection).
    private mutating func segments(for choice: PromptChoice, moduleID: String, attempt: Int = 0) throws(ParleyError)
        -> [PlaybackSegment]
    {
        let fields = self.fields
        let collection = choice.collection.compactMap { $0.resolve(with: fields) }
        let style = PromptStyle(
            rawValue: choice.style.resolve(with: fields) ?? (collection.isEmpty ? "single" : "combo"))
        if collection.isEmpty {
            guard let promptID = choice.promptID.resolve(with: fields) else {
                throw ParleyError(.loadPromptFailure, "\(moduleID) names no prompt (promptID or promptCollection)")
            }
            return try segments(promptID, moduleID: moduleID, attempt: attempt)
        }
        return try choose(collection, style: style, moduleID: moduleID, attempt: attempt, depth: 0)
    }

    private mutating func choose(_ ids: [String], style: PromptStyle, moduleID: String, attempt: Int, depth: Int)
        throws(ParleyError) -> [PlaybackSegment]
    {
        switch style {
        case .select:
            let index = Int.random(in: 0..<ids.count, using: &random)
            return try segments(ids[index], moduleID: moduleID, attempt: attempt, depth: depth + 1)
        case .serial:
            return try segments(
                ids[min(attempt, ids.count - 1)], moduleID: moduleID, attempt: attempt, depth: depth + 1)
        default:
            var result: [PlaybackSegment] = []
            for id in ids { result += try segments(id, moduleID: moduleID, attempt: attempt, depth: depth + 1) }
            return result
        }
    }

    /// The segments prompt module `rawID` plays on `attempt` (0 = first).
    private mutating func segments(_ rawID: String, moduleID: String, attempt: Int, depth: Int = 0) throws(ParleyError)
        -> [PlaybackSegment]
    {
        guard depth < 32 else { throw ParleyError(.promptCycle, "prompt modules nest more than 32 deep at \(rawID)") }
        guard let id = fields.resolve(rawID), let prompt = configuration.prompts[id] else {
            throw ParleyError(.loadPromptFailure, "no prompt module \(fields.resolve(rawID) ?? rawID)")
        }
        if prompt.style != .single, !prompt.promptCollection.isEmpty {
            let fields = self.fields
            return try choose(
                prompt.promptCollection.compactMap { (id: String) -> String? in fields.resolve(id) },
                style: prompt.style, moduleID: moduleID, attempt: attempt, depth: depth)
        }
        let fields = self.fields
        let text = prompt.textString.flatMap { fields.resolve($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let textFile = prompt.textFile.flatMap { fields.resolve($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let ssml = prompt.ssml.resolve(with: fields) ?? false
        let startPosition = try prompt.playback?.startPosition.resolve(with: fields).flatMap { $0 > 0 ? $0 : nil }
        // loopPlay: repeat until stopped, or maxPlayCount plays in all (0 or unset: no limit).
        let plays: Int? =
            prompt.playback?.loopPlay.resolve(with: fields) == true
            ? try prompt.playback?.maxPlayCount.resolve(with: fields, in: 0...1_000_000).flatMap { $0 > 0 ? $0 : nil }
            : 1
        func segment(
            _ type: AudioSegmentType, audio: String? = nil, text: String? = nil, file: String? = nil,
            language: String = "en-US"
        ) -> PlaybackSegment {
            PlaybackSegment(
                moduleID: moduleID, promptID: id, type: type, audioFile: audio, text: text, textFile: file,
                isSSML: ssml && type != .audioFile, language: language, startPosition: startPosition,
                plays: plays)
        }
        if let audio = prompt.audioFile.flatMap({ fields.resolve($0) }), !audio.isEmpty {
            if configuration.audioFileExists(audio) { return [segment(.audioFile, audio: audio, text: text)] }
            if let entry = configuration.audioToText[audio], let mapped = fields.resolve(entry.textString) {
                return [segment(.textString, audio: audio, text: mapped, language: entry.textLanguage)]
            }
            if let text { return [segment(.textString, audio: audio, text: text)] }
            if let textFile { return [segment(.textFile, audio: audio, file: textFile)] }
            throw ParleyError(
                .loadPromptFailure, "prompt \(id): audio file \(audio) is missing and there is no text for it")
        }
        if let text { return [segment(.textString, text: text)] }
        if let textFile { return [segment(.textFile, file: textFile)] }
        throw ParleyError(.loadPromptFailure, "prompt \(id) has nothing to play")
    }

    // MARK: Dialogs and listeners

    /// Plays the prompts of a dialog attempt (`kind` nil = first attempt), then listens.
    private mutating func startAttempt(_ id: String, kind: String?) -> [Action] {
        var prompts: [DialogPrompt] = []
        if case .audioDialog(let dialog)? = configuration.flow[id]?.parameters { prompts = dialog.prompts }
        func of(_ type: String) -> [DialogPrompt] {
            prompts.filter { $0.kind == type }
        }
        var chosen: [(DialogPrompt, Int)] = []
        if let kind, !of(kind).isEmpty {
            chosen = of(kind).map { ($0, visit.count(kind) - 1) }
        } else {
            if !visit.playedPreInitial { chosen = of(DialogPromptType.preInitial).map { ($0, 0) } }
            chosen += of(DialogPromptType.initial).map { ($0, visit.attempts) }
        }
        visit.playedPreInitial = true
        visit.attempts += 1
        var segments: [PlaybackSegment] = []
        do {
            for (prompt, attempt) in chosen {
                let bargeIn = prompt.recognizeWhilePlay.resolve(with: fields) ?? false
                segments += try self.segments(for: prompt.choice, moduleID: id, attempt: attempt).map {
                    var segment = $0
                    segment.bargeIn = bargeIn
                    return segment
                }
            }
        } catch {
            return failure(id, "loadPromptFailure", error)
        }
        if segments.isEmpty { return startRecognition(id) }
        return startPlayback(id, itemID: id, segments, then: .recognize)
    }

    /// How module `id` listens, its runtime fields resolved now.
    private func recognitionPlan(_ id: String) throws(ParleyError) -> RecognitionPlan {
        guard let module = configuration.flow[id] else { throw ParleyError(.internalFailure, "no module \(id)") }
        let listening = module.parameters.listening ?? ListeningParameters([:])
        let fields = self.fields
        func limit(_ parameter: Parameter<Int>) throws(ParleyError) -> Duration? {
            guard let ms = try parameter.resolve(with: fields), ms > 0 else { return nil }
            return .milliseconds(ms)
        }
        return RecognitionPlan(
            moduleID: id,
            locale: listening.recognize.locale.resolve(with: fields) ?? "en-US",
            engine: listening.recognize.engine.resolve(with: fields),
            phrases: module.goTo.userInputs.map(\.input),
            noInputTimeout: try listening.stop.maxPreSpeechSilence.resolve(with: fields).map { .milliseconds($0) }
                ?? configuration.defaultNoInputTimeout,
            partialResults: listening.recognize.partialResults.resolve(with: fields) ?? false,
            voiceActivity: try voiceActivity(listening.voiceActivity),
            endSilence: try limit(listening.stop.maxPostSpeechSilence),
            maxSpeech: try limit(listening.stop.maxSpeechLength)
        )
    }

    /// `vadParams` when `enableVAD` (or its runtime twin) is true.
    private func voiceActivity(_ vad: VoiceActivityDetection) throws(ParleyError) -> VoiceActivityPlan? {
        guard vad.enabled.resolve(with: fields) == true else { return nil }
        return VoiceActivityPlan(
            minSpeech: .milliseconds(try vad.minSpeech.resolve(with: fields) ?? 200),
            minSilence: .milliseconds(try vad.minSilence.resolve(with: fields) ?? 500))
    }

    private mutating func startRecognition(_ id: String) -> [Action] {
        let plan: RecognitionPlan
        do throws(ParleyError) {
            plan = try recognitionPlan(id)
        } catch {
            return failure(id, "internalFailure", error)
        }
        visit.partials = []
        userIntent = nil
        phase = .recognizing(id)
        transitions = 0
        return [
            .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .started, data: [:])),
            .recognize(plan),
        ]
    }

    private mutating func startRecording(_ id: String) -> [Action] {
        var record = RecordAudioParameters(nil)
        if case .recordAudio(let parameters)? = configuration.flow[id]?.parameters { record = parameters }
        let fields = self.fields
        func limit(_ parameter: Parameter<Int>) throws(ParleyError) -> Duration? {
            guard let ms = try parameter.resolve(with: fields), ms > 0 else { return nil }
            return .milliseconds(ms)
        }
        let plan: RecordingPlan
        do throws(ParleyError) {
            let maxLength = try limit(record.stop.maxAudioLength)
            plan = RecordingPlan(
                moduleID: id, fileName: (record.fileID.resolve(with: fields) ?? id) + ".wav",
                maxLength: maxLength == nil ? try limit(record.stop.maxRecordLength) : maxLength,
                maxPreSpeechSilence: try limit(record.stop.maxPreSpeechSilence),
                maxPostSpeechSilence: try limit(record.stop.maxPostSpeechSilence),
                voiceActivity: try voiceActivity(record.voiceActivity))
        } catch {
            return failure(id, "internalFailure", error)
        }
        phase = .recording(id)
        transitions = 0
        return [
            .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recordAudio, event: .started, data: [:])),
            .record(plan),
        ]
    }

    private func intentTarget(_ id: String) -> String? {
        guard let intent = userIntent else { return nil }
        return configuration.flow[id]?.goTo.userIntents.first { $0.intent == intent }?.target
    }

    /// After the `SRHypothesis` callbacks: intents, then input matches, then DEFAULT or garbage.
    private mutating func evaluate(_ id: String, hypothesis: String, partials: [String]) -> [Action] {
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        if visit.rejected { return retry(id, kind: DialogPromptType.garbage) }
        if let target = intentTarget(id) { return leave(id, target: target) }
        if let route = module.goTo.userInputs.first(where: { $0.matches(hypothesis) })
            ?? module.goTo.userInputs.first(where: { route in
                route.matchesPartialHypotheses && partials.contains(where: route.matches)
            })
        {
            return leave(id, target: route.target)
        }
        if module.goTo.userInputs.isEmpty, module.goTo.userIntents.isEmpty {
            return leave(id, target: module.goTo.defaultTarget)
        }
        return retry(id, kind: DialogPromptType.garbage)
    }

    /// Counts a timeout, garbage or recognition error; retries with that kind's prompt or takes the max-count route.
    private mutating func retry(_ id: String, kind: String) -> [Action] {
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        let routeKey =
            ["timeout": "maxTimeoutCount", "garbage": "maxGarbageCount", "sr_error": "maxSRErrorCount"][kind]
            ?? "internalFailure"
        visit.counts[kind, default: 0] += 1
        if case .audioDialog(let dialog) = module.parameters {
            let limit: Int
            do throws(ParleyError) {
                limit =
                    try dialog.maxRetryCount[kind]?.resolve(with: fields, in: 0...1_000) ?? Self.defaultRetries[kind]
                    ?? 2
            } catch {
                return failure(id, "internalFailure", error)
            }
            if visit.count(kind) <= limit { return startAttempt(id, kind: kind) }
        }
        return leave(id, target: module.goTo.routes[routeKey] ?? module.goTo.defaultTarget)
    }

    /// Retries allowed after the first attempt when `maxRetryCount` does not say.
    public static let defaultRetries = ["timeout": 2, "garbage": 2, "sr_error": 1]

    /// Whole milliseconds, saturating at `Int`'s range (a position comes from the runner, not from the flow).
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? Int.min : Int.max }
        return whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000_000)).partialValue
    }

    private static func data(_ error: ParleyError) -> JSONObject {
        ["code": .string(error.code.rawValue), "message": .string(error.message)]
    }
}

/// A concrete generator around an existential one, so generic APIs such as `Int.random(in:using:)` take it.
private struct AnyRandom: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable
    mutating func next() -> UInt64 { base.next() }
}

extension Engine {
    private enum Phase: Sendable {
        case idle
        /// A module and its position in the flow.
        case entering(String, Int)
        // Boxed: a playback is large, and the phase is copied at every transition.
        indirect case playing(Playback)
        indirect case afterSegment(Playback)
        case recognizing(String)
        case reviewing(String, String, [String])
        case retrying(String, String)
        case recording(String)
        /// A module, its target, and the target's position when known.
        case leaving(String, String, Int?)
        case paused(String)
        /// An audio-session interruption holds the module; how to go on if it resumes.
        indirect case interrupted(String, ResumePoint)
        case finished

        var moduleID: String? {
            switch self {
            case .idle, .finished: nil
            case .entering(let id, _), .recognizing(let id), .reviewing(let id, _, _), .retrying(let id, _),
                .recording(let id),
                .leaving(let id, _, _), .paused(let id), .interrupted(let id, _):
                id
            case .playing(let playback), .afterSegment(let playback): playback.moduleID
            }
        }
    }

    private struct Playback: Sendable {
        enum Then: Sendable { case leave, record, recognize }
        var moduleID: String
        var itemID: String
        var queue: [PlaybackSegment] = []
        var current: PlaybackSegment?
        var then: Then
        /// The segment to play again (`loopPlay`), and how often the current one has played.
        var replay: PlaybackSegment?
        var playCount = 0
        /// Whether listening started with the playback (`recognizeWhilePlay`).
        var listening = false
    }

    /// Where an interrupted module goes on when `transitionType` is `resume`.
    private indirect enum ResumePoint: Sendable {
        /// The playback, its current segment stopped this far in.
        case playback(Playback, Duration?)
        case recognition
        case recording
        case pause
        /// A step without media: the engine sends ``Input/proceed`` again.
        case step(Phase)
    }

    /// What the engine remembers about the current module visit: reset on every entry.
    private struct Visit: Sendable {
        var moduleID: String
        var counts: [String: Int] = [:]
        var attempts = 0
        var playedPreInitial = false
        var rejected = false
        var listenerQueue: [String] = []
        var listenerBargeIn = false
        /// The partial hypotheses streamed during the current listening.
        var partials: [String] = []

        func count(_ kind: String) -> Int { counts[kind] ?? 0 }
    }
}

/// One segment to play: one prompt module's audio file or text.
public struct PlaybackSegment: Sendable, Hashable {
    /// The module playing it.
    public var moduleID: String
    /// The prompt module.
    public var promptID: String
    /// Audio file, text or text file.
    public var type: AudioSegmentType
    /// The audio file name (also set for text that stands in for a missing file).
    public var audioFile: String?
    /// The text to synthesise.
    public var text: String?
    /// The text file to synthesise.
    public var textFile: String?
    /// Whether the text is SSML.
    public var isSSML: Bool
    /// The text's language.
    public var language: String
    /// Where to start, in milliseconds (`audioPlaybackParams.startPosMs`, or where an interruption stopped it
    /// minus `rewindCurrentAudioSegmentMs`); `nil` from the start. Only the first play of a looping segment starts
    /// here.
    public var startPosition: Int?
    /// How many times the segment plays: 1 unless `loopPlay`; with `loopPlay`, `maxPlayCount`, or `nil` (until the
    /// module is stopped, barged into or left by a listener intent) when that is 0 or unset.
    public var plays: Int?
    /// Whether the caller may barge in (`recognizeWhilePlay`): listening runs during it and the caller's speech
    /// stops it.
    public var bargeIn: Bool

    /// Creates a segment.
    public init(
        moduleID: String, promptID: String, type: AudioSegmentType, audioFile: String? = nil, text: String? = nil,
        textFile: String? = nil, isSSML: Bool = false, language: String = "en-US", startPosition: Int? = nil,
        plays: Int? = 1, bargeIn: Bool = false
    ) {
        self.moduleID = moduleID
        self.promptID = promptID
        self.type = type
        self.audioFile = audioFile
        self.text = text
        self.textFile = textFile
        self.isSSML = isSSML
        self.language = language
        self.startPosition = startPosition
        self.plays = plays
        self.bargeIn = bargeIn
    }
}

/// How to listen.
public struct RecognitionPlan: Sendable, Hashable {
    /// The module listening.
    public var moduleID: String
    /// `srLocale`.
    public var locale: String
    /// `srEngine`, if the module names one.
    public var engine: String?
    /// The `goToForUserInput` inputs: a grammar for engines that take one.
    public var phrases: [String]
    /// `maxPreSpeechSilenceLengthMs`, or the configured default.
    public var noInputTimeout: Duration
    /// `srSessionParams.enablePartialResults`.
    public var partialResults: Bool
    /// `vadParams` when `enableVAD` is true: the caller's speech is then found by the energy detector (and a
    /// barge-in happens when it hears speech); otherwise by the recognizer (its `speechStarted`).
    public var voiceActivity: VoiceActivityPlan?
    /// `maxPostSpeechSilenceLengthMs`: the silence that ends the utterance; `nil` (0 or unset) for the
    /// recognizer's default.
    public var endSilence: Duration?
    /// `maxSpeechLengthMs`: the longest utterance; `nil` (0 or unset) for the recognizer's default.
    public var maxSpeech: Duration?

    /// Creates a plan.
    public init(
        moduleID: String, locale: String = "en-US", engine: String? = nil, phrases: [String] = [],
        noInputTimeout: Duration = .seconds(8), partialResults: Bool = false,
        voiceActivity: VoiceActivityPlan? = nil, endSilence: Duration? = nil, maxSpeech: Duration? = nil
    ) {
        self.moduleID = moduleID
        self.locale = locale
        self.engine = engine
        self.phrases = phrases
        self.noInputTimeout = noInputTimeout
        self.partialResults = partialResults
        self.voiceActivity = voiceActivity
        self.endSilence = endSilence
        self.maxSpeech = maxSpeech
    }
}

/// `recordAudioParams.vadParams` of a module with `enableVAD`: Parley's energy ``VoiceActivityDetector`` finds the
/// caller's speech.
public struct VoiceActivityPlan: Sendable, Hashable {
    /// `minSpeechToDetectMs` (default 200 ms): the voiced audio that counts as speech starting.
    public var minSpeech: Duration
    /// `minSilenceToDetectMs` (default 500 ms): the quiet audio that counts as speech ending.
    public var minSilence: Duration

    /// Creates a plan.
    public init(minSpeech: Duration = .milliseconds(200), minSilence: Duration = .milliseconds(500)) {
        self.minSpeech = minSpeech
        self.minSilence = minSilence
    }

    /// The detector's parameters at 16 kHz: onset and hangover from ``minSpeech`` and ``minSilence``.
    public var parameters: VoiceActivityParameters {
        let frame = 320
        let rate = AudioBuffer.recognitionSampleRate
        return VoiceActivityParameters(
            frameLength: frame, onsetFrames: AudioBuffer.samples(in: minSpeech, sampleRate: rate) / frame,
            hangoverFrames: AudioBuffer.samples(in: minSilence, sampleRate: rate) / frame)
    }
}

/// How to record.
public struct RecordingPlan: Sendable, Hashable {
    /// The module recording.
    public var moduleID: String
    /// The file name, in the record-audio folder.
    public var fileName: String
    /// `maxAudioLengthMs` (or `maxRecordLengthMs`); `nil` when 0 or unset.
    public var maxLength: Duration?
    /// `maxPreSpeechSilenceLengthMs`; `nil` when 0 or unset.
    public var maxPreSpeechSilence: Duration?
    /// `maxPostSpeechSilenceLengthMs`; `nil` when 0 or unset.
    public var maxPostSpeechSilence: Duration?
    /// `vadParams` when `enableVAD` is true. Live recording applies the silence limits only then: without a
    /// detector nothing tells speech from silence.
    public var voiceActivity: VoiceActivityPlan?
}
