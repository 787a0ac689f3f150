public import Foundation

/// What a tap on a link does (Oracle's `BotsProperties.LinkHandler`): a `url` action, a card's `url`, a link in a
/// text. A `webview` action always opens in the web view, whatever the handler.
///
/// ```swift
/// var configuration = ChatViewModel.Configuration()
/// configuration.linkHandler = .webView                  // Oracle's LinkHandlerType.webview
/// configuration.webViewConfiguration.size = .full
/// ```
public enum LinkHandler: Sendable {
    /// Open the page in the chat's own web view: ``ChatViewModel/webView`` is set and the view presents it
    /// (Oracle's `LinkHandlerType.webview`).
    case webView
    /// Hand the URL to the system (Safari, or the app that owns the scheme) through
    /// ``ChatViewModel/PlatformActions/openExternally``. The default.
    case external
    /// Call the app's closure with the URL, and do nothing else.
    case custom(@MainActor @Sendable (URL) -> Void)
}
