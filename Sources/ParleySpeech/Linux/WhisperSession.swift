#if canImport(Subprocess)
    import ParleyCore

    /// One utterance recognised by a ``WhisperRecognizer``: the energy ``VoiceActivityDetector`` and the
    /// ``Endpointer`` decide when speech starts and ends (as for the Apple engine), and the worker decodes the
    /// utterance — again and again while it grows, for partial results, and once more for the final.
    ///
    /// Audio goes through the detector in 100 ms slices on a grid from the start of the audio, as in
    /// ``DecoderSession``. The utterance is the speech and ``WhisperRecognizer/Configuration/preRoll`` of audio before
    /// it (the detector's onset is late by a few frames). A partial decode starts when the utterance has grown by
    /// ``WhisperRecognizer/Configuration/partialInterval`` and by ``WhisperRecognizer/Configuration/partialGrowth`` of
    /// its length since the last one, and only when the worker is idle: since a decode costs about what its audio is
    /// long, the re-decoding costs a bounded multiple of the audio however long the utterance.
    actor WhisperSession: RecognitionSession {
        nonisolated let events: SpeechStream<RecognitionEvent>
        private let continuation: SpeechStream<RecognitionEvent>.Continuation
        private let request: StreamingRecognitionRequest
        private let worker: WhisperWorker
        private let configuration: WhisperRecognizer.Configuration
        private let language: String
        private let prompt: String?
        private var detector: VoiceActivityDetector
        private var endpointer: Endpointer
        private var framer = PCMFramer()
        private var pending: [Int16] = []
        /// The last ``preRollSamples`` of audio, while listening.
        private var recent: [Int16] = []
        private var utterance: [Int16] = []
        private var nextPartialAt = 0
        private var partialRunning = false
        private var lastPartial: String?
        /// Audio is no longer taken: the terminal event is decided (maybe still being decoded).
        private var decided = false
        /// The events have ended and the session left the worker.
        private var closed = false
        private var finalTask: Task<Void, Never>?
        /// Quiet slices in a row while speaking.
        private var quietSlices = 0
        /// The final decode started early, in a pause: the utterance's length then, and the decode.
        private var speculation: (length: Int, reply: Task<Result<WhisperReply, ParleyError>, Never>)?

        private var preRollSamples: Int {
            AudioBuffer.samples(in: configuration.preRoll, sampleRate: AudioBuffer.recognitionSampleRate)
        }

        init(
            request: StreamingRecognitionRequest, worker: WhisperWorker, configuration: WhisperRecognizer.Configuration,
            language: String
        ) {
            self.request = request
            self.worker = worker
            self.configuration = configuration
            self.language = language
            let phrases = request.phrases.map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
            // The channel's phrases are hints; without them (open dictation) the language's dictation prompt.
            prompt =
                phrases.isEmpty
                ? configuration.dictationPrompts[language].flatMap { $0.isEmpty ? nil : $0 }
                : phrases.joined(separator: ", ")
            detector = VoiceActivityDetector(
                parameters: configuration.voiceActivity.withHangover(
                    request.endSilence, sampleRate: AudioBuffer.recognitionSampleRate))
            endpointer = Endpointer(noSpeechTimeout: request.noSpeechTimeout, maxSpeech: request.maxSpeech)
            (events, continuation) = SpeechStream<RecognitionEvent>.makeStream()
        }

        /// Ends the session when the consumer stops reading the events.
        func cancelWhenAbandoned() {
            continuation.onTermination { [weak self] in
                guard let self else { return }
                Task { await self.cancel() }
            }
        }

        func feed(_ audio: AudioBuffer) async throws(ParleyError) {
            guard audio.sampleRate == AudioBuffer.recognitionSampleRate else {
                throw ParleyError(
                    .badAudio,
                    "recognition takes \(AudioBuffer.recognitionSampleRate) Hz audio, not \(audio.sampleRate) Hz")
            }
            await process(audio.samples)
        }

        func feed(bytes: [UInt8]) async throws(ParleyError) {
            await process(framer.append(bytes))
        }

        func finishAudio() async {
            if !decided, !pending.isEmpty {
                let rest = pending
                pending = []
                await slice(rest)
            }
            if !decided { await perform(endpointer.audioDone()) }
            await finalTask?.value
        }

        func cancel() async {
            endpointer.cancel()
            decided = true
            finalTask?.cancel()
            await close(nil)
        }

        private func process(_ samples: [Int16]) async {
            guard !decided else { return }
            pending += samples
            // The slices leave `pending` before any suspension, so a call entering meanwhile sees the rest.
            var slices: [[Int16]] = []
            while pending.count >= DecoderSession.sliceLength {
                slices.append(Array(pending.prefix(DecoderSession.sliceLength)))
                pending.removeFirst(DecoderSession.sliceLength)
            }
            for piece in slices where !decided {
                await slice(piece)
            }
            if decided { pending = [] }
        }

        private func slice(_ samples: [Int16]) async {
            _ = detector.process(samples)
            if endpointer.speechStart == nil, endpointer.state == .listening {
                recent = Array((recent + samples).suffix(preRollSamples + samples.count))
            } else {
                utterance += samples
            }
            let wasListening = endpointer.state == .listening
            let actions = endpointer.audio(count: samples.count, inSpeech: detector.isSpeaking)
            if wasListening, endpointer.state != .listening {
                // Speech began in this slice: the utterance starts a little before it.
                utterance = Array(recent.suffix(preRollSamples + samples.count))
                recent = []
                nextPartialAt = utterance.count + partialStep(utterance.count)
            }
            if endpointer.speechStart != nil {
                quietSlices =
                    AudioLevel(samples: samples).dBFS > configuration.voiceActivity.threshold ? 0 : quietSlices + 1
                speculateIfPaused()
            }
            await perform(actions)
            if !decided { startPartialIfDue() }
        }

        private func perform(_ actions: [Endpointer.Action]) async {
            for action in actions {
                switch action {
                case .speechStarted(let time):
                    continuation.yield(.speechStarted(at: time))
                case .noSpeech(let time):
                    decided = true
                    await close(.noSpeech(after: time))
                case .endOfSpeech:
                    startFinal(tooMuch: false)
                case .tooMuchSpeech:
                    startFinal(tooMuch: true)
                }
            }
        }

        // MARK: Partial results

        private func partialStep(_ length: Int) -> Int {
            max(
                AudioBuffer.samples(in: configuration.partialInterval, sampleRate: AudioBuffer.recognitionSampleRate),
                Int(Double(length) * configuration.partialGrowth))
        }

        private func startPartialIfDue() {
            guard request.partialResults, !partialRunning, endpointer.speechStart != nil,
                utterance.count >= nextPartialAt
            else { return }
            partialRunning = true
            let audio = utterance
            nextPartialAt = audio.count + partialStep(audio.count)
            let decoding = WhisperRequest(
                id: 0, language: language, prompt: prompt, beams: 1, alternatives: 1,
                padSeconds: configuration.padding / .seconds(1))
            let worker = worker
            Task {
                let reply = try? await worker.decodeIfIdle(decoding, audio: audio)
                self.partialDecoded(reply, length: audio.count)
            }
        }

        private func partialDecoded(_ reply: WhisperReply?, length: Int) {
            partialRunning = false
            // A partial that arrives after the end of speech but before the final (audio fed faster than real time)
            // is still reported: the final follows it.
            guard !closed, let speechStart = endpointer.startSample else { return }
            guard let reply else {
                guard !decided else { return }
                // The worker was busy: try again a little later.
                nextPartialAt = min(nextPartialAt, utterance.count + DecoderSession.sliceLength)
                return
            }
            let text = DecoderSession.clean(reply.text ?? "")
            guard !text.isEmpty, text != lastPartial else { return }
            lastPartial = text
            continuation.yield(
                .partial(
                    RecognitionResult(
                        text: text, confidence: reply.alternatives?.first?.confidence,
                        start: endpointer.time(speechStart), end: endpointer.time(endpointer.position))))
        }

        // MARK: The final result

        /// The final's decode, started early: once the speaker has paused for ``speculationPause``, the utterance so
        /// far is decoded as the final would be. If the pause turns out to be the end (the detector's hangover passes
        /// with nothing but quiet), that is the final — the audio since was silence — and it is ready sooner; if
        /// speech resumes, it is dropped. One per pause.
        private func speculateIfPaused() {
            guard configuration.speculationPause > .zero, !decided,
                quietSlices
                    == max(
                        1,
                        AudioBuffer.samples(
                            in: configuration.speculationPause, sampleRate: AudioBuffer.recognitionSampleRate)
                            / DecoderSession.sliceLength)
            else {
                if quietSlices == 0 { speculation = nil }
                return
            }
            let audio = utterance
            let decoding = finalRequest()
            let worker = worker
            speculation = (
                audio.count,
                Task { () -> Result<WhisperReply, ParleyError> in
                    do throws(ParleyError) {
                        return .success(try await worker.decode(decoding, audio: audio))
                    } catch {
                        return .failure(error)
                    }
                }
            )
        }

        private func finalRequest() -> WhisperRequest {
            let alternatives = request.maxAlternatives
            return WhisperRequest(
                id: 0, language: language, prompt: prompt, beams: max(alternatives, configuration.finalBeams),
                alternatives: alternatives, padSeconds: configuration.padding / .seconds(1))
        }

        private func startFinal(tooMuch: Bool) {
            decided = true
            pending = []
            let start = endpointer.time(max(0, (endpointer.startSample ?? 0) - preRollSamples))
            let end = endpointer.time(endpointer.position)
            let audio = utterance
            utterance = []
            guard !audio.isEmpty else {
                finalTask = Task { await self.close(.noSpeech(after: end)) }
                return
            }
            let decoding = finalRequest()
            let worker = worker
            // The early decode stands when only quiet slices came after it (the pause was the end).
            let early = quietSlices > 0 && !tooMuch ? speculation?.reply : nil
            speculation = nil
            finalTask = Task {
                do throws(ParleyError) {
                    let reply =
                        if let early, case .success(let reply) = await early.value {
                            reply
                        } else {
                            try await worker.decode(decoding, audio: audio)
                        }
                    let text = DecoderSession.clean(reply.text ?? "")
                    let alternatives = (reply.alternatives ?? []).map {
                        RecognitionAlternative(text: DecoderSession.clean($0.text), confidence: $0.confidence)
                    }
                    let result = RecognitionResult(
                        text: text, alternatives: alternatives, confidence: alternatives.first?.confidence,
                        start: start, end: end)
                    if tooMuch {
                        await self.close(.tooMuchSpeech(result))
                    } else if text.isEmpty {
                        await self.close(.noSpeech(after: end))
                    } else {
                        await self.close(.final(result))
                    }
                } catch {
                    await self.close(nil, failure: error)
                }
            }
        }

        /// Leaves the worker, then reports `event` (if any) and ends the events, or fails them with `failure`.
        private func close(_ event: RecognitionEvent?, failure: ParleyError? = nil) async {
            guard !closed else { return }
            closed = true
            pending = []
            utterance = []
            await worker.leave()
            if let event { continuation.yield(event) }
            continuation.finish(throwing: failure)
        }
    }

    extension String {
        fileprivate var trimmingWhitespace: String {
            split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }
#endif
