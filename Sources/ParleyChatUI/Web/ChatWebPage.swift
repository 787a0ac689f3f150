#if canImport(SwiftUI) && canImport(WebKit) && canImport(UIKit)
    public import SwiftUI
    public import WebKit
    import Foundation

    /// A `WKWebView` in SwiftUI: a page a chat opens (a `webview` action, a link with ``LinkHandler/webView``), or
    /// Parley's web widget driven through ParleyWebBridge.
    ///
    /// ```swift
    /// ChatWebPage(url: widgetURL) { webView in
    ///     bridge = WebViewBridge<AppExtensions>(webView: webView, handlerName: "parley") { bridge, event in … }
    ///     bridge?.addConfigurationScript(["channelId": "demo"])
    /// }
    /// ```
    ///
    /// `configure` runs once, before the page loads, so that a bridge's message handler and configuration script
    /// are in place when the page's scripts run. Not compiled in CI: see `docs/ios.md`.
    public struct ChatWebPage: UIViewRepresentable {
        /// The page.
        public let url: URL
        private let configure: @MainActor (WKWebView) -> Void

        /// A web view showing `url`, configured by `configure` first.
        public init(url: URL, configure: @escaping @MainActor (WKWebView) -> Void = { _ in }) {
            self.url = url
            self.configure = configure
        }

        /// Makes the web view, runs `configure` on it, and loads the page.
        public func makeUIView(context: Context) -> WKWebView {
            let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
            configure(webView)
            webView.load(URLRequest(url: url))
            return webView
        }

        /// Loads the page if nothing is loaded yet.
        public func updateUIView(_ webView: WKWebView, context: Context) {
            if webView.url == nil { webView.load(URLRequest(url: url)) }
        }
    }
#endif
