import Foundation
import ParleyCore
import Synchronization
import Testing

@testable import ParleySpeech

/// A decoder that hears with the energy detector and "recognises" a script: one more word of `words` per 250 ms
/// of speech decoded. It lets the session's own logic be tested without an engine.
final class ScriptedDecoder: SpeechDecoder {
    /// What the decoder was asked to do, readable by the test after the session owns the decoder.
    final class Log: Sendable {
        let counts = Mutex((processed: 0, closed: 0))
        var processed: Int { counts.withLock { $0.processed } }
        var closed: Int { counts.withLock { $0.closed } }
    }

    var detector = VoiceActivityDetector(parameters: VoiceActivityParameters(hangoverFrames: 10))
    let words: [String]
    let log: Log
    var speechSamples = 0
    var failAfter: Int?

    init(words: [String], failAfter: Int? = nil, log: Log = Log()) {
        self.words = words
        self.failAfter = failAfter
        self.log = log
    }

    func process(_ samples: [Int16]) throws(ParleyError) -> Bool {
        let processed = log.counts.withLock { counts in
            counts.processed += samples.count
            return counts.processed
        }
        if let failAfter, processed > failAfter { throw ParleyError(.speechEngineFailed, "scripted failure") }
        _ = detector.process(samples)
        if detector.isSpeaking { speechSamples += samples.count }
        return detector.isSpeaking
    }

    func hypothesis() -> String? {
        let count = min(words.count, speechSamples / 4_000)
        return count == 0 ? nil : words.prefix(count).joined(separator: " ")
    }

    func finish(maxAlternatives: Int) throws(ParleyError) -> DecodedUtterance {
        DecodedUtterance(
            text: hypothesis() ?? "", alternatives: [], confidence: hypothesis() == nil ? nil : 0.75)
    }

    func close() { log.counts.withLock { $0.closed += 1 } }
}

@Suite("Recognition sessions")
struct RecognitionSessionTests {
    static let tone = Signal.square(16_000, amplitude: 0.2)

    func session(
        _ decoder: sending ScriptedDecoder, _ request: StreamingRecognitionRequest = StreamingRecognitionRequest()
    ) -> DecoderSession {
        DecoderSession(decoder: decoder, request: request)
    }

    @Test func partialsThenTheFinalWhenSpeechEnds() async throws {
        let session = session(ScriptedDecoder(words: ["turn", "on", "the", "lights"]))
        let audio = Signal.silence(8_000) + Self.tone + Signal.silence(16_000)
        // Arbitrary byte chunks, odd sizes included, as a browser sends them.
        let bytes = AudioBuffer(samples: audio).littleEndianBytes
        for start in stride(from: 0, to: bytes.count, by: 3_001) {
            try await session.feed(bytes: Array(bytes[start..<min(start + 3_001, bytes.count)]))
        }
        let events = try await session.events.collect()
        #expect(events.first == .speechStarted(at: .milliseconds(500)))
        #expect(
            events.dropFirst().dropLast().map(\.partialText) == [
                "turn", "turn on", "turn on the", "turn on the lights",
            ])
        guard case .final(let result) = events.last else {
            Issue.record("no final: \(events)")
            return
        }
        #expect(result.text == "turn on the lights")
        #expect(result.confidence == 0.75)
        #expect(result.alternatives == [RecognitionAlternative(text: "turn on the lights", confidence: 0.75)])
        #expect(result.start == .milliseconds(500))
        #expect(result.end > .milliseconds(1_500) && result.end <= .milliseconds(2_000), "\(result.end)")
        #expect(await session.hasEnded)
        try await session.feed(AudioBuffer(samples: Self.tone))  // ignored, no error
    }

    @Test func finishAudioForcesTheFinalAndSilenceGivesNoSpeech() async throws {
        let speaking = session(ScriptedDecoder(words: ["yes"]))
        try await speaking.feed(AudioBuffer(samples: Self.tone))
        #expect(await !speaking.hasEnded, "still speaking: no final yet")
        await speaking.finishAudio()
        #expect(try await speaking.events.collect().last?.isTerminal == true)

        let quiet = session(ScriptedDecoder(words: ["yes"]), StreamingRecognitionRequest(noSpeechTimeout: .seconds(2)))
        try await quiet.feed(AudioBuffer(samples: Signal.silence(48_000)))
        #expect(try await quiet.events.collect() == [.noSpeech(after: .seconds(2))])

        let done = session(ScriptedDecoder(words: ["yes"]))
        try await done.feed(AudioBuffer(samples: Signal.silence(8_000)))
        await done.finishAudio()
        #expect(try await done.events.collect() == [.noSpeech(after: .milliseconds(500))], "nothing heard")
    }

    @Test func tooMuchSpeechCarriesWhatWasHeard() async throws {
        let session = session(
            ScriptedDecoder(words: ["one", "two", "three", "four", "five"]),
            StreamingRecognitionRequest(partialResults: false, maxSpeech: .seconds(1)))
        try await session.feed(AudioBuffer(samples: Self.tone + Self.tone))
        let events = try await session.events.collect()
        #expect(events.count == 2)
        guard case .tooMuchSpeech(let result) = events.last else {
            Issue.record("not too much speech: \(events)")
            return
        }
        #expect(result.text == "one two three four", "what 1 s of speech gave: a word per 250 ms")
        #expect(result.end == .seconds(1))
    }

    @Test func cancellingEndsTheEventsWithoutATerminalEvent() async throws {
        let log = ScriptedDecoder.Log()
        let session = session(ScriptedDecoder(words: ["turn", "on"], log: log))
        try await session.feed(AudioBuffer(samples: Self.tone))
        await session.cancel()
        await session.cancel()
        let events = try await session.events.collect()
        #expect(events.allSatisfy { !$0.isTerminal })
        #expect(events.first == .speechStarted(at: .zero))
        #expect(log.closed == 1, "the engine is released once")
        try await session.feed(AudioBuffer(samples: Self.tone))
        #expect(log.processed == 16_000, "audio after cancel is not decoded")
    }

    @Test func anEngineFailureFailsTheFeedAndTheEvents() async throws {
        let session = session(ScriptedDecoder(words: ["x"], failAfter: 3_200))
        await #expect(throws: ParleyError(.speechEngineFailed, "scripted failure")) {
            try await session.feed(AudioBuffer(samples: Self.tone))
        }
        await #expect(throws: ParleyError(.speechEngineFailed, "scripted failure")) {
            try await session.events.collect()
        }
        await #expect(throws: ParleyError(.badAudio, "recognition takes 16000 Hz audio, not 22050 Hz")) {
            try await self.session(ScriptedDecoder(words: [])).feed(AudioBuffer(samples: [1], sampleRate: 22_050))
        }
    }
}

extension RecognitionEvent {
    /// A partial's text, for comparing lists of partials.
    var partialText: String? {
        if case .partial(let result) = self { result.text } else { nil }
    }
}

#if os(Linux)
    /// Real speech through the real engine: espeak-ng speaks, sox converts to 16 kHz, PocketSphinx listens.
    @Suite("Streaming recognition with PocketSphinx")
    struct PocketsphinxStreamingTests {
        static let phrases = ["turn on the lights", "turn off the lights", "go to sleep", "play some music"]

        /// `text` spoken by espeak-ng at 16 kHz (through ``SoxAudioSource``), between silences.
        static func speech(_ text: String, before: Int = 4_800, after: Int = 24_000) async throws -> [Int16] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sr-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let wav = folder.appendingPathComponent("speech.wav")
            try await EspeakSynthesizer().synthesize(SynthesisRequest(text: text), to: wav)
            let chunks = try await SoxAudioSource.file(wav).frames().collect()
            #expect(chunks.allSatisfy { $0.sampleRate == 16_000 })
            return Signal.silence(before) + chunks.flatMap(\.samples) + Signal.silence(after)
        }

        /// Feeds `samples` as little-endian bytes in chunks of 3,001 bytes (about 3 kB, like Chromium, and odd).
        static func feed(_ samples: [Int16], to session: any RecognitionSession) async throws {
            let bytes = AudioBuffer(samples: samples).littleEndianBytes
            for start in stride(from: 0, to: bytes.count, by: 3_001) {
                try await session.feed(bytes: Array(bytes[start..<min(start + 3_001, bytes.count)]))
            }
        }

        @Test func partialsArriveBeforeAFinalThatComesWithoutDone() async throws {
            let audio = try await Self.speech("turn on the lights")
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: Self.phrases))
            try await Self.feed(audio, to: session)
            // No finishAudio(): the trailing silence alone ends the utterance, and the stream with it.
            let events = try await session.events.collect()
            guard case .speechStarted = events.first, case .final(let result) = events.last else {
                Issue.record("not started … final: \(events)")
                return
            }
            let partials = events.dropFirst().dropLast().compactMap(\.partialText)
            #expect(partials.count == events.count - 2, "only partials between the start and the final")
            #expect(!partials.isEmpty)
            #expect(partials.allSatisfy { "turn on the lights".hasPrefix($0) }, "\(partials)")
            #expect(result.text == "turn on the lights")
            #expect(result.words.map(\.text) == ["turn", "on", "the", "lights"])
            #expect(result.alternatives.first?.text == "turn on the lights")
            #expect(result.alternatives.allSatisfy { Self.phrases.contains($0.text) }, "\(result.alternatives)")
            #expect(result.start >= .milliseconds(200) && result.end <= .seconds(2), "\(result.start)…\(result.end)")
        }

        @Test func openDictationUsesTheLanguageModel() async throws {
            let audio = try await Self.speech("what is the weather like today")
            let session = try await PocketsphinxStreamingRecognizer().startSession(StreamingRecognitionRequest())
            try await Self.feed(audio, to: session)
            let events = try await session.events.collect()
            guard case .final(let result) = events.last else {
                Issue.record("no final: \(events)")
                return
            }
            // The language model is unsure of synthetic voices; the start of the sentence is what it hears right.
            #expect(result.text.hasPrefix("what is the weather"), "\(result.text)")
            let confidence = try #require(result.confidence, "the language-model search computes a posterior")
            #expect(confidence > 0 && confidence <= 1)
            #expect(result.alternatives.count > 1 && result.alternatives.count <= 3)
            #expect(Set(result.alternatives.map(\.text)).count == result.alternatives.count, "no duplicates")
        }

        /// What one session alone hears in `samples`: the final's text, or `nil`.
        static func heardAlone(_ samples: [Int16]) async throws -> String? {
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: phrases))
            try await feed(samples, to: session)
            guard case .final(let result) = try await session.events.collect().last else { return nil }
            return result.text
        }

        /// Sessions on several threads at once, each with its own decoder (SphinxBase's global log is off, and
        /// decoders are created and freed one at a time), hear exactly what each hears alone.
        ///
        /// Alone is not always right: on espeak-ng's voice PocketSphinx hears "turn off the lights" as "turn on the
        /// lights", as `pocketsphinx_continuous` does on the same audio; the test is that concurrency changes nothing.
        @Test func concurrentSessionsHearWhatEachHearsAlone() async throws {
            var audio: [String: [Int16]] = [:]
            var alone: [String: String?] = [:]
            for phrase in Self.phrases {
                audio[phrase] = try await Self.speech(phrase)
                alone[phrase] = try await Self.heardAlone(audio[phrase] ?? [])
            }
            #expect(alone["turn on the lights"] == "turn on the lights")
            #expect(alone["go to sleep"] == "go to sleep")
            let together = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for round in 0..<2 {
                    for (phrase, samples) in audio {
                        group.addTask { ("\(round) \(phrase)", try await Self.heardAlone(samples)) }
                    }
                }
                var heard: [String: String?] = [:]
                for try await (key, text) in group { heard[key] = text }
                return heard
            }
            #expect(together.count == 8)
            for (key, text) in together {
                let phrase = String(key.drop(while: { $0 != " " }).dropFirst())
                #expect(text == alone[phrase], "\(key)")
            }
        }

        @Test func finishAudioForcesTheFinalWhenSpeechRunsToTheEnd() async throws {
            let audio = try await Self.speech("go to sleep", after: 0)
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: Self.phrases))
            try await Self.feed(audio, to: session)
            #expect(await (session as? DecoderSession)?.hasEnded == false, "no final before the audio is done")
            await session.finishAudio()
            let events = try await session.events.collect()
            #expect(events.last == events.last.flatMap { if case .final = $0 { $0 } else { nil } })
            guard case .final(let result) = events.last else {
                Issue.record("no final: \(events)")
                return
            }
            #expect(result.text == "go to sleep")
        }

        @Test func silenceOnlyGivesNoSpeech() async throws {
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: Self.phrases, noSpeechTimeout: .seconds(1)))
            try await Self.feed(Signal.silence(48_000), to: session)
            let events = try await session.events.collect()
            #expect(events == [.noSpeech(after: .seconds(1))])
        }

        @Test func tooMuchSpeechStopsALongUtterance() async throws {
            let audio = try await Self.speech("play some music")
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: Self.phrases, maxSpeech: .milliseconds(300)))
            try await Self.feed(audio, to: session)
            let events = try await session.events.collect()
            guard case .tooMuchSpeech(let result) = events.last else {
                Issue.record("not too much speech: \(events)")
                return
            }
            #expect(result.end <= .seconds(1), "stopped at the limit, not at the end of the audio: \(result.end)")
        }

        @Test func cancelEndsTheSession() async throws {
            let audio = try await Self.speech("turn off the lights")
            let session = try await PocketsphinxStreamingRecognizer().startSession(
                StreamingRecognitionRequest(phrases: Self.phrases))
            try await Self.feed(Array(audio.prefix(12_000)), to: session)
            await session.cancel()
            try await Self.feed(audio, to: session)  // ignored
            let events = try await session.events.collect()
            #expect(events.allSatisfy { !$0.isTerminal }, "\(events)")
        }

        @Test func aMissingEngineOrModelIsATypedErrorNamingThePackage() async {
            do {
                _ = try await PocketsphinxStreamingRecognizer(library: "libno-such-pocketsphinx.so.3").startSession(
                    StreamingRecognitionRequest())
                Issue.record("should fail")
            } catch {
                #expect(error.code == .speechEngineUnavailable)
                #expect(error.message.contains("libno-such-pocketsphinx.so.3 cannot be loaded"))
                #expect(error.message.contains("install Debian's libpocketsphinx3 libsphinxbase3"))
            }
            await #expect(
                throws: ParleyError(
                    .speechEngineUnavailable, "no PocketSphinx model in /no/model: install Debian's pocketsphinx-en-us")
            ) {
                try await PocketsphinxStreamingRecognizer(modelFolder: URL(fileURLWithPath: "/no/model"))
                    .startSession(StreamingRecognitionRequest())
            }
            await #expect(
                throws: ParleyError(.speechEngineUnavailable, "PocketSphinx has a model for en-US, not for fr-FR")
            ) {
                try await PocketsphinxStreamingRecognizer().startSession(StreamingRecognitionRequest(locale: "fr-FR"))
            }
            #expect(await PocketsphinxStreamingRecognizer().locales() == ["en-US"])
            #expect(
                await PocketsphinxStreamingRecognizer(modelFolder: URL(fileURLWithPath: "/no/model")).locales() == [])
            do {
                _ = try await PocketsphinxStreamingRecognizer().startSession(
                    StreamingRecognitionRequest(phrases: ["zorbleflux quandrix"]))
                Issue.record("a word outside the dictionary should fail")
            } catch {
                #expect(error.code == .speechEngineFailed)
            }
        }
    }
#endif

@Suite("Scripted streaming recognizer")
struct ScriptedStreamingRecognizerTests {
    @Test func tonesAreHeardAsTheTranscriptsInOrder() async throws {
        let recognizer = ScriptedStreamingRecognizer(transcripts: ["turn on the lights", "go to sleep"])
        let first = try await recognizer.startSession(StreamingRecognitionRequest())
        // 0.5 s of silence, 1 s of tone, 1 s of silence, fed as socket bytes.
        let audio = Signal.silence(8_000) + Signal.square(16_000, amplitude: 0.2) + Signal.silence(16_000)
        try await first.feed(bytes: AudioBuffer(samples: audio).littleEndianBytes)
        let events = try await first.events.collect()
        #expect(events.first == .speechStarted(at: .milliseconds(500)))
        #expect(events.compactMap(\.partialText) == ["turn", "turn on", "turn on the", "turn on the lights"])
        guard case .final(let result) = events.last else {
            Issue.record("no final: \(events)")
            return
        }
        #expect(result.text == "turn on the lights")
        #expect(result.end >= .milliseconds(1_500) && result.end <= .seconds(2), "the hangover is 500 ms")

        let second = try await recognizer.startSession(StreamingRecognitionRequest(noSpeechTimeout: .seconds(1)))
        try await second.feed(AudioBuffer(samples: Signal.silence(32_000)))
        #expect(try await second.events.collect() == [.noSpeech(after: .seconds(1))])
        await #expect(throws: ParleyError(.noMoreAudio, "the scripted recognizer has no more transcripts")) {
            try await recognizer.startSession(StreamingRecognitionRequest())
        }
    }
}
