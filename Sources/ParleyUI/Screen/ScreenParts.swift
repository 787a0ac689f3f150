/// The app bar: title, status, and the buttons the feature flags switch on.
public struct Header: Sendable, Hashable {
    /// `title` from the client's configuration, or `odais_chat_title`.
    public var title: String
    /// What VoiceOver reads for the title (`odais_access_label_chat_title` and the title).
    public var titleAccessibilityLabel: String
    /// Whether the clear button is shown (`enableClearMessage`).
    public var showsClearButton: Bool
    /// VoiceOver's label for it (`odais_access_label_button_clear`).
    public var clearButtonAccessibilityLabel: String
    /// Whether the end-conversation button is shown (`enableEndConversation`).
    public var showsEndConversationButton: Bool
    /// Its label (`parley_end_conversation_title`).
    public var endConversationButtonLabel: String
}

/// The connection status in the header (`showConnectionStatus`).
public struct ConnectionBanner: Sendable, Hashable {
    /// The client's status.
    public var status: ConnectionStatus
    /// `odais_connected`, `odais_connecting` or `odais_disconnected`.
    public var text: String
    /// `odais_access_label_chat_status` and the text.
    public var accessibilityLabel: String
}

/// The language menu (`multiLangChat` with at least two languages).
public struct LanguageMenu: Sendable, Hashable {
    /// One choice.
    public struct Item: Sendable, Hashable, Identifiable {
        /// The language tag; `nil` for "Detect Language".
        public var tag: String?
        /// What the menu says: the configured label, the language's name in the screen's language, or the tag.
        public var label: String
        /// Whether it is the current choice.
        public var isSelected: Bool
        /// The tag, or `detect`.
        public var id: String { tag ?? "detect" }
    }

    /// The menu's label (`parley_language_menu`).
    public var label: String
    /// "Detect Language" first (`parley_detect_language`), then the configured languages in order.
    public var items: [Item]
    /// The chosen tag; `nil` when the skill detects the language.
    public var selected: String?
}

/// The composer at the bottom: the text field and its buttons.
public struct Composer: Sendable, Hashable {
    /// The text field's placeholder (`odais_write_a_message`).
    public var placeholder: String
    /// VoiceOver's label for the send button (`odais_access_label_button_send`).
    public var sendAccessibilityLabel: String
    /// Whether the attach button is shown (`enableAttachment`).
    public var showsAttachButton: Bool
    /// VoiceOver's label for it (`odais_access_label_button_attach`).
    public var attachAccessibilityLabel: String
    /// What the attach button offers (`shareMenuConfiguration`); empty when it is hidden.
    public var shareMenu: [ShareMenuEntry]
    /// Whether the microphone button is shown: `enableSpeechRecognition` is on and the conversation's backend has
    /// ``ConversationCapabilities/speech``.
    public var showsMicrophone: Bool
    /// VoiceOver's label for it (`odais_access_label_button_speak`).
    public var microphoneAccessibilityLabel: String
}

/// One item of the attach button's menu.
public struct ShareMenuEntry: Sendable, Hashable, Identifiable {
    /// What the item picks.
    public enum Kind: Sendable, Hashable {
        /// A built-in item: photo and video library, files, camera, location.
        case builtIn(ShareMenuItem)
        /// A custom item, by its index in `customItems`.
        case custom(index: Int)
    }

    /// What it picks.
    public var kind: Kind
    /// The label: `odais_photo`, `odais_files`, `odais_camera`, `parley_share_location`, or the custom item's.
    public var label: String
    /// The custom item's icon, if any.
    public var icon: String?
    /// The file types a picker should allow, as the configuration gives them (MIME types, `image/*` wildcards or
    /// file extensions; an app on Apple platforms maps them to `UTType`s). Empty: any file, or a location.
    public var types: [String]
    /// The largest file in bytes.
    public var maxSize: Int
    /// `builtin-<name>` or `custom-<index>`.
    public var id: String {
        switch kind {
        case .builtIn(let item): "builtin-\(item.rawValue)"
        case .custom(let index): "custom-\(index)"
        }
    }
}

/// The confirmation shown before the conversation ends (`enableEndConversation`).
public struct EndConversationPrompt: Sendable, Hashable {
    /// `parley_end_conversation_title`.
    public var title: String
    /// `parley_end_conversation_message`.
    public var message: String
    /// `parley_end_conversation_confirm`: ``ChatViewModel/confirmEndConversation()``.
    public var confirmLabel: String
    /// `parley_end_conversation_cancel`: ``ChatViewModel/cancelEndConversation()``.
    public var cancelLabel: String
}

/// An alert to show: a failure of something the user did.
public struct ChatAlert: Sendable, Hashable {
    /// `odais_error` or `odais_alert`.
    public var title: String
    /// What went wrong, in the screen's language where a string exists for it.
    public var message: String
    /// `odais_ok`: ``ChatViewModel/dismissAlert()``.
    public var dismissLabel: String
    /// The error.
    public var error: ParleyError
}

/// What a screen shows of speech input and reading aloud: the speech popup (Oracle's "Listening..." with the partial
/// text under a voice visualiser, SEND and CANCEL) and the mute button.
public struct SpeechPresentation: Sendable, Hashable {
    /// Where speech input is; the popup shows unless ``RecordingState/idle``.
    public var state: RecordingState
    /// What has been recognised so far (the partial text, then the final one); empty before the user speaks.
    public var text: String
    /// The microphone's latest level in dBFS (−96 for silence, 0 for full scale), for the visualiser; `nil` when
    /// not recording.
    public var level: Double?
    /// The level from 0 (−60 dBFS or quieter) to 1 (0 dBFS), for a bar.
    public var levelFraction: Double {
        guard let level else { return 0 }
        return min(1, max(0, (level + 60) / 60))
    }
    /// Whether reading aloud is muted (`initSpeechSynthesisMuted` at first).
    public var isMuted: Bool
    /// Whether a mute button is shown (`enableSpeechSynthesis`).
    public var showsMuteButton: Bool
    /// The popup's title while listening (`odais_speech_start`).
    public var listeningLabel: String
    /// The popup's button that stops and sends (`odais_speech_send`).
    public var sendLabel: String
    /// The popup's button that cancels (`odais_speech_cancel`).
    public var cancelLabel: String

    /// Whether the speech popup is shown.
    public var isActive: Bool { state != .idle }

    /// A presentation.
    public init(
        state: RecordingState = .idle, text: String = "", level: Double? = nil, isMuted: Bool = true,
        showsMuteButton: Bool = false, listeningLabel: String = "", sendLabel: String = "", cancelLabel: String = ""
    ) {
        self.state = state
        self.text = text
        self.level = level
        self.isMuted = isMuted
        self.showsMuteButton = showsMuteButton
        self.listeningLabel = listeningLabel
        self.sendLabel = sendLabel
        self.cancelLabel = cancelLabel
    }
}
