public import Foundation

extension ChatViewModel {
    /// What only a screen needs: the look, the language of its texts, how links open. The feature flags a screen
    /// obeys (`enableTimestamp`, `timestampMode`, `disablePastActions`, `showConnectionStatus`, `title`, the
    /// avatars…) are the conversation's ``ScreenOptions`` (on `ChatClient.Configuration`, where Oracle's
    /// `BotsConfiguration` has them, as its `screen` part); the model reads them from the conversation
    /// (``Conversation/screenOptions``), and `docs/ui.md` lists which is where.
    ///
    /// ```swift
    /// var configuration = ChatViewModel.Configuration(locale: "fr")
    /// configuration.strings[.chatTitle] = "Pizza"
    /// configuration.actionsLayout.card = .vertical
    /// ```
    public struct Configuration: Sendable {
        /// The language of the screen's texts and dates, a BCP 47 tag; `nil` follows the device
        /// (`Locale.current`). While the user has chosen a chat language (`multiLangChat`), the texts follow that
        /// language instead, as Oracle's SDK looks for that language's `.lproj` first. Default `nil`.
        public var locale: String?
        /// The time zone of timestamps and day headers. Default the device's.
        public var timeZone: TimeZone
        /// The app's texts, over ParleyUI's (see ``Strings``).
        public var strings: StringOverrides
        /// The colours.
        public var theme: Theme
        /// How buttons are laid out. Default horizontal everywhere.
        public var actionsLayout: ActionsLayout
        /// What a tap on a link does. Default ``LinkHandler/external``.
        public var linkHandler: LinkHandler
        /// How the in-chat web view looks.
        public var webViewConfiguration: WebViewConfiguration
        /// A `DateFormatter` pattern for day headers; `nil` uses `timestampFormat`, as Oracle's header is "an
        /// absolute timestamp". Default `nil`.
        public var dayHeaderFormat: String?

        /// A configuration; every default is documented on its property.
        public init(
            locale: String? = nil, timeZone: TimeZone = .current, strings: StringOverrides = StringOverrides(),
            theme: Theme = Theme(), actionsLayout: ActionsLayout = ActionsLayout(),
            linkHandler: LinkHandler = .external,
            webViewConfiguration: WebViewConfiguration = WebViewConfiguration(), dayHeaderFormat: String? = nil
        ) {
            self.locale = locale
            self.timeZone = timeZone
            self.strings = strings
            self.theme = theme
            self.actionsLayout = actionsLayout
            self.linkHandler = linkHandler
            self.webViewConfiguration = webViewConfiguration
            self.dayHeaderFormat = dayHeaderFormat
        }
    }

    /// What the platform does for the model: things a Linux-tested model cannot do itself. Each has a default that
    /// does nothing (or finds no location), so an app sets only what its screen offers.
    ///
    /// ```swift
    /// let actions = ChatViewModel.PlatformActions(
    ///     openExternally: { url in UIApplication.shared.open(url) },
    ///     requestLocation: { await locationService.current() })
    /// ```
    public struct PlatformActions: Sendable {
        /// Opens a URL outside the chat: a web page in the browser (``LinkHandler/external``), `tel:` for a `call`
        /// action.
        public var openExternally: @MainActor @Sendable (URL) -> Void
        /// Asks the user for their location (a `location` action, or the share menu's location item); `nil` when
        /// they refuse or it is unknown.
        public var requestLocation: @MainActor @Sendable () async -> Location?
        /// Shares a text (a `share` action: the message's text) with the system's share sheet.
        public var share: @MainActor @Sendable (String) -> Void
        /// Runs a `client` action (`actionType`, such as `copyMessageText`), with the message it belongs to.
        public var clientAction: @MainActor @Sendable (Action, ChatMessage) -> Void

        /// Actions; each does nothing unless given.
        public init(
            openExternally: @escaping @MainActor @Sendable (URL) -> Void = { _ in },
            requestLocation: @escaping @MainActor @Sendable () async -> Location? = { nil },
            share: @escaping @MainActor @Sendable (String) -> Void = { _ in },
            clientAction: @escaping @MainActor @Sendable (Action, ChatMessage) -> Void = { _, _ in }
        ) {
            self.openExternally = openExternally
            self.requestLocation = requestLocation
            self.share = share
            self.clientAction = clientAction
        }
    }
}
