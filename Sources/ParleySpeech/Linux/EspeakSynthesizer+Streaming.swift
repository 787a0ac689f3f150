#if canImport(Subprocess)
    import ParleyCore

    extension EspeakSynthesizer: StreamingSynthesizer {
        /// Speaks `request` with `espeak-ng --stdout`, handing out 22,050 Hz chunks as the program writes them: the
        /// first arrives while espeak-ng is still speaking the rest. Aliases, phonemes and SSML are handled as by
        /// ``synthesize(_:to:)``. Ending the iteration early kills espeak-ng.
        public func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer> {
            stream(request, started: { _ in })
        }

        /// ``stream(_:)``, telling `started` espeak-ng's process identifier and `ended` when it has been reaped
        /// (tests check it runs, then is gone).
        func stream(
            _ request: SynthesisRequest, started: @escaping @Sendable (Int32) -> Void,
            ended: @escaping @Sendable () -> Void = {}
        ) -> SpeechStream<AudioBuffer> {
            let bytes = ProgramRunner.streamOutput(
                program, ["--stdout"] + arguments(for: request), started: started, ended: ended)
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            let task = Task {
                var parser = WAVStreamParser()
                do throws(ParleyError) {
                    for try await chunk in bytes {
                        let samples = try parser.append(chunk)
                        if let rate = parser.sampleRate, !samples.isEmpty {
                            continuation.yield(AudioBuffer(samples: samples, sampleRate: rate))
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
    }
#endif
