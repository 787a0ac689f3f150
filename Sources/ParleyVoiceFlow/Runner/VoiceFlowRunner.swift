import Foundation
public import Logging
public import ParleyCore
public import ParleySpeech

/// Runs voice flows with speech engines: the actor that performs an ``Engine``'s actions.
///
/// ```swift
/// let runner = VoiceFlowRunner(recognizer: PocketsphinxRecognizer(), player: SilentPlayer(), recorder: microphone)
/// try await runner.loadPrompts(json: promptsJSON)
/// try await runner.loadVoiceFlow(json: flowJSON)
/// Task { for await event in runner.events { print(event) } }
/// let reason = try await runner.run()
/// ```
///
/// Callbacks go, in order and one at a time, to ``events`` and to the delegate; the runner waits for the delegate
/// before it continues. The clock stamps ``history``; the random generator chooses `select` prompts.
///
/// With live speech (``init(live:recorder:permissions:clock:random:logger:)``) prompts stream to a sink while the
/// caller is recognised as they speak, and prompts with `recognizeWhilePlay` can be barged into:
///
/// ```swift
/// let runner = VoiceFlowRunner(live: .soundDevice(recognizer: PocketsphinxStreamingRecognizer()))
/// await runner.initializeDefaultAudioSession()
/// ```
public actor VoiceFlowRunner {
    /// A callback with the time it happened, measured on the runner's clock from the start of the run.
    public struct TimedEvent: Sendable, Hashable {
        /// Time since ``run()`` started.
        public var elapsed: Duration
        /// The callback.
        public var event: VoiceFlowEvent
    }

    /// Every callback of the runner's life, in order. The stream ends when the runner is deallocated.
    public nonisolated let events: AsyncStream<VoiceFlowEvent>
    let sink: AsyncStream<VoiceFlowEvent>.Continuation

    /// The callbacks of the current (or last) run, with their times.
    public internal(set) var history: [TimedEvent] = []
    /// The last error: a load or validation failure, a failure route taken, or why a run failed.
    public internal(set) var lastError: ParleyError?

    let synthesizer: (any SpeechSynthesizer)?
    let recognizer: (any SpeechRecognizer)?
    let player: (any AudioPlayer)?
    let live: LiveSpeech?
    let recorder: (any AudioRecorder)?
    let permissions: any PermissionSource
    let elapsed: @Sendable () -> Duration
    var random: any RandomNumberGenerator & Sendable

    var flow: VoiceFlow?
    var prompts = PromptLibrary()
    var audioToText = AudioToTextMap()
    var locations = ResourceLocations()
    var delegate: (any VoiceFlowDelegate)?
    var pronunciations = Pronunciations()
    var selectedVoices: [String: String] = [:]
    var storedFields = RuntimeFields()
    var storedIntent: String?
    var moduleLogLevels: [String: Logger.Level] = [:]
    /// Where the runner logs (swift-log); its `logLevel` is the runner's own level (swift-log's default: `info`).
    public internal(set) var logger: Logger

    var engine: Engine?
    var cancelMedia: (@Sendable () -> Void)?
    var control: Engine.Input?
    var resumeWaiter: CheckedContinuation<Void, Never>?

    // Live speech (VoiceFlowRunner+Media.swift): the listening in progress, barge-in and audio-session interruptions.
    var listening: LiveListening?
    var playingBargeIn = false
    var speechHeard = false
    var bargeInPending = false
    var lastStoppedAt: Duration?
    var interruptionPending = false
    var interruptionEndPending = false
    var interruptionWaiter: CheckedContinuation<Void, Never>?
    /// What the last ``initializeDefaultAudioSession()`` or ``initializeAudioSession(_:)`` did.
    public internal(set) var audioSession: AudioSessionReport?
    #if canImport(UIKit) && canImport(AVFAudio)
        /// The `AVAudioSession` interruption observer (VoiceFlowRunner+AudioSession.swift).
        var interruptionObserver: (any NSObjectProtocol)?
    #endif

    /// Creates a runner.
    /// - Parameters:
    ///   - synthesizer: Lists voices (playback synthesises through `player`).
    ///   - recognizer: Recognises the user's speech.
    ///   - player: Plays audio files and text.
    ///   - recorder: Captures the user's audio; when set, recognition gets the recorded file. `recordAudio`
    ///     modules need it.
    ///   - permissions: Answers ``requestMicrophonePermission()`` and ``requestSpeechRecognitionPermission()``: the
    ///     platform's own answer by default (``SystemPermissionSource``), a ``FixedPermissionSource`` in tests.
    ///   - clock: Stamps ``history``.
    ///   - random: Chooses `select` prompts; pass a seeded generator for repeatable runs.
    ///   - logger: Where the runner logs (swift-log); per-module levels come from ``setModuleLogLevels(_:)``.
    public init<C: Clock>(
        synthesizer: (any SpeechSynthesizer)? = nil, recognizer: any SpeechRecognizer, player: any AudioPlayer,
        recorder: (any AudioRecorder)? = nil, permissions: any PermissionSource = SystemPermissionSource(),
        clock: C = ContinuousClock(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        logger: Logger = Logger(label: "parley.voiceflow")
    ) where C.Duration == Duration {
        self.logger = logger
        let (stream, continuation) = AsyncStream.makeStream(of: VoiceFlowEvent.self)
        events = stream
        sink = continuation
        self.synthesizer = synthesizer
        self.recognizer = recognizer
        self.player = player
        self.live = nil
        self.recorder = recorder
        self.permissions = permissions
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.random = random
    }

    /// Creates a runner with live speech: prompts stream to `live.output` as they are synthesised, the caller is
    /// recognised while speaking (partial hypotheses arrive as they are heard), and prompts with
    /// `recognizeWhilePlay` stop when the caller speaks.
    /// - Parameters:
    ///   - live: The streaming engines and the caller's audio.
    ///   - recorder: Captures `recordAudio` modules instead of `live.callerAudio`, when set.
    ///   - permissions: Answers the permission requests.
    ///   - clock: Stamps ``history``.
    ///   - random: Chooses `select` prompts.
    ///   - logger: Where the runner logs.
    public init<C: Clock>(
        live: LiveSpeech, recorder: (any AudioRecorder)? = nil,
        permissions: any PermissionSource = SystemPermissionSource(), clock: C = ContinuousClock(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        logger: Logger = Logger(label: "parley.voiceflow")
    ) where C.Duration == Duration {
        self.logger = logger
        let (stream, continuation) = AsyncStream.makeStream(of: VoiceFlowEvent.self)
        events = stream
        sink = continuation
        synthesizer = live.synthesizer
        recognizer = nil
        player = nil
        self.live = live
        self.recorder = recorder
        self.permissions = permissions
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.random = random
    }

    deinit {
        sink.finish()
    }

    /// The recognizer's engine name (``SRData/engine``).
    var recognizerEngine: String { live?.recognizer.engine ?? recognizer?.engine ?? "none" }

    // MARK: Logging

    /// Sets the runner's log level (the reference API's levels map to swift-log's: `fault` → `critical`,
    /// `default` → `notice`, `verbose` → `trace`; `none` is `critical` with no fault to log).
    public func setLogLevel(_ level: Logger.Level) {
        logger.logLevel = level
    }

    /// Sets log levels per module: voice-flow module ids, or the media components `AudioPlayer`, `AudioRecorder`,
    /// `SpeechRecognizer`.
    public func setModuleLogLevels(_ levels: [String: Logger.Level]) {
        moduleLogLevels.merge(levels) { _, new in new }
    }

    /// The level that applies to `module`: its own, or the runner's.
    public func logLevel(for module: String) -> Logger.Level {
        moduleLogLevels[module] ?? logger.logLevel
    }

    /// Logs `message` when `level` reaches the level of its module (or the runner's), with the module as metadata.
    func log(_ level: Logger.Level, _ module: String?, _ message: String) {
        var logger = logger
        if let module {
            logger.logLevel = logLevel(for: module)
            logger[metadataKey: "module"] = "\(module)"
        }
        logger.log(level: level, "\(message)")
    }

    // MARK: Running

    /// Whether a run is in progress.
    public var isRunning: Bool { engine != nil }

    /// The module the flow is in.
    public var currentModuleID: String? { engine?.currentModuleID }

    /// Whether the flow waits in a `pauseResume` module for ``resume()``.
    public var isPaused: Bool { engine?.isPaused ?? false }

    /// Asks the runner's permission source for the microphone (`requestMicrophonePermission`) and delivers the
    /// answer as a `PermissionEvent` once there is one (the user may be prompted first, the seed's
    /// `ST_PERMISSION_WAIT`). On Apple platforms the source asks `AVAudioApplication`; on Linux the answer is whether
    /// the capture device opens — denied on a machine without a sound card. A denial's reason goes to ``lastError``
    /// and the log.
    @discardableResult
    public func requestMicrophonePermission() async -> MediaEvent {
        await requestPermission(.microphone, granted: .microphonePermissionGranted, denied: .microphonePermissionDenied)
    }

    /// Asks the runner's permission source for speech recognition (`SFSpeechRecognizer` on Apple platforms; on
    /// Linux whether the PocketSphinx engine loads) and delivers the answer as a `PermissionEvent`.
    @discardableResult
    public func requestSpeechRecognitionPermission() async -> MediaEvent {
        await requestPermission(
            .speechRecognition, granted: .speechRecognizerPermissionGranted,
            denied: .speechRecognizerPermissionDenied)
    }

    func requestPermission(_ permission: Permission, granted: MediaEvent, denied: MediaEvent) async
        -> MediaEvent
    {
        let event: MediaEvent
        switch await permissions.request(permission) {
        case .granted:
            event = granted
        case .denied(let reason):
            lastError = ParleyError(.speechPermissionDenied, "\(permission.rawValue): \(reason)")
            logger.notice(
                "permission denied", metadata: ["permission": "\(permission.rawValue)", "reason": "\(reason)"])
            event = denied
        case .waiting:
            lastError = ParleyError(.speechPermissionDenied, "\(permission.rawValue): no answer")
            event = denied
        }
        await reportPermission(event)
        return event
    }

    /// Delivers a permission answer as a `PermissionEvent` callback.
    public func reportPermission(_ event: MediaEvent) async {
        await deliver(.permissionEvent(event))
    }

    /// Runs the loaded flow from `VF_START` and returns when it ends.
    /// - Throws: `voiceflow.invalidState` when no flow is loaded or one is already running.
    @discardableResult
    public func run() async throws(ParleyError) -> FinishReason {
        guard let flow else { throw recorded(ParleyError(.invalidState, "load a voice flow before running it")) }
        guard engine == nil else { throw recorded(ParleyError(.invalidState, "the voice flow is already running")) }
        let locations = self.locations
        var configuration = Engine.Configuration(
            flow: flow, prompts: prompts, audioToText: audioToText,
            audioFileExists: { locations.find($0, in: .playAudio) != nil },
            recognizerEngine: recognizerEngine)
        configuration.defaultNoInputTimeout = .seconds(8)
        configuration.listensWhilePlaying = live != nil
        var engine = Engine(configuration: configuration, fields: storedFields, random: random)
        engine.userIntent = storedIntent
        self.engine = engine
        history = []
        control = nil
        lastError = nil
        interruptionPending = false
        interruptionEndPending = false
        defer {
            stopListening()
            if let engine = self.engine {
                storedFields = engine.fields
                storedIntent = engine.userIntent
                if let error = engine.lastError, lastError == nil { lastError = error }
            }
            self.engine = nil
        }
        var input = Engine.Input.start
        while true {
            // The engine is set above and cleared only by the `defer` when this function returns.
            guard let actions = self.engine?.handle(input) else {
                throw recorded(ParleyError(.invalidState, "the voice flow's engine is gone"))
            }
            var next: Engine.Input?
            actionLoop: for action in actions {
                if let pending = takeControl() {
                    next = pending
                    break actionLoop
                }
                if interruptionPending, action.startsMedia { break actionLoop }
                switch action {
                case .emit(let event):
                    await deliver(event)
                case .proceed:
                    next = .proceed
                case .play(let segment):
                    next = await playSegment(segment)
                case .listen(let plan):
                    startListening(plan)
                case .awaitRecognition:
                    next = await awaitListening()
                case .recognize(let plan):
                    if live != nil {
                        startListening(plan)
                        next = await awaitListening()
                    } else {
                        next = await perform(recognize(plan))
                    }
                case .record(let plan):
                    next = await perform(recordAudio(plan))
                case .waitForInterruptionEnd:
                    if control == nil, !interruptionEndPending {
                        await withCheckedContinuation { interruptionWaiter = $0 }
                    }
                    interruptionEndPending = false
                    next = takeControl() ?? .audioInterruptionEnded
                case .waitForResume:
                    if control == nil, !interruptionPending { await withCheckedContinuation { resumeWaiter = $0 } }
                    next = takeControl() ?? (interruptionPending ? nil : .resume)
                case .finish(let reason):
                    if case .failed(let error) = reason { lastError = error }
                    log(.info, nil, "voice flow finished: \(reason)")
                    return reason
                }
            }
            if let pending = takeControl() {
                next = pending
            } else if interruptionPending {
                interruptionPending = false
                stopListening()
                next = .audioInterruptionBegan(playedTo: lastStoppedAt)
            }
            guard let next else {
                let error = ParleyError(.internalFailure, "the engine stopped without finishing")
                lastError = error
                return .failed(error)
            }
            input = next
        }
    }

    /// Starts the loaded flow without waiting for it (`runVoiceflow`).
    public func start() throws(ParleyError) {
        guard flow != nil, engine == nil else {
            throw recorded(ParleyError(.invalidState, "no flow loaded, or already running"))
        }
        Task { _ = try? await self.run() }
    }

    /// Stops the running flow: media in progress is cancelled, `NME_STOPPED` and `PreModuleEnd` are delivered, and
    /// ``run()`` returns ``FinishReason/stopped``.
    public func stop() throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        requestControl(.stop)
    }

    /// Leaves the current module for `moduleID` (`interruptVoiceflow`).
    public func interrupt(to moduleID: String) throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        guard flow?[moduleID] != nil else {
            throw recorded(ParleyError(.danglingGoTo, "no module \(moduleID) in the flow"))
        }
        requestControl(.interrupt(to: moduleID))
    }

    /// Continues after a `pauseResume` module (`resumeVoiceflow`).
    public func resume() throws(ParleyError) {
        guard engine?.isPaused == true else {
            throw recorded(ParleyError(.invalidState, "the voice flow is not paused"))
        }
        resumeWaiter?.resume()
        resumeWaiter = nil
    }

    func requestControl(_ input: Engine.Input) {
        control = input
        cancelMedia?()
        resumeWaiter?.resume()
        resumeWaiter = nil
        interruptionWaiter?.resume()
        interruptionWaiter = nil
    }

    func takeControl() -> Engine.Input? {
        defer { control = nil }
        if control != nil { stopListening() }
        return control
    }

    func perform<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await work() }
        cancelMedia = { task.cancel() }
        // What asked to cancel the media before it started: stop at once.
        if bargeInPending || interruptionPending || control != nil { task.cancel() }
        let result = await task.value
        cancelMedia = nil
        return result
    }

    func deliver(_ event: VoiceFlowEvent) async {
        history.append(TimedEvent(elapsed: elapsed(), event: event))
        sink.yield(event)
        log(.debug, event.moduleID, event.description)
        guard let delegate else { return }
        switch event {
        case .preModuleStart(let id): await delegate.preModuleStart(self, moduleID: id)
        case .preModuleEnd(let id): await delegate.preModuleEnd(self, moduleID: id)
        case .srHypothesis(let id, let data):
            let rejected = await delegate.srHypothesis(self, moduleID: id, data: data)
            if rejected, data.hypothesisType == .complete { engine?.rejectHypothesis() }
        case .mediaEvent(let id, let item, let function, let mediaEvent, let data):
            await delegate.mediaEvent(
                self, moduleID: id, mediaItemID: item, function: function, event: mediaEvent, data: data)
        case .playAudioSegmentData(let id, let prompt, let type, let audio, let text, let file):
            await delegate.playAudioSegmentData(
                self, moduleID: id, promptID: prompt, segmentType: type, audioFile: audio, textString: text,
                textFile: file)
        case .permissionEvent(let mediaEvent): await delegate.permissionEvent(self, event: mediaEvent)
        }
    }

    // MARK: Helpers

    func readResource(_ name: String, _ category: ResourceLocations.FileCategory) throws(ParleyError) -> String {
        guard let url = locations.find(name, in: category) else {
            let tried = locations.candidates(for: name, in: category).map(\.path).joined(separator: ", ")
            throw recorded(ParleyError(.fileNotFound, "\(name) not found (tried \(tried))"))
        }
        return try record { () throws(ParleyError) in try readText(url) }
    }

    func recorded(_ error: ParleyError) -> ParleyError {
        lastError = error
        log(.error, nil, error.description)
        return error
    }

    func record<T>(_ body: () throws(ParleyError) -> T) throws(ParleyError) -> T {
        do {
            return try body()
        } catch {
            throw recorded(error)
        }
    }
}

extension Engine.Action {
    /// Whether the runner starts media for it (held back while an audio-session interruption is pending).
    var startsMedia: Bool {
        switch self {
        case .play, .listen, .recognize, .record, .awaitRecognition: true
        default: false
        }
    }
}
