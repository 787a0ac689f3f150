extension JSONValue {
    /// The value as UTF-8 JSON bytes.
    ///
    /// Object members are written in order. Whole numbers are written without a fraction
    /// (`3`, not `3.0`); other numbers in the shortest form that reads back to the same `Double`.
    /// Non-finite numbers, which JSON cannot express, are written as `null`.
    ///
    /// - Parameter pretty: Indent with two spaces and put each member on its own line.
    public func jsonBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self)
        return writer.bytes
    }

    /// The value as a JSON string; see ``jsonBytes(pretty:)``.
    public func jsonString(pretty: Bool = false) -> String {
        String(decoding: jsonBytes(pretty: pretty), as: UTF8.self)
    }
}

/// Writes ``JSONValue`` as UTF-8 bytes into a growing buffer.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var indent = 0

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(256)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            indent += 1
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                write(element)
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            indent += 1
            for (position, member) in object.members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value)
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func newline() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func writeNumber(_ number: Double) {
        guard number.isFinite else { return append("null") }
        if let whole = Int64(exactly: number) {
            bytes.append(contentsOf: whole.description.utf8)
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                runStart = offset + 1
                switch byte {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    append("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
