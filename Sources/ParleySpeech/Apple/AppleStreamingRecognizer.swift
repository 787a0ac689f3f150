// Streaming recognition with SFSpeechRecognizer. Never compiled on Linux, where this package is developed: kept small
// and on long-standing API (iOS 17 / macOS 14).
#if canImport(Speech) && canImport(AVFoundation)
    @preconcurrency import AVFoundation
    public import ParleyCore
    @preconcurrency import Speech

    /// Streaming recognition with `SFSpeechRecognizer` and `SFSpeechAudioBufferRecognitionRequest`.
    ///
    /// Apple's recognizer gives partial and final results but does not decide on its own when the speaker has
    /// finished, so the session runs Parley's energy ``VoiceActivityDetector`` (its hangover is the request's
    /// ``StreamingRecognitionRequest/endSilence``) and ends the audio when speech stops; the final follows.
    /// Phrases become `contextualStrings` (hints, not a grammar). Needs the speech-recognition permission
    /// (``SystemPermissionSource``).
    public struct AppleStreamingRecognizer: StreamingRecognizer {
        /// `apple`.
        public let engine = "apple"
        /// The voice-activity settings; the hangover is replaced by each request's `endSilence`.
        public var voiceActivity: VoiceActivityParameters

        /// Creates a recognizer.
        public init(voiceActivity: VoiceActivityParameters = VoiceActivityParameters()) {
            self.voiceActivity = voiceActivity
        }

        /// The locales `SFSpeechRecognizer` supports.
        public func locales() async -> [String] {
            SFSpeechRecognizer.supportedLocales().map { $0.identifier(.bcp47) }.sorted()
        }

        /// Starts a recognition task.
        /// - Throws: `speech.permissionDenied` without the speech-recognition permission;
        ///   `speech.engineUnavailable` when there is no recognizer for the locale or it is unavailable now.
        public func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError)
            -> any RecognitionSession
        {
            guard SFSpeechRecognizer.authorizationStatus() == .authorized else {
                throw ParleyError(.speechPermissionDenied, "speech recognition is not authorized for this app")
            }
            guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: request.locale)),
                recognizer.isAvailable
            else {
                throw ParleyError(.speechEngineUnavailable, "no speech recognizer available for \(request.locale)")
            }
            let session = AppleRecognitionSession(
                request: request,
                detector: VoiceActivityDetector(
                    parameters: voiceActivity.withHangover(
                        request.endSilence, sampleRate: AudioBuffer.recognitionSampleRate)))
            await session.start(with: recognizer)
            return session
        }
    }

    /// One `SFSpeechRecognitionTask`, fed and endpointed by the actor.
    actor AppleRecognitionSession: RecognitionSession {
        /// What the task's callback hands over, converted to values on the callback's thread.
        enum Update: Sendable {
            case result(RecognitionResult, isFinal: Bool)
            case failure(ParleyError)
        }

        nonisolated let events: SpeechStream<RecognitionEvent>
        private let continuation: SpeechStream<RecognitionEvent>.Continuation
        private let request: StreamingRecognitionRequest
        private let audioRequest = SFSpeechAudioBufferRecognitionRequest()
        private var task: SFSpeechRecognitionTask?
        private var detector: VoiceActivityDetector
        private var endpointer: Endpointer
        private var framer = PCMFramer()
        private var latest: RecognitionResult?
        private var tooMuchSpeech = false
        private var ended = false

        init(request: StreamingRecognitionRequest, detector: VoiceActivityDetector) {
            self.request = request
            self.detector = detector
            endpointer = Endpointer(noSpeechTimeout: request.noSpeechTimeout, maxSpeech: request.maxSpeech)
            (events, continuation) = SpeechStream<RecognitionEvent>.makeStream()
            audioRequest.shouldReportPartialResults = true
            audioRequest.contextualStrings = request.phrases
        }

        /// Starts the task; its callbacks are handled in order.
        func start(with recognizer: SFSpeechRecognizer) {
            let (updates, sink) = AsyncStream.makeStream(of: Update.self)
            let maxAlternatives = request.maxAlternatives
            task = recognizer.recognitionTask(with: audioRequest) { result, error in
                if let result {
                    sink.yield(.result(Self.convert(result, maxAlternatives: maxAlternatives), isFinal: result.isFinal))
                    if result.isFinal { sink.finish() }
                } else if let error {
                    sink.yield(.failure(ParleyError(.speechEngineFailed, "\(error)", underlying: error)))
                    sink.finish()
                }
            }
            Task { [weak self] in
                for await update in updates { await self?.handle(update) }
            }
            continuation.onTermination { [weak self] in
                guard let self else { return }
                Task { await self.cancel() }
            }
        }

        func feed(_ audio: AudioBuffer) throws(ParleyError) {
            guard audio.sampleRate == AudioBuffer.recognitionSampleRate else {
                throw ParleyError(
                    .badAudio,
                    "recognition takes \(AudioBuffer.recognitionSampleRate) Hz audio, not \(audio.sampleRate) Hz")
            }
            process(audio.samples)
        }

        func feed(bytes: [UInt8]) throws(ParleyError) {
            process(framer.append(bytes))
        }

        func finishAudio() {
            perform(endpointer.audioDone())
        }

        func cancel() {
            endpointer.cancel()
            task?.cancel()
            finish()
        }

        private func process(_ samples: [Int16]) {
            guard !ended, endpointer.state != .ended, !samples.isEmpty else { return }
            if let buffer = AppleAudio.pcmBuffer(AudioBuffer(samples: samples)) { audioRequest.append(buffer) }
            _ = detector.process(samples)
            perform(endpointer.audio(count: samples.count, inSpeech: detector.isSpeaking))
        }

        private func perform(_ actions: [Endpointer.Action]) {
            for action in actions {
                switch action {
                case .speechStarted(let time):
                    continuation.yield(.speechStarted(at: time))
                case .noSpeech(let time):
                    continuation.yield(.noSpeech(after: time))
                    task?.cancel()
                    finish()
                case .endOfSpeech:
                    // The final result follows from the task.
                    audioRequest.endAudio()
                case .tooMuchSpeech:
                    tooMuchSpeech = true
                    audioRequest.endAudio()
                }
            }
        }

        private func handle(_ update: Update) {
            guard !ended else { return }
            switch update {
            case .result(let result, let isFinal):
                latest = result
                if !isFinal {
                    if request.partialResults, !result.text.isEmpty {
                        continuation.yield(
                            .partial(RecognitionResult(text: result.text, start: result.start, end: result.end)))
                    }
                    return
                }
                if tooMuchSpeech {
                    continuation.yield(.tooMuchSpeech(result))
                } else if result.text.isEmpty {
                    continuation.yield(.noSpeech(after: endpointer.time(endpointer.position)))
                } else {
                    continuation.yield(.final(result))
                }
                finish()
            case .failure(let error):
                ended = true
                continuation.finish(throwing: error)
            }
        }

        private func finish() {
            guard !ended else { return }
            ended = true
            continuation.finish()
        }

        /// A result as a value: the best transcription, the n-best list, per-word times and confidence.
        nonisolated static func convert(_ result: SFSpeechRecognitionResult, maxAlternatives: Int) -> RecognitionResult
        {
            let best = result.bestTranscription
            let words = best.segments.map { segment in
                RecognizedWord(
                    text: segment.substring, start: .milliseconds(Int(segment.timestamp * 1000)),
                    end: .milliseconds(Int((segment.timestamp + segment.duration) * 1000)))
            }
            let confidences = best.segments.map { Double($0.confidence) }
            // Partial results carry confidence 0 on every segment: no confidence then.
            let confidence =
                confidences.isEmpty || confidences.allSatisfy({ $0 == 0 })
                ? nil : confidences.reduce(0, +) / Double(confidences.count)
            let alternatives = result.transcriptions.prefix(maxAlternatives).enumerated().map { index, transcription in
                RecognitionAlternative(text: transcription.formattedString, confidence: index == 0 ? confidence : nil)
            }
            return RecognitionResult(
                text: best.formattedString, alternatives: alternatives, confidence: confidence,
                start: words.first?.start ?? .zero, end: words.last?.end ?? .zero, words: words)
        }
    }
#endif
