import Foundation
import ParleyCore
import ParleySpeech

/// A `recordAudio` module's recording from live caller audio: 16 kHz mono 16-bit WAV, stopped by the module's
/// `stopRecordParams`.
///
/// Stop reasons (`goToForStopRecordReason` keys): `maxAudioExceeded` (`maxAudioLengthMs`/`maxRecordLengthMs` of
/// audio), and with `enableVAD` `maxPreSpeechSilenceExceeded` (no speech within `maxPreSpeechSilenceLengthMs`) and
/// `maxPostSpeechSilenceExceeded` (that much silence after speech); `endOfAudio` when the source ends. Without
/// `enableVAD` nothing tells speech from silence, so the silence limits do not apply and the recording runs to its
/// length limit, the end of the source, or `stop()`.
enum LiveRecording {
    static func record(_ plan: RecordingPlan, from source: any AudioSource, to file: URL) async throws(ParleyError)
        -> RecordingResult
    {
        let rate = AudioBuffer.recognitionSampleRate
        func samples(_ limit: Duration?) -> Int? { limit.map { AudioBuffer.samples(in: $0, sampleRate: rate) } }
        let maxLength = samples(plan.maxLength)
        let preSilence = plan.voiceActivity == nil ? nil : samples(plan.maxPreSpeechSilence)
        let postSilence = plan.voiceActivity == nil ? nil : samples(plan.maxPostSpeechSilence)
        var detector = plan.voiceActivity.map { VoiceActivityDetector(parameters: $0.parameters) }
        var recorded: [Int16] = []
        var speechEnd: Int?
        var spoke = false
        var reason = "endOfAudio"
        loop: for try await chunk in source.frames() {
            if Task.isCancelled { throw ParleyError(.speechCancelled, "the recording was stopped") }
            recorded += chunk.samples
            for change in detector?.process(chunk.samples) ?? [] {
                switch change {
                case .speechStarted:
                    spoke = true
                    speechEnd = nil
                case .speechEnded(let sample):
                    speechEnd = sample
                }
            }
            if let maxLength, recorded.count >= maxLength {
                recorded.removeLast(recorded.count - maxLength)
                reason = "maxAudioExceeded"
                break loop
            }
            if let preSilence, !spoke, recorded.count >= preSilence {
                reason = "maxPreSpeechSilenceExceeded"
                break loop
            }
            // The detector's hangover is part of the silence after speech.
            if let postSilence, spoke, let end = speechEnd, recorded.count - end >= postSilence {
                reason = "maxPostSpeechSilenceExceeded"
                break loop
            }
        }
        do {
            try wav(recorded, sampleRate: rate).write(to: file)
        } catch {
            throw ParleyError(.fileNotFound, "cannot write \(file.path)", underlying: error)
        }
        return RecordingResult(file: file, stopReason: reason)
    }

    /// A 16-bit mono PCM WAV file of `samples`.
    static func wav(_ samples: [Int16], sampleRate: Int) -> Data {
        var data = Data()
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8))
        append(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(sampleRate))
        append(UInt32(sampleRate * 2))
        append(UInt16(2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(bytes)
        data.append(contentsOf: AudioBuffer(samples: samples, sampleRate: sampleRate).littleEndianBytes)
        return data
    }
}
