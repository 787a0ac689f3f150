#if os(Linux)
    import Foundation
    import Glibc
    import ParleyCore
    import Testing

    @testable import ParleySpeech

    /// Whether a process is running: it exists and is not a zombie (an exited child not yet reaped still answers
    /// `kill(pid, 0)`).
    func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Whether this machine has a sound card (the CI machine has none).
    let hasSoundCard = FileManager.default.fileExists(atPath: "/dev/snd")

    @Suite("Streaming synthesis, sox sources and sinks, Linux permissions")
    struct StreamingSynthesisTests {
        static let longText = String(
            repeating: "The quick brown fox jumps over the lazy dog, and then it runs far away into the woods. ",
            count: 20)

        @Test func theFirstChunkArrivesWhileEspeakIsStillSpeaking() async throws {
            let (pids, pidSink) = AsyncStream.makeStream(of: pid_t.self)
            let (ends, endSink) = AsyncStream.makeStream(of: Void.self)
            let stream = EspeakSynthesizer().stream(
                SynthesisRequest(text: Self.longText), started: { pidSink.yield($0) }, ended: { endSink.yield() })
            var iterator = stream.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            var pidIterator = pids.makeAsyncIterator()
            let pid = try #require(await pidIterator.next())
            #expect(isRunning(pid), "espeak-ng still runs when the first chunk arrives")
            #expect(first.sampleRate == 22_050)
            var total = first.samples.count
            var chunks = 1
            while let chunk = try await iterator.next() {
                #expect(chunk.sampleRate == 22_050)
                total += chunk.samples.count
                chunks += 1
            }
            var endIterator = ends.makeAsyncIterator()
            _ = await endIterator.next()
            #expect(!isRunning(pid))
            #expect(chunks > 10)
            #expect(first.samples.count * 20 < total, "the first chunk is a small part of the whole")
            #expect(AudioBuffer(samples: [], sampleRate: 22_050).duration == .zero)
            #expect(
                AudioBuffer.duration(ofSamples: total, sampleRate: 22_050) > .seconds(60),
                "twenty long sentences")
        }

        @Test func stoppingTheIterationKillsEspeak() async throws {
            let (pids, pidSink) = AsyncStream.makeStream(of: pid_t.self)
            let (ends, endSink) = AsyncStream.makeStream(of: Void.self)
            let consumer = Task {
                let stream = EspeakSynthesizer().stream(
                    SynthesisRequest(text: Self.longText), started: { pidSink.yield($0) }, ended: { endSink.yield() })
                for try await _ in stream { break }
            }
            try await consumer.value
            var pidIterator = pids.makeAsyncIterator()
            let pid = try #require(await pidIterator.next())
            var endIterator = ends.makeAsyncIterator()
            _ = await endIterator.next()
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "espeak-ng is gone, reaped")
        }

        @Test func espeakStreamsTheSameAudioItWritesToAFile() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ss-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = SynthesisRequest(text: "Turning off the lights.")
            let wav = folder.appendingPathComponent("file.wav")
            try await EspeakSynthesizer().synthesize(request, to: wav)
            let fileSamples = try WAVStreamParser.samples(of: Data(contentsOf: wav))
            let streamed = try await EspeakSynthesizer().stream(request).collect().flatMap(\.samples)
            #expect(streamed.count > 11_025)
            #expect(streamed == fileSamples)
            let missing = EspeakSynthesizer(program: "no-such-espeak").stream(request)
            await #expect(throws: ParleyError.self) { try await missing.collect() }
        }

        @Test func soxReadsFilesAndReportsMissingOnes() async throws {
            let missing = SoxAudioSource.file(URL(fileURLWithPath: "/no/such.wav")).frames()
            await #expect(throws: ParleyError(.audioFileMissing, "no audio file at /no/such.wav")) {
                try await missing.collect()
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sx-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // Two seconds of stereo 44.1 kHz tone: mixed down and resampled to 16 kHz.
            let tone = folder.appendingPathComponent("tone.wav")
            _ = try await ProgramRunner.run(
                "sox", ["-n", "-r", "44100", "-c", "2", tone.path, "synth", "2", "sine", "440"])
            let chunks = try await SoxAudioSource.file(tone).frames().collect()
            #expect(chunks.reduce(0) { $0 + $1.samples.count } == 32_000)
            #expect(chunks.allSatisfy { $0.sampleRate == 16_000 && !$0.samples.isEmpty })
            let level = AudioLevel(samples: chunks.flatMap(\.samples)).dBFS
            #expect(level > -10 && level < -3, "a loud tone: \(level) dBFS")
        }

        @Test func withoutASoundCardTheMicrophoneAndThePlayerSaySo() async throws {
            guard !hasSoundCard else { return }  // A machine with a sound card answers otherwise.
            do {
                _ = try await SoxAudioSource.microphone().frames().collect()
                Issue.record("rec should fail without a capture device")
            } catch {
                #expect(error.code == .audioDeviceUnavailable)
                #expect(error.message.contains("no default audio device"), "\(error.message)")
            }
            do {
                try await SoxStreamingPlayer().play(EspeakSynthesizer().stream(SynthesisRequest(text: Self.longText)))
                Issue.record("play should fail without a sound device")
            } catch {
                #expect(error.code == .audioDeviceUnavailable)
            }
            let microphone = await SystemPermissionSource().request(.microphone)
            guard case .denied(let reason) = microphone else {
                Issue.record("the microphone should be denied: \(microphone)")
                return
            }
            #expect(reason.contains("no default audio device"), "\(reason)")
            #expect(await SystemPermissionSource().status(of: .microphone) == microphone)
        }

        @Test func speechRecognitionIsGrantedWhenPocketsphinxLoads() async {
            let answer = await SystemPermissionSource().request(.speechRecognition)
            switch PocketsphinxLibrary.shared {
            case .success: #expect(answer == .granted)
            case .failure(let error): #expect(answer == .denied(reason: error.message))
            }
            #expect(await LinuxPermissions.microphone(program: "no-such-rec") != .granted)
        }

        @Test func theStreamingPlayerFeedsItsProgramEverything() async throws {
            // `cat` stands in for `play`, writing what it is fed to a file: the player's plumbing without a device.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let out = folder.appendingPathComponent("out.raw")
            let script = folder.appendingPathComponent("fake-play")
            try "#!/bin/sh\ncat > '\(out.path)'\n".write(to: script, atomically: true, encoding: .utf8)
            chmod(script.path, 0o755)
            let audio = AudioBuffer(samples: (0..<50_000).map { Int16(truncatingIfNeeded: $0 * 7) })
            try await SoxStreamingPlayer(program: script.path).play(BufferAudioSource(audio).frames())
            #expect(try [UInt8](Data(contentsOf: out)) == audio.littleEndianBytes)
            try await SoxStreamingPlayer(program: script.path).play(.of([]))
        }
    }
#endif
