extension JSONValue {
    /// Parses JSON text (RFC 8259) from UTF-8 bytes.
    ///
    /// Stricter than `JSONSerialization` where leniency would lose or invent data: invalid UTF-8,
    /// unpaired surrogate escapes, repeated keys, numbers beyond `Double` and nesting deeper than
    /// ``maximumDepth`` are errors. Every error is a ``ParleyError`` whose message gives the line and
    /// column and whose path names the enclosing member.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON, such as `Data` or `[UInt8]`.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    public init(parsing bytes: some Collection<UInt8>) throws(ParleyError) {
        self = try JSONParser.parse(bytes, allowingTrailingCommas: false)
    }

    /// Parses JSON text from a string.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    public init(parsing text: String) throws(ParleyError) {
        self = try JSONParser.parse(text, allowingTrailingCommas: false)
    }

    /// Parses the lenient dialect of published samples from UTF-8 bytes: strict JSON (as ``init(parsing:)``) plus
    /// one trailing comma before each `]` or `}`, as in the voice-flow files and Genesys's dialog and chat
    /// examples.
    ///
    /// ```swift
    /// let value = try JSONValue(parsingLeniently: #"[{"id": "VF_START",},]"#)
    /// ```
    ///
    /// Nothing else is relaxed: comments, `[1,,2]`, `[,]`, missing commas and invalid UTF-8 stay errors, with the
    /// line and column of the text as given.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    public init(parsingLeniently bytes: some Collection<UInt8>) throws(ParleyError) {
        self = try JSONParser.parse(bytes, allowingTrailingCommas: true)
    }

    /// Parses the lenient dialect (strict JSON plus one trailing comma before each `]` or `}`) from a string.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    public init(parsingLeniently text: String) throws(ParleyError) {
        self = try JSONParser.parse(text, allowingTrailingCommas: true)
    }
}

/// A recursive-descent parser over a contiguous UTF-8 buffer.
///
/// It builds ``JSONValue`` directly, without intermediate tokens. Strings without escapes are
/// created straight from the buffer; integers of up to 15 digits skip the text-to-double
/// conversion. Error paths are assembled only while an error unwinds, so they cost nothing otherwise.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Whether a comma may come right before `]` or `}` (the lenient dialect).
    private let allowsTrailingCommas: Bool
    /// Whether short ASCII strings may be made directly (see ``makeString(from:isASCII:)``); read once per document
    /// rather than once per string.
    private let makesSmallStrings = SmallString.layoutHolds
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, allowsTrailingCommas: Bool) {
        self.bytes = bytes
        self.allowsTrailingCommas = allowsTrailingCommas
    }

    /// Parses one JSON document filling the whole buffer.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, allowingTrailingCommas: Bool) -> Result<
        JSONValue, ParleyError
    > {
        var parser = JSONParser(bytes, allowsTrailingCommas: allowingTrailingCommas)
        return Result { () throws(ParleyError) in try parser.parseDocument() }
    }

    /// Parses one JSON document from bytes, copying them only when they are not contiguous.
    static func parse(_ bytes: some Collection<UInt8>, allowingTrailingCommas: Bool) throws(ParleyError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({
            JSONParser.parse($0, allowingTrailingCommas: allowingTrailingCommas)
        }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer {
            JSONParser.parse($0, allowingTrailingCommas: allowingTrailingCommas)
        }.get()
    }

    /// Parses one JSON document from a string's UTF-8.
    static func parse(_ text: String, allowingTrailingCommas: Bool) throws(ParleyError) -> JSONValue {
        var text = text
        return try text.withUTF8 { JSONParser.parse($0, allowingTrailingCommas: allowingTrailingCommas) }.get()
    }

    private mutating func parseDocument() throws(ParleyError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure(.malformedJSON, "unexpected \(describeCurrent()) after the JSON value")
        }
        return value
    }

    // MARK: Values

    private var current: UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case .space, .tab, .newline, .carriageReturn: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(ParleyError) -> JSONValue {
        switch current {
        case .openBrace: return try parseObject()
        case .openBracket: return try parseArray()
        case .quote: return .string(try parseString())
        case .lowerT: try expectLiteral("true"); return .bool(true)
        case .lowerF: try expectLiteral("false"); return .bool(false)
        case .lowerN: try expectLiteral("null"); return .null
        case .minus, .zero ... .nine: return .number(try parseNumber())
        default: throw failure(.malformedJSON, "expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(ParleyError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
            UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(bytes[index..<index + count])
        else {
            throw failure(.malformedJSON, "expected a value, found \(describeCurrent())", at: start)
        }
        index += count
    }

    private mutating func enterContainer() throws(ParleyError) {
        depth += 1
        if depth > JSONValue.maximumDepth {
            throw failure(.nestingTooDeep, "arrays and objects nest deeper than \(JSONValue.maximumDepth) levels")
        }
        index += 1
        skipWhitespace()
    }

    private mutating func parseArray() throws(ParleyError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        if current == .closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        elements.reserveCapacity(4)
        while true {
            do {
                elements.append(try parseValue())
            } catch {
                throw error.within(.index(elements.count))
            }
            skipWhitespace()
            switch current {
            case .comma:
                index += 1
                skipWhitespace()
                if allowsTrailingCommas && current == .closeBracket {
                    index += 1
                    depth -= 1
                    return .array(elements)
                }
            case .closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure(.malformedJSON, "expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseObject() throws(ParleyError) -> JSONValue {
        try enterContainer()
        var members: [JSONObject.Member] = []
        if current == .closeBrace {
            index += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        // Room for a typical message object at once, instead of growing 1, 2, 4, 8.
        members.reserveCapacity(8)
        // Small objects are checked for repeated keys by a linear scan, only when a key of the same UTF-8 length
        // came before (one bit per length); larger ones by a set.
        var seen: Set<String>? = nil
        var lengths: UInt64 = 0
        while true {
            guard current == .quote else {
                throw failure(.malformedJSON, "expected a string key in an object, found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard current == .colon else {
                throw failure(.malformedJSON, "expected ':' after an object key, found \(describeCurrent())")
                    .within(.key(key))
            }
            index += 1
            skipWhitespace()
            let value: JSONValue
            do {
                value = try parseValue()
            } catch {
                throw error.within(.key(key))
            }
            let repeated: Bool
            if var keys = seen {
                seen = nil  // keeps the set uniquely referenced while it grows
                repeated = !keys.insert(key).inserted
                seen = keys
            } else if members.count < 12 {
                let length = key.keyLengthBit
                repeated = lengths & length != 0 && members.contains { $0.key.isSameKey(key) }
                lengths |= length
            } else {
                var keys = Set(members.map(\.key))
                repeated = !keys.insert(key).inserted
                seen = keys
            }
            if repeated {
                throw failure(.duplicateKey, "the key \(JSONValue.string(key)) appears more than once", at: keyStart)
                    .within(.key(key))
            }
            // Moved, not copied: the value (and key) would otherwise live to the end of the iteration, costing a
            // retain and a release of every member.
            members.append(JSONObject.Member(consume key, consume value))
            skipWhitespace()
            switch current {
            case .comma:
                index += 1
                skipWhitespace()
                if allowsTrailingCommas && current == .closeBrace {
                    index += 1
                    depth -= 1
                    return .object(JSONObject(members))
                }
            case .closeBrace:
                index += 1
                depth -= 1
                return .object(JSONObject(members))
            default:
                throw failure(.malformedJSON, "expected ',' or '}' in an object, found \(describeCurrent())")
            }
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(ParleyError) -> String {
        index += 1
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .quote {
                let text = makeString(from: start, isASCII: isASCII)
                index += 1
                return text
            } else if byte == .backslash {
                return try parseEscapedString(from: start)
            } else if byte < 0x20 {
                throw failure(.malformedJSON, "control character \(describeCurrent()) inside a string must be escaped")
            } else if byte < 0x80 {
                index += 1
            } else {
                isASCII = false
                try skipMultiByteScalar()
            }
        }
        throw failure(.malformedJSON, "unterminated string")
    }

    /// The string of the bytes from `start` to the current position, which the scan has proven valid UTF-8.
    ///
    /// Most keys and many values are short ASCII: those are made in place (a fifth of parsing was the standard
    /// library validating and copying them again); the rest go through `String(decoding:as:)`.
    @inline(__always)
    private func makeString(from start: Int, isASCII: Bool) -> String {
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isASCII && makesSmallStrings, let small = SmallString.ascii(text) { return small }
        return String(decoding: text, as: UTF8.self)
    }

    /// The slow path, taken at the first backslash: copies into a buffer and decodes escapes.
    private mutating func parseEscapedString(from start: Int) throws(ParleyError) -> String {
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .quote {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == .backslash {
                index += 1
                let escape = current
                index += 1
                switch escape {
                case .quote, .backslash, .slash: buffer.append(escape)
                case .lowerB: buffer.append(0x08)
                case .lowerF: buffer.append(0x0C)
                case .lowerN: buffer.append(.newline)
                case .lowerR: buffer.append(.carriageReturn)
                case .lowerT: buffer.append(.tab)
                case .lowerU: appendUTF8(try parseUnicodeEscape(), to: &buffer)
                default:
                    index -= 1
                    throw failure(.malformedJSON, "invalid escape '\\' followed by \(describeCurrent())")
                }
            } else if byte < 0x20 {
                throw failure(.malformedJSON, "control character \(describeCurrent()) inside a string must be escaped")
            } else if byte < 0x80 {
                buffer.append(byte)
                index += 1
            } else {
                let scalarStart = index
                try skipMultiByteScalar()
                buffer.append(contentsOf: bytes[scalarStart..<index])
            }
        }
        throw failure(.malformedJSON, "unterminated string")
    }

    /// Reads the `XXXX` after `\u`, and a second `\uXXXX` when the first is a high surrogate.
    private mutating func parseUnicodeEscape() throws(ParleyError) -> Unicode.Scalar {
        let escapeStart = index - 2
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            guard current == .backslash, index + 1 < bytes.count, bytes[index + 1] == .lowerU else {
                throw failure(.invalidUTF8, "unpaired surrogate escape in a string", at: escapeStart)
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure(.invalidUTF8, "unpaired surrogate escape in a string", at: escapeStart)
            }
            // A pair of surrogates always makes a scalar from U+10000 to U+10FFFF.
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
        case 0xDC00...0xDFFF:
            throw failure(.invalidUTF8, "unpaired surrogate escape in a string", at: escapeStart)
        default:
            return Unicode.Scalar(first) ?? "\u{FFFD}"  // never: the surrogates were handled above
        }
    }

    private mutating func parseHex4() throws(ParleyError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = current
            let digit: UInt8
            switch byte {
            case .zero ... .nine: digit = byte - .zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw failure(.malformedJSON, "expected 4 hexadecimal digits after \\u, found \(describeCurrent())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    /// Validates one multi-byte UTF-8 sequence at `index` (RFC 3629: no overlongs, no surrogates) and skips it.
    private mutating func skipMultiByteScalar() throws(ParleyError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure(.invalidUTF8, "byte \(hex(lead)) cannot start a UTF-8 sequence")
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]),
            bytes[(index + 2)..<(index + length)].allSatisfy({ (0x80...0xBF).contains($0) })
        else {
            throw failure(.invalidUTF8, "invalid UTF-8 sequence starting with byte \(hex(lead))")
        }
        index += length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(ParleyError) -> Double {
        let start = index
        let negative = current == .minus
        if negative { index += 1 }
        var integer: UInt64 = 0
        var digits = 0
        switch current {
        case .zero:
            index += 1
            digits = 1
            if (.zero ... .nine).contains(current) {
                throw failure(.malformedJSON, "a number cannot have a leading zero", at: start)
            }
        case .one ... .nine:
            while (.zero ... .nine).contains(current) {
                integer = integer &* 10 &+ UInt64(current - .zero)
                digits += 1
                index += 1
            }
        default:
            throw failure(.malformedJSON, "expected a digit, found \(describeCurrent())")
        }
        var isInteger = true
        if current == .period {
            isInteger = false
            index += 1
            try skipDigits(after: "a decimal point")
        }
        if current == .lowerE || current == .upperE {
            isInteger = false
            index += 1
            if current == .plus || current == .minus { index += 1 }
            try skipDigits(after: "an exponent")
        }
        if isInteger && digits <= 15 {
            let magnitude = Double(integer)
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure(.numberOutOfRange, "the number \(text) does not fit a 64-bit floating-point value", at: start)
        }
        return value
    }

    private mutating func skipDigits(after what: String) throws(ParleyError) {
        guard (.zero ... .nine).contains(current) else {
            throw failure(.malformedJSON, "expected a digit after \(what), found \(describeCurrent())")
        }
        while (.zero ... .nine).contains(current) { index += 1 }
    }

    // MARK: Errors

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// An error at `offset` (the current position by default), with line and column in the message.
    private func failure(_ code: ParleyError.Code, _ message: String, at offset: Int? = nil) -> ParleyError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[0..<offset] {
            if byte == .newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return ParleyError(code, "\(message) (line \(line), column \(column))", path: JSONPath())
    }
}

/// Short ASCII strings made directly in the standard library's small-string form, without the second UTF-8
/// validation of `String(decoding:as:)`.
///
/// On 64-bit little-endian platforms a `String` of up to 15 UTF-8 bytes is stored inline in its two words: the bytes
/// in order, then a last byte holding the flags (small, ASCII, immortal: `0xE0`) and the count. This layout is part
/// of the standard library's ABI on Apple platforms; ``layoutHolds`` checks it once at run time anyway, so a
/// different layout only falls back to `String(decoding:as:)`.
enum SmallString {
    /// Whether strings made by ``ascii(_:)`` equal the standard library's own, checked on a few samples.
    static let layoutHolds: Bool = {
        #if arch(x86_64) || arch(arm64)
            guard MemoryLayout<String>.size == 16 else { return false }
            for sample in [
                "", "a", "id", "url", "type", "label", "postback", "variables", "messagePayload", "0123456789abcde",
            ] {
                let bytes = Array(sample.utf8)
                let made = bytes.withUnsafeBufferPointer { make($0) }
                let native = String(decoding: bytes, as: UTF8.self)
                guard made == native, made.utf8.elementsEqual(bytes), made.utf8.count == bytes.count,
                    made.hashValue == native.hashValue,
                    unsafeBitCast(made, to: (UInt64, UInt64).self) == unsafeBitCast(native, to: (UInt64, UInt64).self)
                else { return false }
            }
            return true
        #else
            return false
        #endif
    }()

    /// The string of `bytes` when they are at most 15 and all ASCII (the caller has checked), otherwise nil.
    /// Only call when ``layoutHolds``.
    @inline(__always)
    static func ascii(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        #if arch(x86_64) || arch(arm64)
            guard bytes.count <= 15 else { return nil }
            return make(bytes)
        #else
            return nil
        #endif
    }

    /// Packs the bytes into the two words with loads of 8, 4 or 1 bytes that stay within `bytes` (overlapping when
    /// the count is not a multiple): copying them with `memcpy` and reading the words back stalled on every string.
    @inline(__always)
    private static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            if count >= 8 {
                low = raw.loadUnaligned(as: UInt64.self)
                if count > 8 {
                    high = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64((16 - count) * 8)
                }
            } else if count >= 4 {
                let first = UInt64(raw.loadUnaligned(as: UInt32.self))
                let last = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                low = first | last << UInt64((count - 4) * 8)
            } else {
                for offset in 0..<count { low |= UInt64(base[offset]) << UInt64(offset * 8) }
            }
        }
        return unsafeBitCast((low, high | UInt64(0xE0 | count) << 56), to: String.self)
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let period = UInt8(ascii: ".")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let zero = UInt8(ascii: "0")
    fileprivate static let one = UInt8(ascii: "1")
    fileprivate static let nine = UInt8(ascii: "9")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let upperE = UInt8(ascii: "E")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let lowerB = UInt8(ascii: "b")
    fileprivate static let lowerE = UInt8(ascii: "e")
    fileprivate static let lowerF = UInt8(ascii: "f")
    fileprivate static let lowerN = UInt8(ascii: "n")
    fileprivate static let lowerR = UInt8(ascii: "r")
    fileprivate static let lowerT = UInt8(ascii: "t")
    fileprivate static let lowerU = UInt8(ascii: "u")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
}
