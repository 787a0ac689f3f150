/// Which actions of messages the user already answered stay usable (Oracle's `disablePastActions`).
public struct DisablePastActions: OpenString {
    /// The value as it is written on the wire.
    public let rawValue: String
    /// Creates a value from its wire form; values this version does not know are kept.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Every action of an answered message is disabled (the default).
    public static let all: Self = "all"
    /// No action is disabled.
    public static let none: Self = "none"
    /// Only postback actions are disabled.
    public static let postback: Self = "postback"
}

/// How timestamps are shown (Oracle's `timestampMode`).
public struct TimestampMode: OpenString {
    /// The value as it is written on the wire.
    public let rawValue: String
    /// Creates a value from its wire form; values this version does not know are kept.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The date and time on every message, formatted with `timestampFormat`.
    public static let absolute: Self = "absolute"
    /// "Just now", "2 min ago"… on the latest message only, with a date header before each day's first message.
    public static let relative: Self = "relative"
}

/// The chat languages the user may choose (Oracle's `multiLangChat`).
public struct MultiLangChat: Sendable, Hashable {
    /// The languages offered; a menu needs at least two.
    public var supportedLanguages: [SupportedLanguage]
    /// The language to start with; `nil` or `"und"` lets the skill detect it.
    public var primaryLanguage: String?

    /// A language configuration.
    public init(supportedLanguages: [SupportedLanguage] = [], primaryLanguage: String? = nil) {
        self.supportedLanguages = supportedLanguages
        self.primaryLanguage = primaryLanguage
    }
}

/// One chat language: a BCP 47 tag and an optional label for the menu.
public struct SupportedLanguage: Sendable, Hashable {
    /// The language tag, such as `fr` or `fr-CA`.
    public var lang: String
    /// The label in a language menu; `nil` shows the tag or a built-in name.
    public var label: String?

    /// A language.
    public init(lang: String, label: String? = nil) {
        self.lang = lang
        self.label = label
    }
}

/// What the client says for a slow skill with `enableDefaultClientResponse`, under Oracle's string names.
public struct DefaultResponseStrings: Sendable, Hashable {
    /// `odais_default_greeting_message`: after `defaultGreetingTimeout` without an answer to the first message.
    public var greeting: String
    /// `odais_default_wait_message`: every `defaultWaitMessageInterval` while the skill has not answered.
    public var wait: String
    /// `odais_default_sorry_message`: when `typingStatusTimeout` passed without an answer.
    public var sorry: String

    /// The strings; the defaults are Oracle's English ones.
    public init(
        greeting: String = "Hey, Nice to meet you! Allow me a moment to get back to you.",
        wait: String = "I'm still working on your request. Thank you for your patience!",
        sorry: String = "I'm sorry. I can't get you the right content. Please try again."
    ) {
        self.greeting = greeting
        self.wait = wait
        self.sorry = sorry
    }
}
