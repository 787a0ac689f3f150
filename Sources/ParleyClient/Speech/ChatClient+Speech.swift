import ParleySpeech

extension ChatClient {
    // MARK: Speech input (Oracle's startRecording, stopRecording, isRecording)

    /// Where speech input is.
    public var recordingState: RecordingState { speech.machine.state }

    /// Whether the microphone is on or being asked for (Oracle's `isRecording()`): ``stopRecording()`` would stop it.
    public var isRecording: Bool {
        recordingState == .requestingPermission || recordingState == .recording
    }

    /// Starts listening to the user (Oracle's `startRecording()`, the microphone button).
    ///
    /// Asks for the microphone (and the speech service's own permissions), opens the microphone, and streams it to
    /// the speech service in the configured `speechLocale`. Partial texts arrive as
    /// ``ChatEvent/speechResponseReceived(text:final:)`` (the listener's `onSpeechResponseReceived(data:final:)`),
    /// the microphone's level as ``ChatEvent/audioLevel(_:)`` (`onAudioReceived`). The final text is sent as a
    /// message with `sdkMetadata.speechId` when `enableAutoSendSpeechResponse` is on; either way it is reported as
    /// ``ChatEvent/speechRecognized(_:sent:)``. The recognizer ends the utterance when the user stops speaking;
    /// ``stopRecording()`` ends it sooner.
    /// - Throws: ``ParleyError/Code/featureDisabled`` without `enableSpeechRecognition`;
    ///   ``ParleyError/Code/speechUnsupportedLocale`` when the service does not recognise `speechLocale`;
    ///   `speech.permissionDenied` when a permission is refused (also reported as ``ChatEvent/speechFailed(_:)``);
    ///   ``ParleyError/Code/speechAlreadyRecording`` when speech input is already on.
    public func startRecording() async throws(ParleyError) {
        try checkInitialized()
        guard configuration.enableSpeechRecognition else {
            throw ParleyError(.featureDisabled, "speech input is switched off (enableSpeechRecognition is false)")
        }
        guard recordingState == .idle else {
            throw ParleyError(.speechAlreadyRecording, "speech input is \(recordingState.rawValue)")
        }
        let service = speechService
        let locale = configuration.speechLocale
        guard await service.recognizes(locale) else {
            let error = ParleyError(
                .speechUnsupportedLocale,
                "the speech service does not recognise \(locale); it recognises "
                    + (await service.recognitionLocales()).joined(separator: ", "))
            emit(.speechFailed(error))
            throw error
        }
        if case .refused(let error) = recording(.start) { throw error }
        let attempt = speech.machine.attempt
        for permission in [Permission.microphone] + service.recognitionPermissions {
            guard case .denied(let reason) = await speechSetup.permissions.request(permission) else { continue }
            // Not when the user gave up meanwhile (a stop while the permission was asked).
            guard speech.machine.attempt == attempt, recordingState == .requestingPermission else { return }
            let error = ParleyError(.speechPermissionDenied, "\(permission.rawValue) permission denied: \(reason)")
            emit(.speechFailed(error))
            recording(.permissionDenied(attempt: attempt))
            throw error
        }
        let context: SpeechContext
        do {
            context = try await speechContext()
        } catch {
            emit(.speechFailed(error))
            recording(.cancel)
            throw error
        }
        // The audio session allows recording before the microphone opens (AVAudioSession on iOS).
        let session = speechSetup.audioSession
        do {
            try await session.begin(.recording)
        } catch {
            emit(.speechFailed(error))
            recording(.cancel)
            throw error
        }
        observeAudioSession()
        guard case .perform(let actions) = recording(.permissionGranted(attempt: attempt)),
            actions.contains(.startCapture(attempt: attempt))
        else {
            await session.end(.recording)
            return  // stopped while the permission or the session was asked
        }
        speech.holdsRecordingSession = true
        startCapture(attempt: attempt, service: service, locale: locale, context: context)
    }

    /// Stops listening (Oracle's `stopRecording()`): the microphone closes and the recognizer's final result for
    /// what was said follows. Does nothing when not recording.
    public func stopRecording() async {
        recording(.stop)
    }

    /// Stops listening and drops what was said: no result follows (the speech popup's `odais_speech_cancel`).
    public func cancelRecording() async {
        recording(.cancel)
    }

    /// Sets the locale of the user's speech (Oracle's `setSpeechLocale`), such as `fr-fr`.
    /// - Returns: Whether the speech service recognises it; ``startRecording()`` fails with
    ///   ``ParleyError/Code/speechUnsupportedLocale`` while it does not.
    @discardableResult
    public func setSpeechLocale(_ locale: String) async -> Bool {
        configuration.speechLocale = locale
        return await speechService.recognizes(locale)
    }

    // MARK: Reading aloud (Oracle's enableSpeechSynthesis, stopSpeech, speak)

    /// Whether reading aloud is muted: `initSpeechSynthesisMuted` until ``setSpeechSynthesisMuted(_:)``.
    public var isSpeechSynthesisMuted: Bool {
        speech.muted ?? configuration.initSpeechSynthesisMuted
    }

    /// Mutes or unmutes reading aloud; muting stops what is being read. Reports
    /// ``ChatEvent/speechSynthesisMuted(_:)``.
    public func setSpeechSynthesisMuted(_ muted: Bool) async {
        speech.muted = muted
        if muted { await stopSpeech() }
        emit(.speechSynthesisMuted(muted))
    }

    /// Reads `text` aloud (Oracle's `speak(text:)`), through the `ttsService` or the built-in reader, whatever
    /// the mute says.
    public func speak(text: String) async {
        observeAudioSession()
        await currentTTSService().speak(text: text)
    }

    /// Stops reading aloud and forgets what was queued (Oracle's `stopSpeech()`).
    public func stopSpeech() async {
        await currentTTSService().stopSpeech()
    }

    /// Whether something is being read aloud.
    public func isSpeaking() async -> Bool {
        await currentTTSService().isSpeaking()
    }

    /// Waits until every message queued for reading aloud has been handed to the TTS service and — with the built-in
    /// reader — read (or has failed): before a command-line chat quits, say. With an app's `ttsService` it returns
    /// once the texts are handed over.
    public func finishSpeaking() async {
        if speech.pendingReads > 0 {
            await withCheckedContinuation { speech.readWaiters.append($0) }
        }
        if configuration.ttsService == nil { await speech.reader?.waitUntilDone() }
    }

    /// One text was handed to the TTS service.
    private func handedOver() {
        speech.pendingReads -= 1
        guard speech.pendingReads == 0 else { return }
        speech.readWaiters.forEach { $0.resume() }
        speech.readWaiters = []
    }

    // MARK: Inside

    /// The speech service: the setup's, or the chat server's.
    var speechService: any SpeechService {
        speechSetup.service ?? ServerSpeechService(url: configuration.url)
    }

    /// Who speech requests are for.
    func speechContext() async throws(ParleyError) -> SpeechContext {
        let token = try await currentToken()
        return SpeechContext(
            channelId: identity.channelId, userId: identity.userId, token: token,
            sessionSecret: configuration.sessionSecret)
    }

    /// Feeds the machine an event and performs what it says.
    @discardableResult
    func recording(_ event: RecordingStateMachine.Event) -> RecordingStateMachine.Transition {
        let transition = speech.machine.handle(event)
        guard case .perform(let actions) = transition else { return transition }
        for action in actions {
            switch action {
            case .requestPermission, .startCapture:
                break  // startRecording() does these itself, between its awaits
            case .finishAudio:
                speech.capture?.cancel()
                speech.capture = nil
                speech.audio?.finish()
                speech.audio = nil
                releaseRecordingSession()
            case .cancelCapture:
                speech.capture?.cancel()
                speech.recognition?.cancel()
                speech.audio?.finish()
                speech.capture = nil
                speech.recognition = nil
                speech.audio = nil
                releaseRecordingSession()
            case .report(let state):
                emit(.recordingChanged(state))
            }
        }
        return transition
    }

    /// The microphone is closed: the audio session is given back (when read-aloud does not hold it).
    private func releaseRecordingSession() {
        guard speech.holdsRecordingSession else { return }
        speech.holdsRecordingSession = false
        let session = speechSetup.audioSession
        Task { await session.end(.recording) }
    }

    /// Watches the audio session's interruptions and route changes, once, while the client lives.
    private func observeAudioSession() {
        guard speech.sessionEvents == nil else { return }
        let events = speechSetup.audioSession.events()
        speech.sessionEvents = Task { [weak self] in
            for await event in events {
                await self?.audioSessionChanged(event)
            }
        }
    }

    /// Does what ``AudioSessionEvent/response`` says: an interruption (a call) or a lost headset stops the
    /// microphone (what was said so far is still recognised) and read-aloud.
    func audioSessionChanged(_ event: AudioSessionEvent) async {
        let response = event.response
        if response.contains(.stopListening), isRecording { recording(.stop) }
        if response.contains(.stopSpeaking) { await stopSpeech() }
    }

    private func startCapture(attempt: Int, service: any SpeechService, locale: String, context: SpeechContext) {
        let (audio, continuation) = SpeechStream<AudioBuffer>.makeStream()
        speech.audio = continuation
        let microphone = speechSetup.microphone
        speech.capture = Task { [weak self] in
            do throws(ParleyError) {
                for try await frame in microphone.frames() {
                    if Task.isCancelled { break }
                    continuation.yield(frame)
                    await self?.heard(frame, attempt: attempt)
                }
            } catch {
                if !Task.isCancelled { await self?.captureFailed(error, attempt: attempt) }
            }
            continuation.finish()
            if !Task.isCancelled { await self?.recording(.audioEnded(attempt: attempt)) }
        }
        let updates = service.recognize(audio, locale: locale, context: context)
        speech.recognition = Task { [weak self] in
            do throws(ParleyError) {
                for try await update in updates {
                    await self?.recognized(update, attempt: attempt)
                }
            } catch {
                if !Task.isCancelled { await self?.recognitionFailed(error, attempt: attempt) }
            }
            await self?.recording(.recognitionEnded(attempt: attempt))
        }
    }

    private func heard(_ frame: AudioBuffer, attempt: Int) {
        guard speech.machine.attempt == attempt, recordingState == .recording else { return }
        emit(.audioLevel(AudioLevel(frame)))
    }

    private func captureFailed(_ error: ParleyError, attempt: Int) {
        guard speech.machine.attempt == attempt, recordingState == .recording else { return }
        emit(.speechFailed(error))
        recording(.cancel)
    }

    private func recognitionFailed(_ error: ParleyError, attempt: Int) {
        guard speech.machine.attempt == attempt, recordingState != .idle else { return }
        emit(.speechFailed(error))
    }

    private func recognized(_ update: SpeechRecognitionUpdate, attempt: Int) async {
        guard speech.machine.attempt == attempt, recordingState != .idle else { return }
        switch update {
        case .partial(let text):
            emit(.speechResponseReceived(text: text, final: false))
        case .final(let result):
            emit(.speechResponseReceived(text: result.text, final: true))
            // The utterance is over: close the microphone now rather than when the recognizer's stream ends.
            recording(.stop)
            guard configuration.enableAutoSendSpeechResponse else {
                return emit(.speechRecognized(result, sent: false))
            }
            var message = userMessage(.text(result.text))
            message.sdkMetadata = message.sdkMetadata ?? SDKMetadata()
            message.sdkMetadata?.speechId = result.requestId
            do {
                _ = try await send(message, record: true)
                emit(.speechRecognized(result, sent: true))
            } catch {
                emit(.speechFailed(error))
            }
        case .noSpeech:
            emit(.speechFailed(ParleyError(.speechNoSpeech, "no speech was heard")))
        case .tooMuchSpeech:
            emit(.speechFailed(ParleyError(.speechTooMuchSpeech, "the utterance was too long")))
        }
    }

    /// The app's `ttsService`, or the built-in reader over the speech service and the speaker.
    func currentTTSService() -> any TTSService {
        if let custom = configuration.ttsService { return custom }
        if let reader = speech.reader { return reader }
        let reader = SpeechReader(
            service: speechService, speaker: speechSetup.speaker,
            preferences: configuration.speechSynthesisVoicePreferences,
            context: { [weak self] in
                guard let self else { throw CancellationError() }
                return try await self.speechContext()
            },
            failure: { [weak self] error in await self?.emit(.speechSynthesisFailed(error)) },
            audioSession: speechSetup.audioSession)
        speech.reader = reader
        return reader
    }

    /// Reads a message from the skill or an agent aloud, when `enableSpeechSynthesis` is on and not muted.
    func readAloud(_ message: ChatMessage) {
        guard configuration.enableSpeechSynthesis, !isSpeechSynthesisMuted, message.sender != .user,
            let text = Self.spokenText(message.payload)
        else { return }
        if speech.readQueue == nil {
            observeAudioSession()
            let (texts, continuation) = AsyncStream.makeStream(of: String.self)
            speech.readQueue = continuation
            // One reader of the queue, so texts are read in the order they came.
            Task { [weak self] in
                for await text in texts {
                    guard let self else { return }
                    let tts = await self.currentTTSService()
                    if let reader = tts as? SpeechReader {
                        await reader.setPreferences(await self.configuration.speechSynthesisVoicePreferences)
                    }
                    await tts.speak(text: text)
                    await self.handedOver()
                }
            }
        }
        speech.pendingReads += 1
        speech.readQueue?.yield(text)
    }

    /// What is read aloud for a payload: its text; a card message as its cards' titles and descriptions.
    static func spokenText(_ payload: MessagePayload) -> String? {
        switch payload.content {
        case .card(let cards):
            let parts = cards.cards.flatMap { [$0.title] + [$0.description].compactMap { $0 } }
            let text = parts.filter { !$0.isEmpty }.joined(separator: ". ")
            return text.isEmpty ? nil : text
        case .status, .sessionClosed, .textStream:
            return nil
        default:
            guard let text = payload.text, !text.isEmpty else { return nil }
            return text
        }
    }

    /// Stops speech input and reading aloud (``destroy()``).
    func stopAllSpeech() async {
        recording(.cancel)
        speech.sessionEvents?.cancel()
        speech.sessionEvents = nil
        speech.readQueue?.finish()
        speech.readQueue = nil
        speech.pendingReads = 0
        speech.readWaiters.forEach { $0.resume() }
        speech.readWaiters = []
        await currentTTSService().stopSpeech()
    }
}
