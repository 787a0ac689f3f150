/// sox's description of what recognizers take: headerless 16 kHz mono 16-bit signed little-endian PCM on standard
/// input or output (`-`).
enum SoxFormat {
    /// `-t raw -r 16000 -c 1 -b 16 -e signed-integer -L -`: after an input the output; for `rec`, what it records.
    static let raw16k = raw(sampleRate: AudioBuffer.recognitionSampleRate)

    /// The same at `sampleRate`.
    static func raw(sampleRate: Int) -> [String] {
        ["-t", "raw", "-r", String(sampleRate), "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-"]
    }
}
