/// A piece of mono, 16-bit signed linear PCM audio and its sample rate: what audio sources produce, recognizers
/// consume and synthesisers speak.
///
/// Recognition wants 16 kHz (``recognitionSampleRate``), the format Oracle's speech socket carries; espeak-ng speaks
/// at 22,050 Hz. Stereo is never carried: sources mix down before they hand audio out.
public struct AudioBuffer: Sendable, Hashable {
    /// The rate every recognizer in this module takes: 16,000 samples a second.
    public static let recognitionSampleRate = 16_000

    /// The samples, in order.
    public var samples: [Int16]
    /// Samples per second.
    public var sampleRate: Int

    /// Creates a buffer of `samples` at `sampleRate`.
    public init(samples: [Int16], sampleRate: Int = AudioBuffer.recognitionSampleRate) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// How long the buffer plays.
    public var duration: Duration {
        Self.duration(ofSamples: samples.count, sampleRate: sampleRate)
    }

    /// The samples as little-endian bytes, as the speech socket and `sox -t raw` carry them.
    public var littleEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }

    /// The time `count` samples take at `sampleRate` (exact to the nanosecond for the usual rates).
    public static func duration(ofSamples count: Int, sampleRate: Int) -> Duration {
        guard sampleRate > 0 else { return .zero }
        let seconds = count / sampleRate
        let rest = count % sampleRate
        return .seconds(seconds) + .nanoseconds(Int64(rest) * 1_000_000_000 / Int64(sampleRate))
    }

    /// The number of whole samples in `duration` at `sampleRate`.
    public static func samples(in duration: Duration, sampleRate: Int) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * sampleRate + Int(attoseconds / 1_000_000_000 * Int64(sampleRate) / 1_000_000_000)
    }
}

/// Turns little-endian byte chunks of any length into samples, keeping an odd last byte for the next chunk.
///
/// Chromium's recorder sends the speech socket chunks of about 3 kB that need not end on a sample; programs'
/// pipes do the same.
///
/// ```swift
/// var framer = PCMFramer()
/// framer.append([0x01])          // []: half a sample waits
/// framer.append([0x02, 0x03])    // [0x0201]: the pending byte completes a sample; 0x03 waits
/// ```
public struct PCMFramer: Sendable, Hashable {
    private var pending: UInt8?

    /// Creates a framer with nothing pending.
    public init() {}

    /// Whether half a sample waits for its second byte.
    public var hasPendingByte: Bool { pending != nil }

    /// The samples `bytes` complete.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(bytes.underestimatedCount / 2 + 1)
        for byte in bytes {
            if let low = pending {
                samples.append(Int16(bitPattern: UInt16(low) | UInt16(byte) << 8))
                pending = nil
            } else {
                pending = byte
            }
        }
        return samples
    }
}
