public import ParleyCore

/// Splits a `text/event-stream` body into its events' data, as bytes arrive in pieces of any size.
///
/// Lines end with `\n`, `\r\n` or `\r`; `data:` lines (one space after the colon dropped) are joined with `\n`; a
/// blank line ends an event; comments (`:`…) and the other fields (`event:`, `id:`, `retry:`) are skipped.
/// An event without `data` is no event.
public struct ServerSentEvents: Sendable {
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var afterCarriageReturn = false
    /// The longest line accepted, in bytes; a longer one is a malformed stream.
    public var maximumLineLength: Int

    /// Creates a decoder.
    public init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    /// Reads `bytes` and returns the data of the events they complete, in order (bytes that are not UTF-8 are
    /// replaced with U+FFFD, as a browser's `EventSource` does).
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/llmMalformedStream`` for a line longer than
    ///   ``maximumLineLength``.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(ParleyError) -> [String] {
        var events: [String] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumLineLength else {
                    throw ParleyError(.llmMalformedStream, "an event-stream line is longer than \(maximumLineLength)")
                }
                line.append(byte)
            }
        }
        return events
    }

    /// The data of an event the body ended without a blank line after; nil when there is none.
    public mutating func finish() throws(ParleyError) -> String? {
        var last = try endLine()
        if last == nil, hasData { last = try endLine() }
        return last
    }

    private mutating func endLine() throws(ParleyError) -> String? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            guard hasData else { return nil }
            defer {
                data.removeAll(keepingCapacity: true)
                hasData = false
            }
            return String(decoding: data, as: UTF8.self)
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        guard line[..<colon].elementsEqual("data".utf8) else { return nil }
        var value = colon < line.endIndex ? line.index(after: colon) : colon
        if value < line.endIndex, line[value] == UInt8(ascii: " ") { value = line.index(after: value) }
        if hasData { data.append(UInt8(ascii: "\n")) }
        data += line[value...]
        hasData = true
        return nil
    }
}
