import ParleyCore

/// A recognition engine that decodes pushed audio synchronously, such as PocketSphinx: what ``DecoderSession``
/// drives. Not `Sendable`: one session actor owns it, calls it from one place at a time and closes it.
protocol SpeechDecoder: AnyObject {
    /// Decodes `samples` (16 kHz mono) and says whether the engine's voice-activity detector hears speech after
    /// them.
    func process(_ samples: [Int16]) throws(ParleyError) -> Bool
    /// The best hypothesis so far, if any.
    func hypothesis() -> String?
    /// Ends the utterance and returns its result (an empty text when nothing was recognised).
    func finish(maxAlternatives: Int) throws(ParleyError) -> DecodedUtterance
    /// Releases the engine; called once, last.
    func close()
}

/// What a ``SpeechDecoder`` heard in a whole utterance.
struct DecodedUtterance: Sendable, Hashable {
    var text: String
    var alternatives: [RecognitionAlternative] = []
    var confidence: Double?
    var words: [RecognizedWord] = []
}

/// A ``RecognitionSession`` over a ``SpeechDecoder``: the actor that feeds the decoder, runs the ``Endpointer``
/// and reports events.
///
/// Audio is decoded in slices of exactly 100 ms on a grid from the start of the audio (the session holds back up to
/// 99 ms until a slice is whole; ``finishAudio()`` decodes the rest), so the decoder sees the same slices however the
/// audio is chunked, the end of speech is found within 100 ms of audio, and event times are multiples of 100 ms. A
/// partial is reported when the hypothesis changes.
actor DecoderSession: RecognitionSession {
    /// The largest slice handed to the decoder at once: 100 ms.
    static let sliceLength = 1_600

    nonisolated let events: SpeechStream<RecognitionEvent>
    private let continuation: SpeechStream<RecognitionEvent>.Continuation
    private let request: StreamingRecognitionRequest
    private var decoder: (any SpeechDecoder)?
    private var endpointer: Endpointer
    private var framer = PCMFramer()
    private var lastPartial: String?
    private var pending: [Int16] = []

    init(decoder: sending any SpeechDecoder, request: StreamingRecognitionRequest) {
        self.decoder = decoder
        self.request = request
        endpointer = Endpointer(noSpeechTimeout: request.noSpeechTimeout, maxSpeech: request.maxSpeech)
        (events, continuation) = SpeechStream<RecognitionEvent>.makeStream()
    }

    /// Whether the session has ended (terminal event, failure or cancellation) and released its decoder.
    var hasEnded: Bool { decoder == nil }

    /// Ends the session when the consumer stops reading the events.
    func cancelWhenAbandoned() {
        continuation.onTermination { [weak self] in
            guard let self else { return }
            Task { await self.cancel() }
        }
    }

    func feed(_ audio: AudioBuffer) throws(ParleyError) {
        guard audio.sampleRate == AudioBuffer.recognitionSampleRate else {
            throw ParleyError(
                .badAudio, "recognition takes \(AudioBuffer.recognitionSampleRate) Hz audio, not \(audio.sampleRate) Hz"
            )
        }
        try process(audio.samples)
    }

    func feed(bytes: [UInt8]) throws(ParleyError) {
        try process(framer.append(bytes))
    }

    func finishAudio() {
        if !pending.isEmpty, let decoder {
            let rest = pending
            pending = []
            do {
                perform(endpointer.audio(count: rest.count, inSpeech: try decoder.process(rest)))
            } catch {
                fail(error)
                return
            }
        }
        perform(endpointer.audioDone())
    }

    func cancel() {
        endpointer.cancel()
        close()
    }

    private func process(_ samples: [Int16]) throws(ParleyError) {
        guard decoder != nil else { return }
        pending += samples
        var start = 0
        defer { pending.removeFirst(min(start, pending.count)) }
        while pending.count - start >= Self.sliceLength, let decoder {
            let slice = Array(pending[start..<start + Self.sliceLength])
            start += slice.count
            let inSpeech: Bool
            do {
                inSpeech = try decoder.process(slice)
            } catch {
                fail(error)
                throw error
            }
            perform(endpointer.audio(count: slice.count, inSpeech: inSpeech))
            reportPartial()
        }
    }

    private func reportPartial() {
        guard request.partialResults, let decoder, let speechStart = endpointer.speechStart,
            let text = decoder.hypothesis().map(Self.clean), !text.isEmpty, text != lastPartial
        else { return }
        lastPartial = text
        continuation.yield(
            .partial(
                RecognitionResult(
                    text: text, start: endpointer.time(speechStart), end: endpointer.time(endpointer.position))))
    }

    private func perform(_ actions: [Endpointer.Action]) {
        for action in actions {
            switch action {
            case .speechStarted(let time):
                continuation.yield(.speechStarted(at: time))
            case .noSpeech(let time):
                continuation.yield(.noSpeech(after: time))
                close()
            case .endOfSpeech:
                finish(tooMuch: false)
            case .tooMuchSpeech:
                finish(tooMuch: true)
            }
        }
    }

    private func finish(tooMuch: Bool) {
        guard let decoder else { return }
        let start = endpointer.time(endpointer.startSample ?? 0)
        let end = endpointer.time(endpointer.position)
        do {
            let utterance = try decoder.finish(maxAlternatives: request.maxAlternatives)
            let text = Self.clean(utterance.text)
            let result = RecognitionResult(
                text: text, alternatives: utterance.alternatives, confidence: utterance.confidence,
                start: utterance.words.first?.start ?? start, end: utterance.words.last?.end ?? end,
                words: utterance.words)
            if tooMuch {
                continuation.yield(.tooMuchSpeech(result))
            } else if text.isEmpty {
                continuation.yield(.noSpeech(after: end))
            } else {
                continuation.yield(.final(result))
            }
            close()
        } catch {
            fail(error)
        }
    }

    private func fail(_ error: ParleyError) {
        pending = []
        decoder?.close()
        decoder = nil
        continuation.finish(throwing: error)
    }

    private func close() {
        pending = []
        decoder?.close()
        decoder = nil
        continuation.finish()
    }

    /// Words separated by single spaces.
    static func clean(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
