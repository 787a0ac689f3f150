#if os(Linux)
    import Benchmark
    import Foundation
    import ParleyCore
    import ParleySpeech

    /// Issue 21: streaming speech against the whole-file way, on the same audio in the same run.
    ///
    /// - `speech.stream`: "turn on the lights" (espeak-ng, 16 kHz, 0.3 s of silence before and 1.5 s after) fed to
    ///   `PocketsphinxStreamingRecognizer` in 100 ms chunks as fast as it takes them, with the command phrases as a
    ///   grammar. `rtf_milli`: the wall time from `startSession` (model load included) to the final over the audio's
    ///   length, in thousandths.
    /// - `speech.realtime`: the same audio fed at the pace of a microphone (a 100 ms chunk every 100 ms).
    ///   `partial_us`: from feeding the chunk where the first word starts (found with the energy detector) to the
    ///   first partial: what a speaker waits to see their words. `final_us`: from feeding the chunk where the last
    ///   word ends to the final, which comes unprompted after the request's 500 ms of end silence: what a speaker
    ///   waits after the last word.
    /// - `speech.stream (pocketsphinx_continuous)`: the baseline, `pocketsphinx_continuous -infile` on the same audio
    ///   as a WAV with the same grammar. It has one result, after the whole file, so all three are its whole run
    ///   (for `final_us`: what a speaker waits after the recording ends).
    /// - `tts.stream`: `EspeakSynthesizer.stream` of two sentences, to the first chunk; baseline `tts.stream (whole
    ///   utterance)`: `synthesize(_:to:)` of the same text to a file.
    enum SpeechBenchmarks {
        static let phrases = ["turn on the lights", "turn off the lights", "go to sleep", "play some music"]
        static let sentence = "The lights in the kitchen are now off. Would you like me to turn on the heating as well?"

        static func register() {
            let iterations = quick ? 10 : 30

            Benchmark("speech.stream", configuration: measuring(.realTimeFactor, iterations: iterations)) { benchmark in
                let audio = try await speech()
                let start = ContinuousClock.now
                let session = try await PocketsphinxStreamingRecognizer().startSession(
                    StreamingRecognitionRequest(phrases: phrases))
                let consumer = Task { try await timedEvents(session) }
                for offset in stride(from: 0, to: audio.count, by: 1_600) {
                    try await session.feed(
                        AudioBuffer(samples: Array(audio[offset..<min(offset + 1_600, audio.count)])))
                }
                let events = try await consumer.value
                let (_, final) = try firstPartialAndFinal(events)
                benchmark.measurement(
                    .realTimeFactor, Int(start.duration(to: final) / AudioBuffer(samples: audio).duration * 1000))
            }

            Benchmark(
                "speech.realtime", configuration: measuring(.firstPartial, .endToFinal, iterations: quick ? 5 : 10)
            ) { benchmark in
                let audio = try await speech()
                let (speechStart, speechEnd) = voicedSpan(audio)
                let session = try await PocketsphinxStreamingRecognizer().startSession(
                    StreamingRecognitionRequest(phrases: phrases))
                let consumer = Task { try await timedEvents(session) }
                let clock = ContinuousClock()
                let start = clock.now
                var startFed: ContinuousClock.Instant?
                var endFed: ContinuousClock.Instant?
                for (index, offset) in stride(from: 0, to: audio.count, by: 1_600).enumerated() {
                    try await clock.sleep(until: start + .milliseconds(100 * index))
                    try await session.feed(
                        AudioBuffer(samples: Array(audio[offset..<min(offset + 1_600, audio.count)])))
                    if startFed == nil, offset + 1_600 > speechStart { startFed = clock.now }
                    if endFed == nil, offset + 1_600 >= speechEnd { endFed = clock.now }
                }
                let (partial, final) = try firstPartialAndFinal(try await consumer.value)
                guard let startFed, let endFed, partial > startFed, final > endFed else {
                    throw BenchmarkFailure("a result came before the speech it hears")
                }
                benchmark.measurement(.firstPartial, microseconds(startFed.duration(to: partial)))
                benchmark.measurement(.endToFinal, microseconds(endFed.duration(to: final)))
            }

            Benchmark(
                "speech.stream (pocketsphinx_continuous)",
                configuration: measuring(.firstPartial, .endToFinal, .realTimeFactor, iterations: iterations)
            ) { benchmark in
                let audio = try await speech()
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "parley-bench-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let wav = folder.appendingPathComponent("speech.wav")
                try wavFile(audio).write(to: wav)
                let grammar = folder.appendingPathComponent("phrases.gram")
                try ("#JSGF V1.0;\ngrammar parley;\npublic <phrase> = " + phrases.joined(separator: " | ") + ";\n")
                    .write(to: grammar, atomically: true, encoding: .utf8)
                let model = "/usr/share/pocketsphinx/model/en-us"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/pocketsphinx_continuous")
                process.arguments = [
                    "-infile", wav.path, "-logfn", "/dev/null", "-hmm", model + "/en-us", "-dict",
                    model + "/cmudict-en-us.dict", "-jsgf", grammar.path,
                ]
                let output = Pipe()
                process.standardOutput = output
                let start = ContinuousClock.now
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let elapsed = start.duration(to: .now)
                guard text.contains("turn on the lights") else {
                    throw BenchmarkFailure("pocketsphinx_continuous heard \(text)")
                }
                benchmark.measurement(.firstPartial, microseconds(elapsed))
                benchmark.measurement(.endToFinal, microseconds(elapsed))
                benchmark.measurement(.realTimeFactor, Int(elapsed / AudioBuffer(samples: audio).duration * 1000))
            }

            Benchmark("tts.stream", configuration: measuring(.duration, iterations: iterations)) { benchmark in
                let start = ContinuousClock.now
                var iterator = EspeakSynthesizer().stream(SynthesisRequest(text: sentence)).makeAsyncIterator()
                guard try await iterator.next() != nil else { throw BenchmarkFailure("espeak-ng said nothing") }
                benchmark.measurement(.duration, microseconds(start.duration(to: .now)))
                while try await iterator.next() != nil {}
            }

            Benchmark("tts.stream (whole utterance)", configuration: measuring(.duration, iterations: iterations)) {
                benchmark in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "parley-bench-\(UUID().uuidString).wav")
                defer { try? FileManager.default.removeItem(at: file) }
                let start = ContinuousClock.now
                try await EspeakSynthesizer().synthesize(SynthesisRequest(text: sentence), to: file)
                benchmark.measurement(.duration, microseconds(start.duration(to: .now)))
            }
        }

        /// The silence after the speech: 1.5 s.
        static let trailingSilence = 24_000

        /// Where the first voiced 20 ms frame starts and the last one ends (the energy detector with no hangover):
        /// the start of the first word and the end of the last, without the quiet tail espeak-ng itself adds.
        static func voicedSpan(_ audio: [Int16]) -> (start: Int, end: Int) {
            var detector = VoiceActivityDetector(parameters: VoiceActivityParameters(onsetFrames: 1, hangoverFrames: 1))
            let changes = detector.process(audio)
            let starts = changes.compactMap { change -> Int? in
                if case .speechStarted(let sample) = change { sample } else { nil }
            }
            let ends = changes.compactMap { change -> Int? in
                if case .speechEnded(let sample) = change { sample } else { nil }
            }
            return (starts.first ?? 0, ends.last ?? audio.count)
        }

        /// The session's events with the time each arrived.
        static func timedEvents(_ session: any RecognitionSession) async throws -> [(
            RecognitionEvent, ContinuousClock.Instant
        )] {
            var events: [(RecognitionEvent, ContinuousClock.Instant)] = []
            for try await event in session.events { events.append((event, .now)) }
            return events
        }

        /// When the first partial and the final arrived; fails unless the final is "turn on the lights".
        static func firstPartialAndFinal(
            _ events: [(RecognitionEvent, ContinuousClock.Instant)]
        ) throws -> (ContinuousClock.Instant, ContinuousClock.Instant) {
            guard let partial = events.first(where: { if case .partial = $0.0 { true } else { false } }),
                let final = events.last, case .final(let result) = final.0, result.text == "turn on the lights"
            else { throw BenchmarkFailure("no partial, or not the right final: \(events.map(\.0))") }
            return (partial.1, final.1)
        }

        /// "turn on the lights" at 16 kHz between silences (0.3 s before, 1.5 s after).
        static func speech() async throws -> [Int16] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "parley-bench-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: file) }
            try await EspeakSynthesizer().synthesize(SynthesisRequest(text: "turn on the lights"), to: file)
            let samples = try await SoxAudioSource.file(file).frames().collect().flatMap(\.samples)
            return [Int16](repeating: 0, count: 4_800) + samples + [Int16](repeating: 0, count: trailingSilence)
        }

        /// A 16 kHz mono 16-bit WAV file of `samples`.
        static func wavFile(_ samples: [Int16]) -> Data {
            func bytes(_ value: UInt32, _ count: Int) -> [UInt8] {
                (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            }
            let data = AudioBuffer(samples: samples).littleEndianBytes
            var header = Array("RIFF".utf8) + bytes(UInt32(36 + data.count), 4) + Array("WAVEfmt ".utf8)
            header += bytes(16, 4) + bytes(1, 2) + bytes(1, 2) + bytes(16_000, 4) + bytes(32_000, 4) + bytes(2, 2)
            header += bytes(16, 2) + Array("data".utf8) + bytes(UInt32(data.count), 4)
            return Data(header + data)
        }
    }

    extension BenchmarkMetric {
        /// Time from feeding the start of speech to the first partial result, in microseconds.
        static let firstPartial = BenchmarkMetric.custom("partial_us", useScalingFactor: false)
        /// Time from feeding the end of speech to the final result, in microseconds.
        static let endToFinal = BenchmarkMetric.custom("final_us", useScalingFactor: false)
        /// Wall time over audio time, in thousandths.
        static let realTimeFactor = BenchmarkMetric.custom("rtf_milli", useScalingFactor: false)
    }
#endif
