public import Foundation
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
    private let sink: AsyncStream<VoiceFlowEvent>.Continuation

    /// The callbacks of the current (or last) run, with their times.
    public private(set) var history: [TimedEvent] = []
    /// The last error: a load or validation failure, a failure route taken, or why a run failed.
    public private(set) var lastError: ParleyError?

    private let synthesizer: (any SpeechSynthesizer)?
    private let recognizer: (any SpeechRecognizer)?
    private let player: (any AudioPlayer)?
    private let live: LiveSpeech?
    private let recorder: (any AudioRecorder)?
    private let permissions: any PermissionSource
    private let elapsed: @Sendable () -> Duration
    private var random: any RandomNumberGenerator & Sendable

    private var flow: VoiceFlow?
    private var prompts = PromptLibrary()
    private var audioToText = AudioToTextMap()
    private var locations = ResourceLocations()
    private var delegate: (any VoiceFlowDelegate)?
    private var pronunciations = Pronunciations()
    private var selectedVoices: [String: String] = [:]
    private var storedFields = RuntimeFields()
    private var storedIntent: String?
    private var moduleLogLevels: [String: Logger.Level] = [:]
    /// Where the runner logs (swift-log); its `logLevel` is the runner's own level (swift-log's default: `info`).
    public private(set) var logger: Logger

    private var engine: Engine?
    private var cancelMedia: (@Sendable () -> Void)?
    private var control: Engine.Input?
    private var resumeWaiter: CheckedContinuation<Void, Never>?

    // Live speech: the listening in progress, barge-in and audio-session interruptions.
    private var listening: LiveListening?
    private var playingBargeIn = false
    private var speechHeard = false
    private var bargeInPending = false
    private var lastStoppedAt: Duration?
    private var interruptionPending = false
    private var interruptionEndPending = false
    private var interruptionWaiter: CheckedContinuation<Void, Never>?
    /// What the last ``initializeDefaultAudioSession()`` or ``initializeAudioSession(_:)`` did.
    public private(set) var audioSession: AudioSessionReport?

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
    private var recognizerEngine: String { live?.recognizer.engine ?? recognizer?.engine ?? "none" }

    // MARK: Audio session

    /// Configures the audio session with the reference's defaults (`initializeDefaultAudioSession`): allow
    /// Bluetooth, duck others, default to the device speaker, voice-chat mode. See
    /// ``initializeAudioSession(_:)``.
    @discardableResult
    public func initializeDefaultAudioSession() -> AudioSessionReport {
        initializeAudioSession(.standard)
    }

    /// Configures the audio session (`initializeAudioSession`): `AVAudioSession` on iOS-family platforms, where an
    /// interruption of the session is then routed to ``audioInterruptionBegan()`` and
    /// ``audioInterruptionEnded()``; elsewhere the configuration is only recorded (``audioSession``).
    @discardableResult
    public func initializeAudioSession(_ configuration: AudioSessionConfiguration) -> AudioSessionReport {
        let report = configuration.apply()
        if !report.applied { log(.info, "AudioSession", "audio session not applied: \(report.note ?? "")") }
        #if canImport(AVFAudio) && (os(iOS) || os(visionOS) || os(tvOS))
            if report.applied { observeInterruptions() }
        #endif
        audioSession = report
        return report
    }

    /// Configures the audio session from the reference's JSON (`initializeAudioSession(jsonData:)`).
    /// - Throws: the parse errors of ``AudioSessionConfiguration/init(parsing:)``.
    @discardableResult
    public func initializeAudioSession(json: String) throws(ParleyError) -> AudioSessionReport {
        let configuration = try record { () throws(ParleyError) in try AudioSessionConfiguration(parsing: json) }
        return initializeAudioSession(configuration)
    }

    /// Configures the audio session from a JSON file (`initializeAudioSession(localFileURL:)`; a relative name is
    /// resolved in the `FC_VOICEFLOW` folder).
    @discardableResult
    public func initializeAudioSession(file: String) throws(ParleyError) -> AudioSessionReport {
        try initializeAudioSession(json: try readResource(file, .voiceFlow))
    }

    #if canImport(AVFAudio) && (os(iOS) || os(visionOS) || os(tvOS))
        private var interruptionObserver: (any NSObjectProtocol)?

        private func observeInterruptions() {
            guard interruptionObserver == nil else { return }
            interruptionObserver = NotificationCenter.default.addObserver(
                forName: AVAudioSession.interruptionNotification, object: nil, queue: nil
            ) { [weak self] notification in
                let raw = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt
                let began = raw.flatMap(AVAudioSession.InterruptionType.init(rawValue:)) == .began
                Task { [weak self] in
                    if began {
                        try? await self?.audioInterruptionBegan()
                    } else {
                        try? await self?.audioInterruptionEnded()
                    }
                }
            }
        }
    #endif

    /// The platform's audio session was interrupted (`AVAudioSession.interruptionNotification` `.began`, routed
    /// here by ``initializeAudioSession(_:)``; call it yourself elsewhere, or to test a flow's
    /// `audioInterruptTransitionParams`). Media in progress is cancelled (its `NME_STOPPED` is delivered), then
    /// `MediaEvent(id, id, NMF_AUDIO_SESSION, NME_INTERRUPTION_BEGAN)`; the flow waits for
    /// ``audioInterruptionEnded()``.
    public func audioInterruptionBegan() throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        interruptionPending = true
        interruptionEndPending = false
        cancelMedia?()
        resumeWaiter?.resume()
        resumeWaiter = nil
    }

    /// The audio-session interruption ended: the module's `audioInterruptTransitionParams` (or the flow-wide
    /// ones of a `process` module) say how the flow goes on — `resume` (a prompt plays again from where it stopped,
    /// less `rewindCurrentAudioSegmentMs`; listening and recording start again), `repeat` (the module runs again),
    /// `goto` (`goToVoiceFlowModuleID`, default `VF_END`) or `end` (the default: ``run()`` returns
    /// ``FinishReason/interrupted``).
    public func audioInterruptionEnded() throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        if let interruptionWaiter {
            self.interruptionWaiter = nil
            interruptionWaiter.resume()
        } else if interruptionPending || engine?.isInterrupted == true {
            interruptionEndPending = true
        } else {
            throw recorded(ParleyError(.invalidState, "the audio session is not interrupted"))
        }
    }

    // MARK: Loading

    /// Loads a voice flow from JSON text, replacing the loaded one.
    /// - Throws: ``ParleyError`` when it does not parse, or the ``Validator`` finds errors (warnings pass).
    public func loadVoiceFlow(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in
            let flow = try VoiceFlow(parsing: json)
            if let error = Validator.validate(flow).first(where: { $0.severity == .error }) { throw error.error }
            self.flow = flow
        }
    }

    /// Loads a voice-flow file (a relative name is resolved in the `FC_VOICEFLOW` folder, language folder first).
    public func loadVoiceFlow(file: String) throws(ParleyError) {
        try loadVoiceFlow(json: try readResource(file, .voiceFlow))
    }

    /// Loads audio prompt modules from JSON text; they are added to those loaded before (same id: replaced).
    public func loadPrompts(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in
            var library = prompts
            try library.merge(parsing: json)
            if let error = Validator.validate(library).first(where: { $0.severity == .error }) { throw error.error }
            prompts = library
        }
    }

    /// Loads an audio prompt module file (resolved in the `FC_VOICEFLOW` folder).
    public func loadPrompts(file: String) throws(ParleyError) {
        try loadPrompts(json: try readResource(file, .voiceFlow))
    }

    /// Loads an Audio-to-Text map from JSON text, adding to the loaded entries.
    public func loadAudioToTextMap(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in try audioToText.merge(parsing: json) }
    }

    /// Loads an Audio-to-Text map file (resolved in the `FC_VOICEFLOW` folder).
    public func loadAudioToTextMap(file: String) throws(ParleyError) {
        try loadAudioToTextMap(json: try readResource(file, .voiceFlow))
    }

    /// Validates the loaded flow against the loaded prompt modules.
    public func validate() -> [Diagnostic] {
        guard let flow else { return [] }
        return Validator.validate(flow, prompts: prompts)
    }

    /// Sets the folder of a file category (`setMediaResourceLocation`). For
    /// ``ResourceLocations/FileCategory/recordAudio``
    /// the folder is created.
    public func setResourceLocation(_ folder: URL, for category: ResourceLocations.FileCategory) throws(ParleyError) {
        if category == .recordAudio {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw recorded(ParleyError(.fileNotFound, "cannot create \(folder.path)", underlying: error))
            }
        }
        locations.folders[category] = folder
    }

    /// Sets the language folder (default `en-US`).
    public func setLanguageFolder(_ name: String) {
        locations.languageFolder = name
    }

    /// The resource locations.
    public var resourceLocations: ResourceLocations { locations }

    /// Sets (or clears) the delegate.
    public func setDelegate(_ delegate: (any VoiceFlowDelegate)?) {
        self.delegate = delegate
    }

    // MARK: Speech synthesis

    /// Adds speech-synthesis aliases.
    public func loadAliases(_ aliases: [String: String]) {
        pronunciations.aliases.merge(aliases) { _, new in new }
    }

    /// Adds the aliases of a `word: alias` file (`#` lines ignored; resolved in `FC_SPEECH_SYNTHESIS`).
    public func loadAliases(file: String) throws(ParleyError) {
        let text = try readResource(file, .speechSynthesis)
        try record { () throws(ParleyError) in try pronunciations.loadAliases(from: text) }
    }

    /// Adds IPA phonemes.
    public func loadPhonemes(_ phonemes: [String: String]) {
        pronunciations.phonemes.merge(phonemes) { _, new in new }
    }

    /// Adds the phonemes of a `word: ipa` file (`#` lines ignored; resolved in `FC_SPEECH_SYNTHESIS`).
    public func loadPhonemes(file: String) throws(ParleyError) {
        let text = try readResource(file, .speechSynthesis)
        try record { () throws(ParleyError) in try pronunciations.loadPhonemes(from: text) }
    }

    /// The loaded aliases and phonemes.
    public var loadedPronunciations: Pronunciations { pronunciations }

    /// The synthesizer's voices (`getSSVoices`); empty without a synthesizer.
    public func voices() async throws(ParleyError) -> [SynthesisVoice] {
        guard let synthesizer else { return [] }
        return try await synthesizer.voices()
    }

    /// Selects the voice text is spoken with, by identifier.
    public func selectVoice(_ identifier: String) {
        selectedVoices[synthesizer?.engine ?? ""] = identifier
    }

    /// The selected voice (`getSelectedSSVoice`), or `nil` when none was selected or it is not in the list.
    public func selectedVoice() async throws(ParleyError) -> SynthesisVoice? {
        guard let identifier = selectedVoices[synthesizer?.engine ?? ""] else { return nil }
        return try await voices().first { $0.identifier == identifier }
    }

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
    private func log(_ level: Logger.Level, _ module: String?, _ message: String) {
        var logger = logger
        if let module {
            logger.logLevel = logLevel(for: module)
            logger[metadataKey: "module"] = "\(module)"
        }
        logger.log(level: level, "\(message)")
    }

    // MARK: Runtime fields and intents

    /// Sets a runtime field (`setVoiceflowRuntimeField`).
    public func setRuntimeField(_ name: String, _ value: JSONValue) {
        if engine != nil { engine?.fields[name] = value } else { storedFields[name] = value }
    }

    /// A runtime field's value (`getVoiceflowRuntimeField`).
    public func runtimeField(_ name: String) -> JSONValue? {
        engine?.fields[name] ?? (engine == nil ? storedFields[name] : nil)
    }

    /// Removes a runtime field (`resetVoiceflowRuntimeField`); returns whether it was set.
    @discardableResult
    public func resetRuntimeField(_ name: String) -> Bool {
        guard engine != nil else { return storedFields.reset(name) }
        return engine?.fields.reset(name) ?? false
    }

    /// Every runtime field.
    public var runtimeFields: RuntimeFields { engine?.fields ?? storedFields }

    /// Sets the user intent (`setUserIntent`).
    public func setUserIntent(_ intent: String) {
        if engine != nil { engine?.userIntent = intent } else { storedIntent = intent }
    }

    /// Clears the user intent (`resetUserIntent`).
    public func resetUserIntent() {
        if engine != nil { engine?.userIntent = nil } else { storedIntent = nil }
    }

    /// The user intent.
    public var userIntent: String? { engine.map(\.userIntent) ?? storedIntent }

    /// Queues a prompt module for the running `audioListener` (`loadAudioListenerPrompt`).
    /// - Returns: `false` when no `audioListener` module is running.
    @discardableResult
    public func loadAudioListenerPrompt(_ promptID: String) -> Bool {
        engine?.loadListenerPrompt(promptID) ?? false
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

    private func requestPermission(_ permission: Permission, granted: MediaEvent, denied: MediaEvent) async
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

    private func requestControl(_ input: Engine.Input) {
        control = input
        cancelMedia?()
        resumeWaiter?.resume()
        resumeWaiter = nil
        interruptionWaiter?.resume()
        interruptionWaiter = nil
    }

    private func takeControl() -> Engine.Input? {
        defer { control = nil }
        if control != nil { stopListening() }
        return control
    }

    private func perform<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await work() }
        cancelMedia = { task.cancel() }
        // What asked to cancel the media before it started: stop at once.
        if bargeInPending || interruptionPending || control != nil { task.cancel() }
        let result = await task.value
        cancelMedia = nil
        return result
    }

    // MARK: Live listening and barge-in

    private func startListening(_ plan: RecognitionPlan) {
        guard let live else { return }
        stopListening()
        let listening = LiveListening(plan: plan) { [weak self] in await self?.callerSpoke() }
        self.listening = listening
        speechHeard = false
        bargeInPending = false
        Task { await listening.start(recognizer: live.recognizer, audio: live.callerAudio) }
    }

    private func stopListening() {
        guard let listening else { return }
        self.listening = nil
        Task { await listening.cancel() }
    }

    /// The listening heard the caller start speaking: a prompt that allows barge-in stops.
    private func callerSpoke() {
        speechHeard = true
        if playingBargeIn {
            bargeInPending = true
            cancelMedia?()
        }
    }

    private func awaitListening() async -> Engine.Input? {
        guard let listening else {
            return .recognitionFailed(
                ParleyError(.internalFailure, "the engine waits for a listening that never began"))
        }
        await listening.arm()
        guard let outcome = await perform({ await listening.next() }) else { return nil }
        switch outcome {
        case .partial(let text):
            return .partial(text)
        case .final(let text):
            self.listening = nil
            return .recognized(.hypothesis(text))
        case .noInput:
            self.listening = nil
            return .recognized(.noInput)
        case .failed(let error):
            self.listening = nil
            return .recognitionFailed(error)
        }
    }

    private func playSegment(_ segment: PlaybackSegment) async -> Engine.Input? {
        guard let live else { return await perform(play(segment)) }
        let start = segment.startPosition.map { Duration.milliseconds($0) } ?? .zero
        lastStoppedAt = start
        if segment.bargeIn, listening != nil, speechHeard {
            // The caller spoke before this prompt began (during one that did not allow barge-in).
            return .bargeIn(playedTo: start)
        }
        playingBargeIn = segment.bargeIn && listening != nil
        let outcome = await perform(livePlay(segment, live))
        playingBargeIn = false
        let pending = bargeInPending
        bargeInPending = false
        switch outcome {
        case .ended:
            return .segmentEnded
        case .failed(let error):
            return .segmentFailed(error)
        case .stopped(let position):
            lastStoppedAt = position
            return pending ? .bargeIn(playedTo: position) : nil
        }
    }

    private func deliver(_ event: VoiceFlowEvent) async {
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

    // MARK: Media

    /// How a live playback ended.
    private enum PlayOutcome: Sendable {
        case ended
        case failed(ParleyError)
        /// Cancelled this far into the segment's audio.
        case stopped(Duration)
    }

    private func livePlay(_ segment: PlaybackSegment, _ live: LiveSpeech) -> @Sendable () async -> PlayOutcome {
        let locations = self.locations
        let pronunciations = self.pronunciations
        let voice = selectedVoices[live.synthesizer.engine]
        return {
            let progress = PlaybackProgress()
            do throws(ParleyError) {
                let audio: SpeechStream<AudioBuffer>
                switch segment.type {
                case .audioFile:
                    guard let name = segment.audioFile, let url = locations.find(name, in: .playAudio) else {
                        throw ParleyError(.audioFileMissing, "audio file \(segment.audioFile ?? "") not found")
                    }
                    audio = live.audioFiles(url)
                default:
                    var text = segment.text ?? ""
                    if segment.type == .textFile {
                        guard let name = segment.textFile, let url = locations.find(name, in: .playText) else {
                            throw ParleyError(.fileNotFound, "text file \(segment.textFile ?? "") not found")
                        }
                        text = try readText(url)
                    }
                    audio = live.synthesizer.stream(
                        SynthesisRequest(
                            text: text, isSSML: segment.isSSML, voice: voice, language: segment.language,
                            pronunciations: pronunciations))
                }
                let start = Duration.milliseconds(segment.startPosition ?? 0)
                try await live.output.play(Self.paced(audio, from: start, pacing: live.pacing, progress: progress))
                if Task.isCancelled { return .stopped(await progress.position) }
                return .ended
            } catch {
                if Task.isCancelled || error.code == .speechCancelled { return .stopped(await progress.position) }
                return .failed(error)
            }
        }
    }

    /// `audio` from `start` on, handed out in paced audio time; `progress` follows the position handed out.
    private static func paced(
        _ audio: SpeechStream<AudioBuffer>, from start: Duration, pacing: AudioPacing, progress: PlaybackProgress
    ) -> SpeechStream<AudioBuffer> {
        let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
        let task = Task {
            let timer = pacing.start()
            var position = Duration.zero
            await progress.set(start)
            do throws(ParleyError) {
                pieces: for try await whole in audio {
                    for var chunk in whole.pieces() {
                        let end = position + chunk.duration
                        defer { position = end }
                        if end <= start { continue }
                        if position < start {
                            let skip = AudioBuffer.samples(in: start - position, sampleRate: chunk.sampleRate)
                            chunk.samples.removeFirst(min(skip, chunk.samples.count))
                        }
                        // Hand out up to 100 ms ahead of real time, so a player never runs dry.
                        await timer.wait(until: max(.zero, end - start - .milliseconds(100)))
                        if Task.isCancelled { break pieces }
                        continuation.yield(chunk)
                        await progress.set(end)
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { task.cancel() }
        return stream
    }

    private func play(_ segment: PlaybackSegment) -> @Sendable () async -> Engine.Input {
        let player = self.player ?? SilentPlayer()
        let locations = self.locations
        let pronunciations = self.pronunciations
        let voice = selectedVoices[synthesizer?.engine ?? ""]
        return {
            do throws(ParleyError) {
                switch segment.type {
                case .audioFile:
                    guard let name = segment.audioFile, let url = locations.find(name, in: .playAudio) else {
                        throw ParleyError(.audioFileMissing, "audio file \(segment.audioFile ?? "") not found")
                    }
                    try await player.play(.file(url))
                case .textFile:
                    guard let name = segment.textFile, let url = locations.find(name, in: .playText) else {
                        throw ParleyError(.fileNotFound, "text file \(segment.textFile ?? "") not found")
                    }
                    let text = try readText(url)
                    try await player.play(
                        .text(
                            SynthesisRequest(
                                text: text, isSSML: segment.isSSML, voice: voice, language: segment.language,
                                pronunciations: pronunciations)))
                default:
                    try await player.play(
                        .text(
                            SynthesisRequest(
                                text: segment.text ?? "", isSSML: segment.isSSML, voice: voice,
                                language: segment.language, pronunciations: pronunciations)))
                }
                return .segmentEnded
            } catch {
                return .segmentFailed(error)
            }
        }
    }

    private func recognize(_ plan: RecognitionPlan) -> @Sendable () async -> Engine.Input {
        let recognizer = self.recognizer
        let recorder = self.recorder
        return {
            do throws(ParleyError) {
                guard let recognizer else {
                    throw ParleyError(.speechEngineUnavailable, "the runner has no recognizer")
                }
                var request = RecognitionRequest(
                    taskID: plan.moduleID, locale: plan.locale, phrases: plan.phrases,
                    noInputTimeout: plan.noInputTimeout, partialResults: plan.partialResults)
                if let recorder {
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "parley-utterance-\(UUID().uuidString).wav")
                    defer { try? FileManager.default.removeItem(at: file) }
                    let recording = try await recorder.record(
                        RecordingRequest(file: file, maxPreSpeechSilence: plan.noInputTimeout))
                    guard let captured = recording.file else { return .recognized(.noInput) }
                    request.audioFile = captured
                    return .recognized(try await recognizer.recognize(request))
                }
                return .recognized(try await recognizer.recognize(request))
            } catch {
                return .recognitionFailed(error)
            }
        }
    }

    private func recordAudio(_ plan: RecordingPlan) -> @Sendable () async -> Engine.Input {
        let recorder = self.recorder
        let locations = self.locations
        let callerAudio = live?.callerAudio
        return {
            do throws(ParleyError) {
                let file: URL
                do {
                    file = try locations.recordingURL(for: plan.fileName)
                } catch {
                    throw ParleyError(.fileNotFound, "cannot create the record folder", underlying: error)
                }
                if recorder == nil, let callerAudio {
                    return .recorded(
                        try await LiveRecording.record(plan, from: try await callerAudio.nextTurn(), to: file))
                }
                guard let recorder else { throw ParleyError(.speechEngineUnavailable, "the runner has no recorder") }
                let result = try await recorder.record(
                    RecordingRequest(
                        file: file, maxLength: plan.maxLength, maxPreSpeechSilence: plan.maxPreSpeechSilence,
                        maxPostSpeechSilence: plan.maxPostSpeechSilence))
                return .recorded(result)
            } catch {
                return .recordingFailed(error)
            }
        }
    }

    // MARK: Helpers

    private func readResource(_ name: String, _ category: ResourceLocations.FileCategory) throws(ParleyError) -> String
    {
        guard let url = locations.find(name, in: category) else {
            let tried = locations.candidates(for: name, in: category).map(\.path).joined(separator: ", ")
            throw recorded(ParleyError(.fileNotFound, "\(name) not found (tried \(tried))"))
        }
        return try record { () throws(ParleyError) in try readText(url) }
    }

    private func recorded(_ error: ParleyError) -> ParleyError {
        lastError = error
        log(.error, nil, error.description)
        return error
    }

    private func record<T>(_ body: () throws(ParleyError) -> T) throws(ParleyError) -> T {
        do {
            return try body()
        } catch {
            throw recorded(error)
        }
    }
}

/// How far a live playback has handed out its audio.
private actor PlaybackProgress {
    private(set) var position = Duration.zero

    func set(_ position: Duration) {
        self.position = position
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
