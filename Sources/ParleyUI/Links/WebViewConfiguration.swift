public import Foundation

/// How the in-chat web view looks (Oracle's `WebViewConfiguration`, set as `BotsProperties.WebViewConfig`).
public struct WebViewConfiguration: Sendable, Hashable {
    /// How much of the screen the web view covers (Oracle's `WebViewSize`).
    public enum Size: Sendable, Hashable {
        /// Part of the screen, over the chat (Oracle's `partial`).
        case partial
        /// The whole screen (Oracle's `full`).
        case full
    }

    /// The web view's size. Default ``Size/partial`` (Oracle's iOS page gives no default; Oracle's Web SDK opens
    /// its web view partly, "tall", by default).
    public var size: Size
    /// The close button's text; `nil` uses `odais_done`. Default `nil`.
    public var clearButtonLabel: String?
    /// An icon (asset name or URL) at the start of the close button; empty for none. Default empty.
    public var clearButtonIcon: String
    /// The close button's text colour. Default white.
    public var clearButtonLabelColor: RGBA
    /// The close button's background. Default clear.
    public var clearButtonColor: RGBA
    /// The web view header's background; `nil` uses the theme's navigation bar colour. Default `nil`.
    public var webviewHeaderColor: RGBA?
    /// The colour of the header's title (the page's URL); `nil` uses the theme's header text colour. Default `nil`.
    public var webviewTitleColor: RGBA?

    /// A configuration; the defaults are Oracle's.
    public init(
        size: Size = .partial, clearButtonLabel: String? = nil, clearButtonIcon: String = "",
        clearButtonLabelColor: RGBA = .white, clearButtonColor: RGBA = .clear, webviewHeaderColor: RGBA? = nil,
        webviewTitleColor: RGBA? = nil
    ) {
        self.size = size
        self.clearButtonLabel = clearButtonLabel
        self.clearButtonIcon = clearButtonIcon
        self.clearButtonLabelColor = clearButtonLabelColor
        self.clearButtonColor = clearButtonColor
        self.webviewHeaderColor = webviewHeaderColor
        self.webviewTitleColor = webviewTitleColor
    }
}

/// A page to show in the chat's web view, with everything the view needs to draw its header.
public struct WebViewPresentation: Sendable, Hashable, Identifiable {
    /// The page (also the header's title, as in Oracle's SDK).
    public var url: URL
    /// The web view's size.
    public var size: WebViewConfiguration.Size
    /// The close button's text (``WebViewConfiguration/clearButtonLabel`` or `odais_done`).
    public var closeButtonLabel: String
    /// The close button's icon, or empty.
    public var closeButtonIcon: String
    /// The close button's text colour.
    public var closeButtonLabelColor: RGBA
    /// The close button's background.
    public var closeButtonColor: RGBA
    /// The header's background.
    public var headerColor: RGBA
    /// The title's colour.
    public var titleColor: RGBA
    /// The page's URL, as a string.
    public var id: String { url.absoluteString }
}
