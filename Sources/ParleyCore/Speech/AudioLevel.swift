import Foundation

/// How loud a piece of audio is: for a visualizer's level meter, and the measure ParleySpeech's
/// `VoiceActivityDetector` uses.
///
/// The RMS is relative to full scale (32,768), so a full-scale square wave is 1.0 (0 dBFS) and a full-scale sine
/// 0.707 (−3.01 dBFS: the square-wave reference, not AES17's sine reference). Silence is ``floor`` rather than −∞.
public struct AudioLevel: Sendable, Hashable {
    /// The lowest level reported, −96 dBFS: about the quietest 16-bit audio can be.
    public static let floor: Double = -96

    /// Root mean square of the samples, 0 to 1.
    public var rms: Double
    /// ``rms`` in decibels relative to full scale, from ``floor`` to 0.
    public var dBFS: Double

    /// The level of `samples` (``floor`` and 0 for none).
    public init(samples: some Collection<Int16>) {
        guard !samples.isEmpty else {
            rms = 0
            dBFS = Self.floor
            return
        }
        var sum = 0.0
        for sample in samples {
            let value = Double(sample) / 32_768
            sum += value * value
        }
        rms = (sum / Double(samples.count)).squareRoot()
        dBFS = rms > 0 ? max(Self.floor, 20 * log10(rms)) : Self.floor
    }
}
