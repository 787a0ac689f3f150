/// The 44-byte header of a streamed WAV file: mono, 16-bit PCM at a sample rate, with the sizes unknown.
///
/// A stream's length is not known when its header goes out, so both sizes are `0xFFFFFFFF`, the value streaming
/// writers use for "until the end"; Oracle's Web SDK reads only the channel count and the sample rate from it.
enum WAVHeader {
    /// The header's bytes.
    static func bytes(sampleRate: Int) -> [UInt8] {
        var header: [UInt8] = []
        header.reserveCapacity(44)
        func append(_ text: String) { header += Array(text.utf8) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        let rate = UInt32(clamping: sampleRate)
        append("RIFF")
        append32(.max)
        append("WAVE")
        append("fmt ")
        append32(16)  // the fmt chunk's size
        append16(1)  // PCM
        append16(1)  // mono
        append32(rate)
        append32(rate &* 2)  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        append("data")
        append32(.max)
        return header
    }
}
