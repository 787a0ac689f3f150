import Foundation
public import ParleyCore

extension AudioLevel {
    /// The level of `buffer`.
    public init(_ buffer: AudioBuffer) {
        self.init(samples: buffer.samples)
    }
}

/// The settings of ``VoiceActivityDetector``.
///
/// The defaults suit close-talking microphones and synthesised speech at 16 kHz: 20 ms frames, voiced above
/// −40 dBFS, speech after 3 voiced frames in a row (60 ms), ended after 25 quiet ones (500 ms of hangover).
public struct VoiceActivityParameters: Sendable, Hashable {
    /// Samples per analysis frame (320: 20 ms at 16 kHz).
    public var frameLength: Int
    /// A frame is voiced when its level is above this many dBFS.
    public var threshold: Double
    /// Voiced frames in a row that start speech (the start is the first of them).
    public var onsetFrames: Int
    /// Quiet frames in a row that end speech (the end is the first of them): the hangover that bridges the
    /// pauses between words.
    public var hangoverFrames: Int

    /// Creates parameters; counts below 1 are taken as 1.
    public init(frameLength: Int = 320, threshold: Double = -40, onsetFrames: Int = 3, hangoverFrames: Int = 25) {
        self.frameLength = max(1, frameLength)
        self.threshold = threshold
        self.onsetFrames = max(1, onsetFrames)
        self.hangoverFrames = max(1, hangoverFrames)
    }

    /// The parameters with a hangover of `silence` at `sampleRate` (at least one frame).
    public func withHangover(_ silence: Duration, sampleRate: Int) -> Self {
        var copy = self
        copy.hangoverFrames = max(1, AudioBuffer.samples(in: silence, sampleRate: sampleRate) / frameLength)
        return copy
    }
}

/// Where speech starts and ends, from the energy of the audio: an energy detector with onset and hangover.
///
/// A value: feed it samples in chunks of any size (it keeps a partial frame for the next chunk) and it returns
/// the changes, placed in samples from the start of the audio, so the same audio gives the same answer however
/// it is cut.
///
/// ```swift
/// var detector = VoiceActivityDetector()
/// for change in detector.process(chunk.samples) { print(change) }   // .speechStarted(atSample: 4_800) …
/// ```
public struct VoiceActivityDetector: Sendable, Hashable {
    /// A change of state.
    public enum Change: Sendable, Hashable {
        /// Speech starts at this sample.
        case speechStarted(atSample: Int)
        /// Speech ended at this sample (the first quiet frame of the hangover).
        case speechEnded(atSample: Int)
    }

    /// The settings.
    public let parameters: VoiceActivityParameters
    /// Whether speech is going on (the hangover counts as speech).
    public private(set) var isSpeaking = false
    /// The level of the last whole frame.
    public private(set) var lastLevel = AudioLevel(samples: [Int16]())
    /// Samples taken in whole frames so far.
    public private(set) var position = 0

    private var partial: [Int16] = []
    private var voicedRun = 0
    private var quietRun = 0

    /// Creates a detector.
    public init(parameters: VoiceActivityParameters = VoiceActivityParameters()) {
        self.parameters = parameters
    }

    /// Takes `samples` and returns the changes they bring, in order.
    public mutating func process(_ samples: some Collection<Int16>) -> [Change] {
        var changes: [Change] = []
        partial.append(contentsOf: samples)
        let length = parameters.frameLength
        var start = 0
        while partial.count - start >= length {
            let level = AudioLevel(samples: partial[start..<start + length])
            if let change = step(voiced: level.dBFS > parameters.threshold) { changes.append(change) }
            lastLevel = level
            position += length
            start += length
        }
        partial.removeFirst(start)
        return changes
    }

    private mutating func step(voiced: Bool) -> Change? {
        let length = parameters.frameLength
        if voiced {
            voicedRun += 1
            quietRun = 0
            if !isSpeaking, voicedRun >= parameters.onsetFrames {
                isSpeaking = true
                return .speechStarted(atSample: position - (parameters.onsetFrames - 1) * length)
            }
        } else {
            voicedRun = 0
            guard isSpeaking else { return nil }
            quietRun += 1
            if quietRun >= parameters.hangoverFrames {
                isSpeaking = false
                quietRun = 0
                return .speechEnded(atSample: position - (parameters.hangoverFrames - 1) * length)
            }
        }
        return nil
    }
}
