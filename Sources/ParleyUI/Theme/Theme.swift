/// The colours of a chat screen: Oracle's `BotsProperties` colours with the defaults Oracle's iOS SDK documents,
/// in a light and a dark palette.
///
/// ```swift
/// var theme = Theme()
/// theme.light.actionButton = RGBA(hex: "#8B0000") ?? theme.light.actionButton
/// let colours = theme.palette(for: .dark)      // what a view in dark mode paints with
/// ```
///
/// The light palette is Oracle's documented defaults. Oracle documents no dark values except the navigation bar of
/// its `REDWOOD_DARK` theme (`#201E1C`); the rest of ``Palette/dark`` is Parley's choice (contrast kept at
/// WCAG AA for text on its bubble), listed in `docs/ui.md`.
public struct Theme: Sendable, Hashable {
    /// Oracle's `BotUITheme`: which palette the screen uses.
    public struct Style: Sendable, Hashable, RawRepresentable {
        /// `DEFAULT` or `REDWOOD_DARK`.
        public let rawValue: String
        /// A style from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Oracle's `BotUITheme.DEFAULT`: the light palette, or the dark one when the system is in dark mode.
        public static let `default` = Style(rawValue: "DEFAULT")
        /// Oracle's `BotUITheme.REDWOOD_DARK`: the dark palette whatever the system's appearance.
        public static let redwoodDark = Style(rawValue: "REDWOOD_DARK")
    }

    /// The system's appearance, as a view reads it (SwiftUI's `colorScheme`, UIKit's `userInterfaceStyle`).
    public enum Appearance: Sendable, Hashable {
        /// Light mode.
        case light
        /// Dark mode.
        case dark
    }

    /// Oracle's `Theme` property. Default ``Style/default``.
    public var style: Style
    /// The colours in light mode. Default ``Palette/light`` (Oracle's documented defaults).
    public var light: Palette
    /// The colours in dark mode and with ``Style/redwoodDark``. Default ``Palette/dark``.
    public var dark: Palette

    /// A theme; the defaults are Oracle's colours and Parley's dark palette.
    public init(style: Style = .default, light: Palette = .light, dark: Palette = .dark) {
        self.style = style
        self.light = light
        self.dark = dark
    }

    /// The palette to paint with in `appearance`: ``dark`` with ``Style/redwoodDark`` or in dark mode.
    public func palette(for appearance: Appearance) -> Palette {
        style == .redwoodDark || appearance == .dark ? dark : light
    }
}

extension Theme {
    /// One set of colours, one property per colour of Oracle's `BotsProperties` (the name without `Color`), plus
    /// the navigation bar Oracle leaves to the app.
    public struct Palette: Sendable, Hashable {
        /// `ActionButtonColor`: an action button. Oracle: `#0077C2`.
        public var actionButton: RGBA
        /// `ActionLabelTextColor`: an action button's label. Oracle: white.
        public var actionLabelText: RGBA
        /// `BotMessageColor`: the skill's text, attachment and location bubbles. Oracle: `#BBDEFB`.
        public var botMessage: RGBA
        /// `BotTextColor`: the skill's text. Oracle: black.
        public var botText: RGBA
        /// `CardBackgroundColor`: a card. Oracle: `#BBDEFB`.
        public var cardBackground: RGBA
        /// `CardDescriptionTextColor`: a card's description. Oracle: black.
        public var cardDescriptionText: RGBA
        /// `CardTitleTextColor`: a card's title. Oracle: black.
        public var cardTitleText: RGBA
        /// `ChatBackgroundColor`: behind the messages. Oracle: `#FAFAFA`.
        public var chatBackground: RGBA
        /// `FooterColor`: the footer (composer) background. Oracle: `#004C8C`.
        public var footer: RGBA
        /// `FooterIconsColor`: the attach, send and microphone icons. Oracle: `#004C8C`.
        public var footerIcons: RGBA
        /// `HeaderIconsColor`: the clear, volume and mute icons in the header. Oracle: white.
        public var headerIcons: RGBA
        /// `HeaderTextColor`: the title, connection status and typing status in the header. Oracle: white.
        public var headerText: RGBA
        /// `InputFieldColor`: the text field. Oracle: white.
        public var inputField: RGBA
        /// `InputFieldTextColor`: the text in the text field. Oracle: black.
        public var inputFieldText: RGBA
        /// `TimestampColor`: message timestamps and day headers. Oracle: `UIColor.lightGray`.
        public var timestamp: RGBA
        /// `UserMessageColor`: the user's bubbles. Oracle: `#E0E0E0`.
        public var userMessage: RGBA
        /// `UserTextColor`: the user's text. Oracle: black.
        public var userText: RGBA
        /// The navigation bar (header) background, which Oracle's sample app sets: `#004C8C` with
        /// `BotUITheme.DEFAULT`, `#201E1C` with `REDWOOD_DARK`.
        public var navigationBar: RGBA

        /// A palette; every colour must be given (see ``light`` and ``dark`` for complete ones to start from).
        public init(
            actionButton: RGBA, actionLabelText: RGBA, botMessage: RGBA, botText: RGBA, cardBackground: RGBA,
            cardDescriptionText: RGBA, cardTitleText: RGBA, chatBackground: RGBA, footer: RGBA, footerIcons: RGBA,
            headerIcons: RGBA, headerText: RGBA, inputField: RGBA, inputFieldText: RGBA, timestamp: RGBA,
            userMessage: RGBA, userText: RGBA, navigationBar: RGBA
        ) {
            self.actionButton = actionButton
            self.actionLabelText = actionLabelText
            self.botMessage = botMessage
            self.botText = botText
            self.cardBackground = cardBackground
            self.cardDescriptionText = cardDescriptionText
            self.cardTitleText = cardTitleText
            self.chatBackground = chatBackground
            self.footer = footer
            self.footerIcons = footerIcons
            self.headerIcons = headerIcons
            self.headerText = headerText
            self.inputField = inputField
            self.inputFieldText = inputFieldText
            self.timestamp = timestamp
            self.userMessage = userMessage
            self.userText = userText
            self.navigationBar = navigationBar
        }

        /// Oracle's documented defaults (iOS SDK, "Colors").
        public static let light = Palette(
            actionButton: rgb(0x0077C2), actionLabelText: .white, botMessage: rgb(0xBBDEFB), botText: .black,
            cardBackground: rgb(0xBBDEFB), cardDescriptionText: .black, cardTitleText: .black,
            chatBackground: rgb(0xFAFAFA), footer: rgb(0x004C8C), footerIcons: rgb(0x004C8C), headerIcons: .white,
            headerText: .white, inputField: .white, inputFieldText: .black, timestamp: .lightGray,
            userMessage: rgb(0xE0E0E0), userText: .black, navigationBar: rgb(0x004C8C))

        /// Parley's dark palette: Oracle's `REDWOOD_DARK` navigation bar (`#201E1C`), the light palette's blues
        /// darkened for bubbles and lightened for buttons and icons, light text on dark surfaces.
        public static let dark = Palette(
            actionButton: rgb(0x4FA3E0), actionLabelText: .black, botMessage: rgb(0x1E3A52), botText: rgb(0xF5F5F5),
            cardBackground: rgb(0x1E3A52), cardDescriptionText: rgb(0xD6D6D6), cardTitleText: rgb(0xF5F5F5),
            chatBackground: rgb(0x121212), footer: rgb(0x201E1C), footerIcons: rgb(0x9CCBF0), headerIcons: .white,
            headerText: .white, inputField: rgb(0x2C2A28), inputFieldText: rgb(0xF5F5F5), timestamp: rgb(0x9E9E9E),
            userMessage: rgb(0x3A3A3A), userText: rgb(0xF5F5F5), navigationBar: rgb(0x201E1C))

        private static func rgb(_ value: UInt32) -> RGBA {
            RGBA(
                red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
                blue: Double(value & 0xFF) / 255)
        }
    }
}
