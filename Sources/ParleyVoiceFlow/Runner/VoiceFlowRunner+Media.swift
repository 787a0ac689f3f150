import Foundation
import ParleyCore
import ParleySpeech

// The media performer: the runner's side of the engine's play, listen, recognise and record actions, with live
// speech (streaming playback, listening, barge-in) or file-based engines.
extension VoiceFlowRunner {
    // MARK: Live listening and barge-in

    func startListening(_ plan: RecognitionPlan) {
        guard let live else { return }
        stopListening()
        let listening = LiveListening(plan: plan) { [weak self] in await self?.callerSpoke() }
        self.listening = listening
        speechHeard = false
        bargeInPending = false
        Task { await listening.start(recognizer: live.recognizer, audio: live.callerAudio) }
    }

    func stopListening() {
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

    func awaitListening() async -> Engine.Input? {
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

    func playSegment(_ segment: PlaybackSegment) async -> Engine.Input? {
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

    func play(_ segment: PlaybackSegment) -> @Sendable () async -> Engine.Input {
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

    func recognize(_ plan: RecognitionPlan) -> @Sendable () async -> Engine.Input {
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

    func recordAudio(_ plan: RecordingPlan) -> @Sendable () async -> Engine.Input {
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
}

/// How far a live playback has handed out its audio.
private actor PlaybackProgress {
    private(set) var position = Duration.zero

    func set(_ position: Duration) {
        self.position = position
    }
}
