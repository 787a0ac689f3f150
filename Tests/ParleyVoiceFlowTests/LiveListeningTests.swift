import ParleyCore
import ParleySpeech
import Testing

@testable import ParleyVoiceFlow

/// One listening's recognition sessions, with a recognizer the test drives: what the caller says while the next
/// session opens reaches that session.
@Suite("Live listening", .timeLimit(.minutes(1)))
struct LiveListeningTests {
    /// The first session ends on noise at its first audio (as PocketSphinx does); the second opens only when the test
    /// lets it, and answers with how many samples it got once the audio ends. Before the fix, the audio fed while it
    /// opened went to the ended first session, and its end too: the second got nothing and never answered.
    @Test func theAudioFedWhileTheNextSessionOpensReachesIt() async throws {
        let recognizer = GatedRecognizer()
        let (frames, caller) = SpeechStream<AudioBuffer>.makeStream()
        let listening = LiveListening(plan: RecognitionPlan(moduleID: "Ask"), onSpeech: {})
        await listening.start(recognizer: recognizer, audio: OneTurn(frames: frames))

        let chunk = AudioBuffer(samples: Array(repeating: 0, count: 1_600))
        caller.yield(chunk)  // the first session takes it for noise and ends
        await recognizer.secondSessionAsked.wait()
        for _ in 0..<4 { caller.yield(chunk) }  // while the second opens
        caller.finish()
        while await listening.fed < 8_000 { await Task.yield() }  // every chunk is in, the second still opening
        recognizer.gate.open()

        let outcome = await listening.next()
        #expect(outcome == .final("6400"), "the four chunks fed while the second session opened, and their end")
    }

    struct OneTurn: CallerAudio {
        let frames: SpeechStream<AudioBuffer>

        func nextTurn() async throws(ParleyError) -> any AudioSource { Source(audio: frames) }

        struct Source: AudioSource {
            let audio: SpeechStream<AudioBuffer>
            func frames() -> SpeechStream<AudioBuffer> { audio }
        }
    }

    /// A one-shot signal.
    final class Signal: Sendable {
        private let (stream, continuation) = AsyncStream<Void>.makeStream()

        func open() { continuation.finish() }
        func wait() async { for await _ in stream {} }
    }

    struct GatedRecognizer: StreamingRecognizer {
        let engine = "gated"
        let secondSessionAsked = Signal()
        let gate = Signal()
        private let sessions = Counter()

        func locales() async -> [String] { ["en-US"] }

        func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError) -> any RecognitionSession {
            if await sessions.next() == 1 { return NoiseSession() }
            secondSessionAsked.open()
            await gate.wait()
            return CountingSession()
        }
    }

    actor Counter {
        private var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    /// Ends without words at its first audio.
    final class NoiseSession: RecognitionSession, Sendable {
        private let (stream, continuation) = SpeechStream<RecognitionEvent>.makeStream()
        var events: SpeechStream<RecognitionEvent> { stream }

        func feed(_ audio: AudioBuffer) async throws(ParleyError) {
            continuation.yield(.noSpeech(after: .zero))
            continuation.finish()
        }
        func feed(bytes: [UInt8]) async throws(ParleyError) {}
        func finishAudio() async {}
        func cancel() async { continuation.finish() }
    }

    /// Counts the samples it gets; at the end of the audio, answers their number.
    actor CountingSession: RecognitionSession {
        private let (stream, continuation) = SpeechStream<RecognitionEvent>.makeStream()
        private var samples = 0
        nonisolated var events: SpeechStream<RecognitionEvent> { stream }

        func feed(_ audio: AudioBuffer) async throws(ParleyError) { samples += audio.samples.count }
        func feed(bytes: [UInt8]) async throws(ParleyError) {}
        func finishAudio() async {
            continuation.yield(.final(RecognitionResult(text: String(samples))))
            continuation.finish()
        }
        func cancel() async { continuation.finish() }
    }
}
