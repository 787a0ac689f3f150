/// Which attachments the user may send, checked before an upload starts (Oracle's `shareMenuConfiguration`:
/// built-in menu items plus custom items with their own file types and size limits).
///
/// An empty configuration (no items of either kind) allows every file up to the 25 MiB limit, as Oracle's
/// SDK shows every menu item for an empty list. Types are MIME types (`image/png`), wildcards (`image/*`), file-name
/// extensions (`pdf`) or Apple's uniform type identifiers (`public.image`, `com.adobe.pdf`), which Parley maps to MIME
/// types and extensions itself on every platform (``TypeIdentifier``).
public struct ShareMenuConfiguration: Sendable, Hashable {
    /// The built-in items offered.
    public var items: [ShareMenuItem]
    /// Items with their own file types and size limit.
    public var customItems: [ShareMenuCustomItem]

    /// A configuration; the default offers every built-in item.
    public init(
        items: [ShareMenuItem] = [.photoAndVideoLibrary, .files, .camera, .location],
        customItems: [ShareMenuCustomItem] = []
    ) {
        self.items = items
        self.customItems = customItems
    }

    /// The most Oracle's chat server accepts: 25 MiB.
    public static let maximumSize = 25 * 1024 * 1024

    /// The size limit for a file of this type and name, or `nil` when no item allows it.
    public func sizeLimit(mimeType: String, fileName: String) -> Int? {
        let builtIn = items.filter { $0 != .location }
        if builtIn.isEmpty, customItems.isEmpty { return Self.maximumSize }
        if let item = customItems.first(where: { $0.allows(mimeType: mimeType, fileName: fileName) }) {
            return min(item.maxSizeKiB.map { $0 * 1024 } ?? Self.maximumSize, Self.maximumSize)
        }
        let major = mimeType.split(separator: "/").first.map { $0.lowercased() } ?? ""
        for item in builtIn {
            switch item {
            case .files: return Self.maximumSize
            case .photoAndVideoLibrary where major == "image" || major == "video": return Self.maximumSize
            case .camera where major == "image" || major == "video": return Self.maximumSize
            default: continue
            }
        }
        return nil
    }
}

/// A built-in share-menu item.
public struct ShareMenuItem: OpenString {
    /// The value as it is written on the wire.
    public let rawValue: String
    /// Creates a value from its wire form; values this version does not know are kept.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Images and videos from the library.
    public static let photoAndVideoLibrary: Self = "photoAndVideoLibrary"
    /// Any file.
    public static let files: Self = "files"
    /// A photo or video from the camera.
    public static let camera: Self = "camera"
    /// The user's location (sent as a location message, not a file).
    public static let location: Self = "location"
}

/// A share-menu item with its own label, icon, file types and size limit.
public struct ShareMenuCustomItem: Sendable, Hashable {
    /// The file types it allows: MIME types, `major/*` wildcards, file-name extensions or uniform type identifiers.
    public var types: [String]
    /// The menu label. UI only.
    public var label: String?
    /// The menu icon's asset name or URL. UI only.
    public var icon: String?
    /// The largest file in KiB (Oracle counts in KB); `nil` for 25 MiB.
    public var maxSizeKiB: Int?

    /// A custom item.
    public init(types: [String], label: String? = nil, icon: String? = nil, maxSizeKiB: Int? = nil) {
        self.types = types
        self.label = label
        self.icon = icon
        self.maxSizeKiB = maxSizeKiB
    }

    func allows(mimeType: String, fileName: String) -> Bool {
        let mime = mimeType.lowercased()
        let fileExtension =
            fileName.split(separator: ".").count > 1
            ? fileName.split(separator: ".").last.map { $0.lowercased() } : nil
        return types.contains { type in
            let type = type.lowercased()
            if type == "*/*" || type == "*" { return true }
            if TypeIdentifier.isIdentifier(type) {
                return TypeIdentifier.file(mimeType: mime, fileName: fileName, conformsTo: type)
            }
            if type.hasSuffix("/*") { return mime.hasPrefix(type.dropLast()) }
            if type.contains("/") { return type == mime }
            return String(type.trimmingPrefix(".")) == fileExtension
        }
    }
}
