/// The composer's trailing button: the microphone takes the send button's place while the field is empty, as in
/// Oracle's SDK (`enableSpeechRecognition`: "the microphone button displays in place of the send button whenever the
/// user input field is empty").
public enum ComposerButton: Sendable, Hashable {
    /// Send ``ChatViewModel/draft``; disabled while the draft is blank.
    case send(isEnabled: Bool)
    /// Start speech input (``ChatViewModel/startSpeech()``).
    case microphone
}

/// The mute button of reading aloud (`enableSpeechSynthesis`).
public struct MuteButton: Sendable, Hashable {
    /// Whether reading aloud is muted now; the button's action sets the opposite.
    public var isMuted: Bool
    /// What VoiceOver reads: `odais_access_label_button_audio_reponse_off` ("Unmute audio response") while muted,
    /// `odais_access_label_button_audio_reponse_on` ("Mute audio response") while speaking.
    public var accessibilityLabel: String
}

/// A button of the app bar, in the order the screen shows them: the language menu, clear, end.
public enum HeaderButton: Sendable, Hashable, Identifiable {
    /// The language menu (`multiLangChat`).
    case language(LanguageMenu)
    /// Clear the transcript (`enableClearMessage`); the label is `odais_access_label_button_clear`.
    case clear(accessibilityLabel: String)
    /// End the conversation (`enableEndConversation`); the label is `parley_end_conversation_title`.
    case endConversation(label: String)

    /// `language`, `clear` or `end`.
    public var id: String {
        switch self {
        case .language: "language"
        case .clear: "clear"
        case .endConversation: "end"
        }
    }
}

/// What a share-menu item opens.
public enum SharePicker: Sendable, Hashable {
    /// The photo library (a photos picker), showing images, videos or both.
    case photoLibrary(MediaKinds)
    /// The camera, taking photos, videos or both.
    case camera(MediaKinds)
    /// The file picker, allowing these types.
    case files([FileTypeFilter])
    /// The user's location (``ChatViewModel/shareLocation()``), no picker.
    case location
}

/// Which media a photos picker or the camera offers.
public struct MediaKinds: OptionSet, Sendable, Hashable {
    /// The kinds, one bit each.
    public let rawValue: Int
    /// A kind set.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Pictures.
    public static let images = MediaKinds(rawValue: 1)
    /// Movies.
    public static let videos = MediaKinds(rawValue: 2)
}

/// A file type of the share menu as a file picker on Apple platforms takes it (`UTType`): a uniform type identifier
/// (`public.jpeg`, also what `image/*` and friends mean), or a MIME type or file-name extension the platform maps to
/// one.
public enum FileTypeFilter: Sendable, Hashable {
    /// A uniform type identifier: `UTType(identifier)`.
    case identifier(String)
    /// A MIME type: `UTType(mimeType:)`.
    case mimeType(String)
    /// A file-name extension without the dot: `UTType(filenameExtension:)`.
    case filenameExtension(String)

    /// Any file: `public.item`.
    public static let anyItem = FileTypeFilter.identifier("public.item")

    /// Reads one of `shareMenuConfiguration`'s types: a uniform type identifier (Oracle's custom items take them,
    /// `String(kUTTypeItem)` for any file), a `major/*` wildcard, a MIME type, or a file-name extension.
    public init(_ type: String) {
        let lowered = type.lowercased()
        switch lowered {
        case "*", "*/*": self = .anyItem
        case "image/*": self = .identifier("public.image")
        case "video/*": self = .identifier("public.movie")
        case "audio/*": self = .identifier("public.audio")
        case "text/*": self = .identifier("public.text")
        default:
            if TypeIdentifier.isIdentifier(type) {
                self = .identifier(type)
            } else if lowered.contains("/") {
                self = .mimeType(lowered)
            } else {
                self = .filenameExtension(String(lowered.trimmingPrefix(".")))
            }
        }
    }
}

extension ShareMenuEntry {
    /// What the item opens: photo and video library and camera open a photos picker or the camera for the media
    /// kinds their types allow, location asks for the location, files and custom items open the file picker for
    /// their types.
    public var picker: SharePicker {
        switch kind {
        case .builtIn(.photoAndVideoLibrary): .photoLibrary(mediaKinds)
        case .builtIn(.camera): .camera(mediaKinds)
        case .builtIn(.location): .location
        default: .files(fileTypes)
        }
    }

    /// The file picker's types for ``types``; any file when there are none.
    public var fileTypes: [FileTypeFilter] {
        let filters = types.map(FileTypeFilter.init)
        return filters.isEmpty ? [.anyItem] : filters
    }

    /// The media kinds ``types`` allow (both when they name neither).
    var mediaKinds: MediaKinds {
        var kinds: MediaKinds = []
        for type in types.map({ $0.lowercased() }) {
            if type.hasPrefix("image/") || type == "public.image" { kinds.insert(.images) }
            if type.hasPrefix("video/") || type == "public.movie" || type == "public.video" { kinds.insert(.videos) }
        }
        return kinds.isEmpty ? [.images, .videos] : kinds
    }
}
