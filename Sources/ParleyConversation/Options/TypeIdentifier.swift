/// Apple's uniform type identifiers (`public.image`, `com.adobe.pdf`…) as ``ShareMenuConfiguration`` reads them,
/// on every platform: Linux has no `UTType`, so Parley carries the part of Apple's type tree that chat attachments
/// use — each identifier with its MIME types, file-name extensions and parents.
///
/// A file conforms to an identifier when its MIME type or extension names that identifier or one below it: a
/// `photo.jpg` is `public.jpeg`, so `public.image`, `public.data`, `public.content` and `public.item`. An identifier
/// not in the table matches nothing (rather than everything).
public struct TypeIdentifier: Sendable, Hashable {
    /// The identifier, such as `public.jpeg`.
    public let rawValue: String
    /// Its MIME types; `major/*` for a whole family.
    public let mimeTypes: [String]
    /// Its file-name extensions, lowercase, without the dot.
    public let extensions: [String]
    /// The identifiers it conforms to directly.
    public let parents: [String]

    /// The table, by identifier.
    public static let known: [String: TypeIdentifier] = {
        var table: [String: TypeIdentifier] = [:]
        for row: (String, [String], [String], [String]) in [
            ("public.item", [], [], []),
            ("public.content", [], [], ["public.item"]),
            ("public.data", ["application/octet-stream"], [], ["public.item"]),
            ("public.composite-content", [], [], ["public.content"]),
            ("public.archive", [], [], ["public.data"]),
            ("public.image", ["image/*"], [], ["public.data", "public.content"]),
            ("public.jpeg", ["image/jpeg"], ["jpg", "jpeg"], ["public.image"]),
            ("public.png", ["image/png"], ["png"], ["public.image"]),
            ("com.compuserve.gif", ["image/gif"], ["gif"], ["public.image"]),
            ("public.heic", ["image/heic"], ["heic"], ["public.image"]),
            ("public.tiff", ["image/tiff"], ["tif", "tiff"], ["public.image"]),
            ("org.webmproject.webp", ["image/webp"], ["webp"], ["public.image"]),
            ("com.microsoft.bmp", ["image/bmp"], ["bmp"], ["public.image"]),
            ("public.svg-image", ["image/svg+xml"], ["svg"], ["public.image"]),
            ("public.audiovisual-content", [], [], ["public.data", "public.content"]),
            ("public.movie", ["video/*"], [], ["public.audiovisual-content"]),
            ("public.video", [], [], ["public.movie"]),
            ("public.mpeg-4", ["video/mp4"], ["mp4"], ["public.movie"]),
            ("com.apple.quicktime-movie", ["video/quicktime"], ["mov"], ["public.movie"]),
            ("public.audio", ["audio/*"], [], ["public.audiovisual-content"]),
            ("public.mp3", ["audio/mpeg"], ["mp3"], ["public.audio"]),
            ("com.microsoft.waveform-audio", ["audio/wav", "audio/x-wav"], ["wav"], ["public.audio"]),
            ("public.mpeg-4-audio", ["audio/mp4", "audio/x-m4a"], ["m4a"], ["public.audio"]),
            ("public.text", ["text/*"], [], ["public.data", "public.content"]),
            ("public.plain-text", ["text/plain"], ["txt"], ["public.text"]),
            ("public.html", ["text/html"], ["html", "htm"], ["public.text"]),
            ("public.comma-separated-values-text", ["text/csv"], ["csv"], ["public.text"]),
            ("public.json", ["application/json"], ["json"], ["public.text"]),
            ("com.adobe.pdf", ["application/pdf"], ["pdf"], ["public.data", "public.composite-content"]),
            (
                "org.openxmlformats.wordprocessingml.document",
                ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"], ["docx"],
                ["public.data", "public.composite-content"]
            ),
            (
                "org.openxmlformats.spreadsheetml.sheet",
                ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"], ["xlsx"],
                ["public.data", "public.composite-content"]
            ),
            (
                "org.openxmlformats.presentationml.presentation",
                ["application/vnd.openxmlformats-officedocument.presentationml.presentation"], ["pptx"],
                ["public.data", "public.composite-content"]
            ),
            ("com.microsoft.word.doc", ["application/msword"], ["doc"], ["public.data", "public.composite-content"]),
            (
                "com.microsoft.excel.xls", ["application/vnd.ms-excel"], ["xls"],
                ["public.data", "public.composite-content"]
            ),
            (
                "com.microsoft.powerpoint.ppt", ["application/vnd.ms-powerpoint"], ["ppt"],
                ["public.data", "public.composite-content"]
            ),
            ("public.zip-archive", ["application/zip"], ["zip"], ["public.archive"]),
        ] {
            table[row.0] = TypeIdentifier(rawValue: row.0, mimeTypes: row.1, extensions: row.2, parents: row.3)
        }
        return table
    }()

    /// Whether `type` is written as a uniform type identifier (reverse DNS, such as `public.image`), rather than a
    /// MIME type or a file-name extension.
    public static func isIdentifier(_ type: String) -> Bool {
        !type.contains("/") && ["public.", "com.", "org.", "net.", "io.", "dyn."].contains { type.hasPrefix($0) }
    }

    /// Whether a file with this MIME type and name conforms to the identifier `identifier`.
    public static func file(mimeType: String, fileName: String, conformsTo identifier: String) -> Bool {
        let mime = mimeType.lowercased()
        let major = mime.split(separator: "/").first.map { "\($0)/*" }
        let parts = fileName.lowercased().split(separator: ".")
        let fileExtension = parts.count > 1 ? parts.last.map(String.init) : nil
        // The most specific identifiers of the file: by exact MIME type or extension, else by MIME family.
        var own = known.values.filter { entry in
            entry.mimeTypes.contains(mime) || fileExtension.map(entry.extensions.contains) == true
        }
        if own.isEmpty { own = known.values.filter { entry in major.map(entry.mimeTypes.contains) == true } }
        if own.isEmpty, let data = known["public.data"] { own = [data] }
        var seen: Set<String> = []
        var queue = own.map(\.rawValue)
        while let next = queue.popLast() {
            if next == identifier { return true }
            guard seen.insert(next).inserted else { continue }
            queue += known[next]?.parents ?? []
        }
        return false
    }
}
