import Foundation
import ParleyCore
import Testing

@testable import ParleySpeech

/// Generated PCM: silence, square waves and sines of known level.
enum Signal {
    /// `count` samples of digital silence.
    static func silence(_ count: Int) -> [Int16] { Array(repeating: 0, count: count) }

    /// A square wave of `amplitude` (0 to 1 of full scale), period 32 samples.
    static func square(_ count: Int, amplitude: Double) -> [Int16] {
        let value = Int16((amplitude * 32_767).rounded())
        return (0..<count).map { ($0 / 16) % 2 == 0 ? value : -value }
    }

    /// A 500 Hz sine at 16 kHz of `amplitude`.
    static func sine(_ count: Int, amplitude: Double) -> [Int16] {
        (0..<count).map { Int16((amplitude * 32_767 * sin(2 * Double.pi * 500 * Double($0) / 16_000)).rounded()) }
    }
}

@Suite("Audio values: buffers, bytes, level, voice activity, WAV streams")
struct AudioAnalysisTests {
    @Test func bytesBecomeSamplesWhateverTheChunking() {
        let samples: [Int16] = [0, 1, -1, 256, -32_768, 32_767, 0x1234]
        let bytes = AudioBuffer(samples: samples).littleEndianBytes
        #expect(bytes.prefix(6) == [0, 0, 1, 0, 0xFF, 0xFF])
        for size in 1...bytes.count {
            var framer = PCMFramer()
            var out: [Int16] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                out += framer.append(bytes[start..<min(start + size, bytes.count)])
            }
            #expect(out == samples, "chunks of \(size) bytes")
            #expect(!framer.hasPendingByte)
        }
        var framer = PCMFramer()
        #expect(framer.append([0x01]) == [])
        #expect(framer.hasPendingByte)
        #expect(framer.append([0x02, 0x03]) == [0x0201])
        #expect(framer.hasPendingByte)
    }

    @Test func durationsAndSampleCountsAgree() {
        #expect(AudioBuffer(samples: Signal.silence(16_000)).duration == .seconds(1))
        #expect(AudioBuffer(samples: Signal.silence(1_600)).duration == .milliseconds(100))
        #expect(AudioBuffer(samples: Signal.silence(22_050), sampleRate: 22_050).duration == .seconds(1))
        #expect(AudioBuffer.duration(ofSamples: 1, sampleRate: 16_000) == .microseconds(62) + .nanoseconds(500))
        #expect(AudioBuffer.samples(in: .milliseconds(500), sampleRate: 16_000) == 8_000)
        #expect(AudioBuffer.samples(in: .seconds(2) + .milliseconds(10), sampleRate: 22_050) == 44_320)
        #expect(AudioBuffer.duration(ofSamples: 5, sampleRate: 0) == .zero)
    }

    @Test func levelsAreRelativeToFullScale() {
        let full = AudioLevel(samples: Signal.square(3_200, amplitude: 1))
        #expect(abs(full.rms - 32_767.0 / 32_768) < 1e-9)
        #expect(abs(full.dBFS) < 0.001)
        let half = AudioLevel(samples: Signal.square(3_200, amplitude: 0.5))
        #expect(abs(half.dBFS - -6.02) < 0.01)
        let sine = AudioLevel(samples: Signal.sine(3_200, amplitude: 1))
        #expect(abs(sine.dBFS - -3.01) < 0.01, "a full-scale sine is 3 dB under a full-scale square")
        let quiet = AudioLevel(samples: Signal.square(320, amplitude: 0.001))
        #expect(abs(quiet.dBFS - -60) < 0.1)
        #expect(AudioLevel(samples: Signal.silence(320)) == AudioLevel(samples: [Int16]()))
        #expect(AudioLevel(samples: Signal.silence(320)).dBFS == AudioLevel.floor)
        #expect(abs(AudioLevel(samples: [Int16(1)]).dBFS - -90.31) < 0.01, "one LSB is above the floor")
        #expect(AudioLevel(AudioBuffer(samples: Signal.square(320, amplitude: 0.5))) == half)
    }

    /// Silence, 1 s of tone, silence: the start and end land on frame boundaries given by onset and hangover.
    @Test func speechIsFoundWithOnsetAndHangoverWhateverTheChunking() {
        let audio = Signal.silence(4_800) + Signal.square(16_000, amplitude: 0.1) + Signal.silence(16_000)
        let parameters = VoiceActivityParameters()
        let expected: [VoiceActivityDetector.Change] = [
            .speechStarted(atSample: 4_800), .speechEnded(atSample: 20_800),
        ]
        for size in [1, 7, 319, 320, 321, 1_600, 3_001, audio.count] {
            var detector = VoiceActivityDetector(parameters: parameters)
            var changes: [VoiceActivityDetector.Change] = []
            var speakingAfterTone = false
            for start in stride(from: 0, to: audio.count, by: size) {
                changes += detector.process(audio[start..<min(start + size, audio.count)])
                if detector.position == 20_800 + 320 { speakingAfterTone = detector.isSpeaking }
            }
            #expect(changes == expected, "chunks of \(size)")
            #expect(detector.position == audio.count)
            #expect(!detector.isSpeaking)
            if size <= 320 {
                #expect(speakingAfterTone, "the hangover holds speech after the tone (chunks of \(size))")
            }
        }
    }

    @Test func shortBurstsAndShortPausesDoNotChangeTheState() {
        var detector = VoiceActivityDetector()
        // Two voiced frames: fewer than the onset's three.
        #expect(detector.process(Signal.square(640, amplitude: 0.5) + Signal.silence(3_200)) == [])
        #expect(!detector.isSpeaking)
        // Speech, a 400 ms pause (shorter than the 500 ms hangover), speech, then a long silence.
        let changes = detector.process(
            Signal.square(3_200, amplitude: 0.5) + Signal.silence(6_400) + Signal.square(3_200, amplitude: 0.5)
                + Signal.silence(9_600))
        #expect(changes == [.speechStarted(atSample: 3_840), .speechEnded(atSample: 3_840 + 12_800)])
    }

    @Test func theThresholdDecidesWhatIsVoiced() {
        // A tone at −46 dBFS is quiet for the default −40 dBFS threshold and voiced for −50.
        let tone = Signal.square(3_200, amplitude: 0.005)
        var strict = VoiceActivityDetector()
        #expect(strict.process(tone) == [])
        #expect(abs(strict.lastLevel.dBFS - -46.02) < 0.05)
        var lenient = VoiceActivityDetector(parameters: VoiceActivityParameters(threshold: -50))
        #expect(lenient.process(tone) == [.speechStarted(atSample: 0)])
        let custom = VoiceActivityParameters(frameLength: 160, onsetFrames: 0, hangoverFrames: 0)
        #expect(custom.onsetFrames == 1 && custom.hangoverFrames == 1)
        #expect(VoiceActivityParameters().withHangover(.milliseconds(300), sampleRate: 16_000).hangoverFrames == 15)
        #expect(VoiceActivityParameters().withHangover(.zero, sampleRate: 16_000).hangoverFrames == 1)
    }

    @Test func aWAVStreamIsReadAsItArrives() throws {
        var header: [UInt8] = Array("RIFF".utf8) + [0x24, 0xF0, 0xFF, 0x7F] + Array("WAVE".utf8)
        header += Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x22, 0x56, 0, 0, 0x44, 0xAC, 0, 0, 2, 0, 16, 0]
        header += Array("LIST".utf8) + [3, 0, 0, 0, 1, 2, 3, 0]  // an odd-sized chunk, padded
        header += Array("data".utf8) + [0x00, 0xF0, 0xFF, 0x7F]
        let samples: [Int16] = [1, -2, 300, -400, 5]
        let stream = header + AudioBuffer(samples: samples).littleEndianBytes
        for size in [1, 2, 5, 13, 44, stream.count] {
            var parser = WAVStreamParser()
            var out: [Int16] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                out += try parser.append(Array(stream[start..<min(start + size, stream.count)]))
            }
            #expect(out == samples, "chunks of \(size)")
            #expect(parser.sampleRate == 22_050)
        }
        var notWAV = WAVStreamParser()
        #expect(throws: ParleyError(.badAudio, "not a WAV stream: it does not start with RIFF…WAVE")) {
            try notWAV.append(Array("OggS and more bytes".utf8))
        }
        var stereo = WAVStreamParser()
        var stereoHeader = header
        stereoHeader[22] = 2
        #expect(throws: ParleyError.self) { try stereo.append(stereoHeader) }
    }

    @Test func theInMemorySourceCutsItsAudio() async throws {
        let audio = AudioBuffer(samples: (0..<3_500).map { Int16($0 % 100) })
        let chunks = try await BufferAudioSource(audio).frames().collect()
        #expect(chunks.map(\.samples.count) == [1_600, 1_600, 300])
        #expect(chunks.flatMap(\.samples) == audio.samples)
        #expect(try await BufferAudioSource(AudioBuffer(samples: [])).frames().collect() == [])
    }

    @Test func fixedPermissionsAnswerFromTheirTable() async {
        let source = FixedPermissionSource([.microphone: .waiting, .speechRecognition: .granted])
        #expect(await source.status(of: .microphone) == .waiting)
        #expect(await source.request(.microphone) == .denied(reason: "microphone: nobody answered"))
        #expect(await source.request(.speechRecognition) == .granted)
        #expect(await FixedPermissionSource([:]).request(.microphone) == .denied(reason: "no answer for microphone"))
        #expect(await FixedPermissionSource.grantingAll.request(.microphone) == .granted)
        var events: [PermissionStatus] = []
        for await event in source.requestEvents(.microphone) { events.append(event) }
        #expect(events == [.waiting, .denied(reason: "microphone: nobody answered")])
        events = []
        for await event in source.requestEvents(.speechRecognition) { events.append(event) }
        #expect(events == [.granted], "no wait when the answer is known")
    }
}
