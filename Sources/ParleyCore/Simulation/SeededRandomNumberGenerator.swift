/// A random number generator that gives the same sequence for the same seed (SplitMix64), so that a test that
/// draws random delays, jitter or faults can be replayed exactly.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let delay = Double.random(in: 0..<1, using: &generator)
/// ```
///
/// Not for cryptography.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's state; advances by a fixed odd constant on every draw.
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits (SplitMix64, as in Steele, Lea and Flood, "Fast splittable pseudorandom number
    /// generators", 2014).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
