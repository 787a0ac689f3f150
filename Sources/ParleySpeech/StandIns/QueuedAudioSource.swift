public import Foundation
public import ParleyCore

/// A stand-in microphone that "records" prepared audio files in order: how Linux tests and the CLI feed the
/// user's speech to a voice flow.
public actor QueuedAudioSource: AudioRecorder {
    private var files: [URL]

    /// Creates a source that hands out `files` in order.
    public init(files: [URL]) {
        self.files = files
    }

    /// Adds a file to the end of the queue.
    public func enqueue(_ file: URL) {
        files.append(file)
    }

    /// Copies the next file to `request.file`.
    /// - Throws: `speech.noMoreAudio` when the queue is empty.
    public func record(_ request: RecordingRequest) async throws(ParleyError) -> RecordingResult {
        guard !files.isEmpty else { throw ParleyError(.noMoreAudio, "the audio queue is empty") }
        let next = files.removeFirst()
        do {
            try? FileManager.default.removeItem(at: request.file)
            try FileManager.default.copyItem(at: next, to: request.file)
        } catch {
            throw ParleyError(.audioFileMissing, "cannot copy \(next.path)", underlying: error)
        }
        return RecordingResult(file: request.file, stopReason: "endOfSpeech")
    }
}
