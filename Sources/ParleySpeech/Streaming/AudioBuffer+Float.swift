extension AudioBuffer {
    /// The samples as floats in -1…1, the format Apple's audio engine plays (`AVAudioPlayerNode` takes 32-bit float
    /// PCM): each sample divided by 32,768.
    public var floatSamples: [Float] {
        samples.map { Float($0) / 32_768 }
    }

    /// 16-bit samples from floats in -1…1 (what a microphone or a synthesiser hands out on Apple platforms): clipped
    /// to ±1 and scaled by 32,767, rounded to the nearest; NaN is silence.
    public static func int16Samples(fromFloat samples: some Sequence<Float>) -> [Int16] {
        samples.map { $0.isNaN ? 0 : Int16((Swift.max(-1, Swift.min(1, $0)) * 32_767).rounded()) }
    }
}
