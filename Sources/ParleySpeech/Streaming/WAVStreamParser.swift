public import ParleyCore

/// Reads a WAV stream as it arrives — the header first, then samples — without waiting for its end.
///
/// Programs that write WAV to a pipe (`espeak-ng --stdout`) cannot know the length when they write the header,
/// so the sizes in it are placeholders; only the format is read, and everything after the `data` chunk's header is
/// audio. Mono 16-bit PCM only, what speech engines write.
///
/// ```swift
/// var parser = WAVStreamParser()
/// let samples = try parser.append(chunk)   // [] until the header is complete
/// parser.sampleRate                       // 22_050 for espeak-ng
/// ```
public struct WAVStreamParser: Sendable, Hashable {
    /// The sample rate, once the `fmt ` chunk has been read.
    public private(set) var sampleRate: Int?
    private var header: [UInt8] = []
    private var inData = false
    private var framer = PCMFramer()

    /// Creates a parser waiting for the `RIFF` header.
    public init() {}

    /// Takes the next bytes and returns the samples they complete.
    /// - Throws: `speech.badAudio` when the stream is not a WAV, or not mono 16-bit PCM.
    public mutating func append(_ bytes: [UInt8]) throws(ParleyError) -> [Int16] {
        if inData { return framer.append(bytes) }
        header += bytes
        if header.count >= 12 {
            guard header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("WAVE".utf8) else {
                throw ParleyError(.badAudio, "not a WAV stream: it does not start with RIFF…WAVE")
            }
        }
        var offset = 12
        while header.count >= offset + 8 {
            let identifier = String(decoding: header[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian32(at: offset + 4))
            let body = offset + 8
            if identifier == "data" {
                guard sampleRate != nil else { throw ParleyError(.badAudio, "the WAV stream has no fmt chunk") }
                inData = true
                let rest = Array(header[body...])
                header = []
                return framer.append(rest)
            }
            // Any other chunk is read whole before going on: the sizes before `data` are real.
            guard header.count >= body + size else { return [] }
            if identifier == "fmt " {
                guard size >= 16 else { throw ParleyError(.badAudio, "the WAV fmt chunk is \(size) bytes") }
                let encoding = littleEndian16(at: body)
                let channels = littleEndian16(at: body + 2)
                let bits = littleEndian16(at: body + 14)
                guard encoding == 1, channels == 1, bits == 16 else {
                    throw ParleyError(
                        .badAudio,
                        "the WAV stream is format \(encoding), \(channels) channels, \(bits) bits: mono 16-bit PCM "
                            + "(format 1) is read")
                }
                sampleRate = Int(littleEndian32(at: body + 4))
            }
            offset = body + size + size % 2
        }
        return []
    }

    private func littleEndian16(at index: Int) -> UInt16 {
        UInt16(header[index]) | UInt16(header[index + 1]) << 8
    }

    private func littleEndian32(at index: Int) -> UInt32 {
        UInt32(littleEndian16(at: index)) | UInt32(littleEndian16(at: index + 2)) << 16
    }
}

extension WAVStreamParser {
    /// The samples of a whole mono 16-bit WAV file's bytes.
    static func samples(of data: some Sequence<UInt8>) throws(ParleyError) -> [Int16] {
        var parser = WAVStreamParser()
        return try parser.append(Array(data))
    }
}
