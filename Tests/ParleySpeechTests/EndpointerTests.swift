import ParleyCore
import Testing

@testable import ParleySpeech

@Suite("Endpointer: the life of one utterance")
struct EndpointerTests {
    /// 1 s of no-speech timeout and 2 s of maximum speech, at 16 kHz: 100 ms is 1,600 samples.
    func endpointer() -> Endpointer {
        Endpointer(noSpeechTimeout: .seconds(1), maxSpeech: .seconds(2))
    }

    @Test func speechThenSilenceEndsTheUtterance() {
        var machine = endpointer()
        #expect(machine.audio(count: 1_600, inSpeech: false) == [])
        #expect(machine.audio(count: 1_600, inSpeech: true) == [.speechStarted(at: .milliseconds(100))])
        #expect(machine.speechStart == 1_600)
        #expect(machine.audio(count: 1_600, inSpeech: true) == [])
        #expect(machine.audio(count: 1_600, inSpeech: false) == [.endOfSpeech])
        #expect(machine.state == .ended)
        #expect(machine.audio(count: 1_600, inSpeech: true) == [], "nothing after the end")
        #expect(machine.audioDone() == [])
        #expect(machine.position == 6_400, "audio after the end is not counted")
    }

    @Test func noSpeechWithinTheTimeout() {
        var machine = endpointer()
        for _ in 0..<9 { #expect(machine.audio(count: 1_600, inSpeech: false) == []) }
        #expect(machine.audio(count: 1_600, inSpeech: false) == [.noSpeech(after: .seconds(1))])
        #expect(machine.state == .ended)
        var late = endpointer()
        #expect(late.audio(count: 20_000, inSpeech: false) == [.noSpeech(after: .milliseconds(1_250))])
        var atTheEdge = endpointer()
        #expect(atTheEdge.audio(count: 16_000, inSpeech: true) == [.speechStarted(at: .zero)], "speech wins")
    }

    @Test func tooMuchSpeech() {
        var machine = endpointer()
        #expect(machine.audio(count: 1_600, inSpeech: true) == [.speechStarted(at: .zero)])
        for _ in 0..<18 { #expect(machine.audio(count: 1_600, inSpeech: true) == []) }
        #expect(machine.audio(count: 1_600, inSpeech: true) == [.tooMuchSpeech])
        var atOnce = endpointer()
        #expect(atOnce.audio(count: 40_000, inSpeech: true) == [.speechStarted(at: .zero), .tooMuchSpeech])
    }

    @Test func audioDoneForcesTheEndInEitherState() {
        var listening = endpointer()
        #expect(listening.audioDone() == [.endOfSpeech])
        #expect(listening.audioDone() == [])
        var speaking = endpointer()
        _ = speaking.audio(count: 800, inSpeech: true)
        #expect(speaking.audioDone() == [.endOfSpeech])
        var cancelled = endpointer()
        cancelled.cancel()
        #expect(cancelled.audio(count: 32_000, inSpeech: true) == [])
        #expect(cancelled.audioDone() == [])
    }
}
