import Foundation

/// Decides an upload's type from its first bytes, never from what the client declares.
///
/// The type a file is stored and served with decides what a browser does with it, so the server takes it from the
/// file's magic number: PNG, JPEG, GIF, WebP, the ISO media family (`ftyp`: MP4, MOV, M4A, 3GP, HEIC, AVIF),
/// WebM/Matroska, MP3/ID3, AAC, WAV, AVI, OGG, FLAC, PDF, ZIP (and so OOXML), OLE (doc, xls, ppt), RTF, and UTF-8
/// text without NULs or control characters. Text that looks like markup — a leading `<` after an optional byte
/// order mark and white space (`<?xml`, `<svg`, `<!doctype html`, `<html`, `<script`, …) — is HTML, SVG or XML,
/// never `text/plain`. Anything else is `application/octet-stream`.
///
/// The declared type (the part's `Content-Type`) and the file name's extension may only choose within the family
/// the bytes belong to (``refine(_:declared:fileName:)``): `text/csv` rather than `text/plain`, a `.docx` rather
/// than a ZIP.
enum MediaSniffer {
    /// How many leading bytes the sniffer looks at.
    static let headLength = 4096

    /// Types that can run script when a browser renders them from our origin; a channel accepts them only when it
    /// names them exactly (a wildcard such as `text/*` does not count).
    static let markupTypes: Set<String> = ["text/html", "image/svg+xml", "application/xml", "text/xml"]

    /// The type of a file whose first bytes are `head`.
    /// - Parameters:
    ///   - head: Up to ``headLength`` leading bytes.
    ///   - complete: Whether `head` is the whole file (a multibyte character cut at the end of an incomplete head
    ///     is not held against text).
    static func sniff(_ head: some Collection<UInt8>, complete: Bool) -> String {
        let bytes = Array(head.prefix(headLength))
        if let binary = binaryType(bytes) { return binary }
        if let markup = markupType(bytes) { return markup }
        if isText(bytes, complete: complete) { return "text/plain" }
        return frameSyncType(bytes) ?? "application/octet-stream"
    }

    // MARK: Binary formats

    private static func binaryType(_ b: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<(offset + magic.count)]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if ascii("GIF87a") || ascii("GIF89a") { return "image/gif" }
        if ascii("RIFF"), b.count >= 12 {
            if ascii("WEBP", at: 8) { return "image/webp" }
            if ascii("WAVE", at: 8) { return "audio/wav" }
            if ascii("AVI ", at: 8) { return "video/x-msvideo" }
        }
        if ascii("ftyp", at: 4), b.count >= 12 {
            return isoMediaType(brand: String(decoding: b[8..<12], as: UTF8.self))
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            return contains(Array("webm".utf8), in: b) ? "video/webm" : "video/x-matroska"
        }
        if ascii("ID3") { return "audio/mpeg" }
        if ascii("OggS") { return "audio/ogg" }
        if ascii("fLaC") { return "audio/flac" }
        if ascii("#!AMR") { return "audio/amr" }
        if ascii("MThd") { return "audio/midi" }
        if ascii("FORM"), b.count >= 12, ascii("AIFF", at: 8) || ascii("AIFC", at: 8) { return "audio/aiff" }
        if ascii("%PDF-") { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) || starts([0x50, 0x4B, 0x07, 0x08]) {
            return "application/zip"
        }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "application/x-ole-storage" }
        if ascii("{\\rtf") { return "application/rtf" }
        return nil
    }

    /// An MPEG audio or ADTS frame header (eleven set sync bits), checked after markup because a UTF-16 byte order
    /// mark has the same first bits.
    private static func frameSyncType(_ b: [UInt8]) -> String? {
        guard b.count >= 3, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        let layer = (b[1] >> 1) & 0x03
        if layer == 0, b[1] & 0xF0 == 0xF0 { return "audio/aac" }
        if layer != 0, b[2] >> 4 != 0x0F, (b[1] >> 3) & 0x03 != 0x01 { return "audio/mpeg" }
        return nil
    }

    /// The type of an ISO base media file (`ftyp` box) from its major brand.
    private static func isoMediaType(brand: String) -> String {
        switch brand {
        case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1": "image/heic"
        case "avif", "avis": "image/avif"
        case "M4A ", "M4B ", "M4P ", "F4A ", "F4B ": "audio/mp4"
        case "qt  ": "video/quicktime"
        case _ where brand.hasPrefix("3gp") || brand.hasPrefix("3g2"): "video/3gpp"
        default: "video/mp4"
        }
    }

    private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    // MARK: Markup and text

    /// HTML, SVG or XML when the text starts with `<` (after a byte order mark and white space); nil otherwise.
    static func markupType(_ b: [UInt8]) -> String? {
        var start = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        // UTF-16 and UTF-32 text: look at every other byte after the byte order mark.
        var step = 1
        if b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0xFF, 0xFE]) {
            start = 2
            step = 2
        }
        var index = start
        var characters: [UInt8] = []
        while index < b.count, characters.count < 64 {
            let unit = step == 2 && index + 1 < b.count ? (b[index] == 0 ? b[index + 1] : b[index]) : b[index]
            index += step
            if characters.isEmpty, [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x00].contains(unit) { continue }
            characters.append(unit)
        }
        guard characters.first == UInt8(ascii: "<") else { return nil }
        let text = String(decoding: characters, as: UTF8.self).lowercased()
        if text.hasPrefix("<svg") { return "image/svg+xml" }
        if text.hasPrefix("<?xml") {
            let whole = String(decoding: b, as: UTF8.self).lowercased()
            return whole.contains("<svg") ? "image/svg+xml" : whole.contains("<html") ? "text/html" : "application/xml"
        }
        return "text/html"
    }

    /// UTF-8 text without NULs and control characters other than tab, line feed, form feed, carriage return and
    /// escape.
    static func isText(_ b: [UInt8], complete: Bool) -> Bool {
        guard !b.isEmpty else { return false }
        var body = b[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if !complete {
            // Do not count a character cut in two by the end of the head against the file.
            var cut = 0
            for byte in body.suffix(3).reversed() {
                cut += 1
                if byte & 0xC0 != 0x80 {
                    if byte & 0xC0 == 0xC0 { body = body.dropLast(cut) }
                    break
                }
            }
        }
        for byte in body where byte < 0x20 || byte == 0x7F {
            guard [0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(byte) else { return false }
        }
        var iterator = body.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    // MARK: Refinement

    /// Types a sniffed family may be narrowed to by the declared type or the extension; the first is the default.
    static let families: [String: [String]] = [
        "text/plain": ["text/plain", "text/csv", "text/tab-separated-values", "text/markdown", "application/json"],
        "application/zip": [
            "application/zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ],
        "application/x-ole-storage": [
            "application/x-ole-storage", "application/msword", "application/vnd.ms-excel",
            "application/vnd.ms-powerpoint",
        ],
        "video/mp4": ["video/mp4", "audio/mp4", "video/quicktime", "video/3gpp"],
        "audio/mp4": ["audio/mp4", "video/mp4"],
        "video/quicktime": ["video/quicktime", "video/mp4"],
        "video/3gpp": ["video/3gpp", "audio/3gpp"],
        "video/webm": ["video/webm", "audio/webm"],
        "video/x-matroska": ["video/x-matroska", "audio/x-matroska", "video/webm", "audio/webm"],
        "audio/ogg": ["audio/ogg", "video/ogg", "audio/opus"],
        "image/heic": ["image/heic", "image/heif"],
    ]

    /// Other spellings clients use for the types above.
    static let aliases: [String: String] = [
        "image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "audio/mp3": "audio/mpeg", "audio/x-mp3": "audio/mpeg",
        "audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "audio/vnd.wave": "audio/wav",
        "audio/x-m4a": "audio/mp4",
        "audio/m4a": "audio/mp4", "video/x-m4v": "video/mp4", "application/x-zip-compressed": "application/zip",
        "application/x-pdf": "application/pdf", "text/x-markdown": "text/markdown",
        "text/comma-separated-values":
            "text/csv", "application/ogg": "audio/ogg",
    ]

    /// The type by file-name extension, used only to refine a sniffed family.
    static let typesByExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime",
        "3gp": "video/3gpp", "webm": "video/webm", "mkv": "video/x-matroska", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "wav": "audio/wav", "ogg": "audio/ogg", "oga": "audio/ogg", "ogv": "video/ogg", "opus": "audio/opus",
        "txt": "text/plain", "csv": "text/csv", "tsv": "text/tab-separated-values", "md": "text/markdown",
        "json": "application/json", "pdf": "application/pdf", "zip": "application/zip", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation", "rtf": "application/rtf",
    ]

    /// The stored type: `sniffed`, or a member of its family that the declared type or else the extension names.
    static func refine(_ sniffed: String, declared: String?, fileName: String) -> String {
        guard let family = families[sniffed] else { return sniffed }
        let declared = declared.map(normalized)
        if let declared, family.contains(declared) { return declared }
        let fileExtension =
            fileName.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? fileName.split(separator: ".").last.map { $0.lowercased() } : nil
        if let byExtension = fileExtension.flatMap({ typesByExtension[$0] }), family.contains(byExtension) {
            return byExtension
        }
        return sniffed
    }

    /// A MIME type without parameters, lowercased, with its usual alias resolved.
    static func normalized(_ type: String) -> String {
        let bare = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return aliases[bare] ?? bare
    }
}
