import Foundation

/// File names of attachments: reading the one a client gives, making it safe to store, and naming it in a
/// download's `Content-Disposition`.
enum AttachmentName {
    /// The longest name a client may give and the server stores, in UTF-8 bytes: the limit of common file systems.
    static let maximumBytes = 255

    /// The file name a multipart part's `Content-Disposition` gives: `filename*` (RFC 5987, `UTF-8''…`) when
    /// present, else `filename`, percent-decoded (Oracle's Web SDK sends `encodeURI(name)`).
    static func given(inDisposition disposition: String) -> String? {
        let parameters = HeaderParameters(disposition)
        if let extended = parameters["filename*"], let decoded = decodeExtended(extended) { return decoded }
        guard let plain = parameters["filename"] else { return nil }
        return plain.removingPercentEncoding ?? plain
    }

    /// `UTF-8''na%C3%AFve.txt` → `naïve.txt`; nil for another charset or a bad encoding.
    private static func decodeExtended(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return String(pieces[2]).removingPercentEncoding
    }

    /// A name safe to store and serve: the last path component, without control, format (bidirectional override)
    /// or separator characters, not hidden, not empty, at most ``maximumBytes`` bytes in UTF-8 (cut on a
    /// character boundary, keeping a short extension).
    static func safe(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let kept = last.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: true
            }
        }
        var cleaned = String(String.UnicodeScalarView(kept)).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        if cleaned.isEmpty { cleaned = "attachment" }
        guard cleaned.utf8.count > maximumBytes else { return cleaned }
        var stem = cleaned
        var suffix = ""
        if let dot = cleaned.lastIndex(of: "."), cleaned[dot...].utf8.count <= 16 {
            (stem, suffix) = (String(cleaned[..<dot]), String(cleaned[dot...]))
        }
        while stem.utf8.count + suffix.utf8.count > maximumBytes { stem.removeLast() }
        // Cut where a dot or space now ends the name, it would no longer be its own safe form.
        return safe(stem + suffix)
    }

    /// The path segment of a download URL naming `name`.
    static func pathSegment(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#", ";", "%"]))
            ?? "attachment"
    }

    /// `attachment; filename*=UTF-8''…` or `inline; filename*=UTF-8''…` (RFC 6266 and 5987).
    static func contentDisposition(inline: Bool, name: String) -> String {
        // attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
        let attributeCharacters = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: attributeCharacters) ?? "attachment"
        return "\(inline ? "inline" : "attachment"); filename*=UTF-8''\(encoded)"
    }
}

/// The parameters of a header value such as `form-data; name="attachment"; filename="a; b.txt"`: names
/// lowercased, quoted strings unquoted (with `\` escapes), separators inside quotes kept.
struct HeaderParameters {
    private var values: [String: String] = [:]

    init(_ header: String) {
        var scalars = Substring(header).unicodeScalars[...]
        // Skip the value before the first `;`.
        Self.skip(&scalars, past: ";")
        while !scalars.isEmpty {
            Self.skipSpaces(&scalars)
            var name = ""
            while let next = scalars.first, next != "=", next != ";" {
                name.unicodeScalars.append(next)
                scalars.removeFirst()
            }
            guard scalars.first == "=" else {
                Self.skip(&scalars, past: ";")
                continue
            }
            scalars.removeFirst()
            Self.skipSpaces(&scalars)
            var value = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let next = scalars.popFirst(), next != "\"" {
                    if next == "\\", let escaped = scalars.popFirst() {
                        value.unicodeScalars.append(escaped)
                    } else {
                        value.unicodeScalars.append(next)
                    }
                }
                Self.skip(&scalars, past: ";")
            } else {
                while let next = scalars.first, next != ";" {
                    value.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                value = value.trimmingCharacters(in: .whitespaces)
                if !scalars.isEmpty { scalars.removeFirst() }
            }
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            if !key.isEmpty, values[key] == nil { values[key] = value }
        }
    }

    /// The value of parameter `name` (lowercase).
    subscript(name: String) -> String? { values[name] }

    private static func skip(_ scalars: inout Substring.UnicodeScalarView.SubSequence, past separator: Unicode.Scalar) {
        while let next = scalars.popFirst(), next != separator {}
    }

    private static func skipSpaces(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while let next = scalars.first, next == " " || next == "\t" { scalars.removeFirst() }
    }
}
