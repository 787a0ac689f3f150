#if canImport(Subprocess)
    import Foundation
    import ParleyCore

    /// The framed protocol between ``WhisperRecognizer`` and its worker (`whisper_worker.py`): each frame is `PRLY`,
    /// a big-endian `UInt32` header length, the header (a JSON object), a big-endian `UInt32` payload length and the
    /// payload (16 kHz mono 16-bit little-endian PCM in a request; empty in a reply).
    enum WhisperFrames {
        /// The four bytes every frame starts with.
        static let magic: [UInt8] = Array("PRLY".utf8)
        /// The largest header either side accepts.
        static let maxHeader = 64 * 1024

        /// A frame with `header` and `payload`.
        static func encode(header: some Encodable, payload: [UInt8] = []) -> [UInt8] {
            let body = (try? JSONEncoder().encode(header)).map { Array($0) } ?? Array("{}".utf8)
            return magic + bigEndian(body.count) + body + bigEndian(payload.count) + payload
        }

        /// The samples as 16-bit little-endian bytes.
        static func pcm(_ samples: [Int16]) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(samples.count * 2)
            for sample in samples {
                let value = UInt16(bitPattern: sample)
                bytes.append(UInt8(value & 0xFF))
                bytes.append(UInt8(value >> 8))
            }
            return bytes
        }

        static func bigEndian(_ value: Int) -> [UInt8] {
            let value = UInt32(clamping: value)
            return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
    }

    /// Cuts the worker's standard output into reply headers, whatever the pipe's chunks.
    struct WhisperFrameParser: Sendable {
        private var buffer: [UInt8] = []

        /// The headers of the frames completed by `bytes`.
        /// - Throws: `speech.engineFailed` when the output is not frames (the worker printed something else).
        mutating func append(_ bytes: some Sequence<UInt8>) throws(ParleyError) -> [Data] {
            buffer.append(contentsOf: bytes)
            var headers: [Data] = []
            var start = 0
            while buffer.count - start >= 8 {
                guard Array(buffer[start..<start + 4]) == WhisperFrames.magic else {
                    let text = String(decoding: buffer[start...].prefix(80), as: UTF8.self)
                    throw ParleyError(
                        .speechEngineFailed, "the Whisper worker wrote something that is not a frame: \(text)")
                }
                let headerLength = Self.integer(buffer, at: start + 4)
                guard headerLength <= WhisperFrames.maxHeader else {
                    throw ParleyError(.speechEngineFailed, "the Whisper worker wrote a header of \(headerLength) bytes")
                }
                guard buffer.count - start >= 12 + headerLength else { break }
                let payloadLength = Self.integer(buffer, at: start + 8 + headerLength)
                let end = start + 12 + headerLength + payloadLength
                guard buffer.count >= end else { break }
                headers.append(Data(buffer[start + 8..<start + 8 + headerLength]))
                start = end
            }
            buffer.removeFirst(start)
            return headers
        }

        private static func integer(_ bytes: [UInt8], at index: Int) -> Int {
            Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        }
    }

    /// A request to the worker.
    struct WhisperRequest: Encodable, Sendable {
        var op = "decode"
        var id: Int
        var language = "en"
        var prompt: String?
        var beams = 1
        var alternatives = 1
        var padSeconds: Double
    }

    /// A frame from the worker: its `ready` or `failed` event, or the answer to a request.
    struct WhisperReply: Decodable, Sendable {
        struct Failure: Decodable, Sendable {
            var code: String
            var message: String
        }

        struct Alternative: Decodable, Sendable {
            var text: String
            var confidence: Double?
        }

        struct Timings: Decodable, Sendable, Hashable {
            var features: Double
            var encode: Double
            var decode: Double
            var total: Double
        }

        var id: Int?
        var event: String?
        var error: Failure?
        var ok: Bool?
        var text: String?
        var alternatives: [Alternative]?
        var noSpeech: Double?
        var audioSeconds: Double?
        var timings: Timings?
        var loadSeconds: Double?
        var pid: Int32?
    }
#endif
