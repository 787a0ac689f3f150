#if canImport(WebKit)
    import Foundation
    public import WebKit

    /// Connects a `WKWebView` that shows a chat page to the app: the page's events arrive as ``BridgeEvent``s,
    /// and ``send(_:)`` calls into the page with safely encoded ``BridgeCommand``s.
    ///
    /// ```swift
    /// self.bridge = WebViewBridge<AppExtensions>(webView: webView, handlerName: "meboCallBack") { bridge, event in
    ///     switch event {
    ///     case .agentLoaded: Task { try await bridge.send(.setAppInfo(apiKey: token, uid: userId)) }
    ///     case .agentResponded(let response): handle(response.extensions)
    ///     case .error(let error): log(error)
    ///     case .unknown: break
    ///     }
    /// }
    /// ```
    ///
    /// `WKUserContentController` keeps its script message handlers alive, so registering a view controller
    /// directly leaks it. The bridge registers a small trampoline that holds the bridge weakly; call
    /// ``detach()`` when the web view goes away to remove the trampoline too.
    @MainActor
    public final class WebViewBridge<Extensions: Decodable & Sendable> {
        /// The name the page posts to: `window.webkit.messageHandlers.<handlerName>`.
        public let handlerName: String
        private weak var webView: WKWebView?
        private let trampoline = ScriptMessageTrampoline()
        private let onEvent: @MainActor (WebViewBridge<Extensions>, BridgeEvent<Extensions>) -> Void

        /// Registers the bridge's message handler on `webView`.
        /// - Parameters:
        ///   - webView: The web view showing the chat page (held weakly).
        ///   - handlerName: The handler the page posts to; `meboCallBack` for miibo's pages, `parley` or
        ///     `meboCallBack` for Parley's widget.
        ///   - onEvent: Called on the main actor with the bridge (to answer with ``send(_:)``) and each event the
        ///     page posts.
        public init(
            webView: WKWebView, handlerName: String = "meboCallBack",
            onEvent: @escaping @MainActor (WebViewBridge<Extensions>, BridgeEvent<Extensions>) -> Void
        ) {
            self.handlerName = handlerName
            self.webView = webView
            self.onEvent = onEvent
            trampoline.receive = { [weak self] body in self?.receive(body) }
            webView.configuration.userContentController.add(trampoline, name: handlerName)
        }

        /// Adds a script that sets `window.parleyConfig` before the page's own scripts run (Parley's widget
        /// reads it). Call before loading the page.
        public func addConfigurationScript(_ configuration: JSONValue) {
            let script = WKUserScript(
                source: JavaScript.configurationScript(configuration), injectionTime: .atDocumentStart,
                forMainFrameOnly: true)
            webView?.configuration.userContentController.addUserScript(script)
        }

        /// Runs `command` in the page.
        /// - Throws: The web view's error when the script fails (for example, the page has no such function),
        ///   or ``ParleyError`` `server.internal` when the web view is gone.
        public func send(_ command: BridgeCommand) async throws {
            guard let webView else { throw ParleyError(.internalError, "the web view of the bridge is gone") }
            let source = command.javaScript
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The completion-handler form: the async form traps when the script's value is undefined.
                webView.evaluateJavaScript(source) { _, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume()
                    }
                }
            }
        }

        /// Removes the message handler from the web view.
        public func detach() {
            webView?.configuration.userContentController.removeScriptMessageHandler(forName: handlerName)
            trampoline.receive = nil
        }

        private func receive(_ body: Any) {
            if let text = body as? String {
                onEvent(self, BridgeEvent(body: text))
            } else if JSONSerialization.isValidJSONObject(body),
                let data = try? JSONSerialization.data(withJSONObject: body)
            {
                onEvent(self, BridgeEvent(bytes: data))
            } else {
                onEvent(
                    self,
                    .unknown(
                        UnknownBridgeEvent(
                            name: nil, json: nil, body: String(describing: body),
                            problem: ParleyError(.typeMismatch, "the page posted a \(type(of: body)), not JSON text"))))
            }
        }
    }

    /// The object `WKUserContentController` retains: it forwards each message to a closure that holds the
    /// bridge weakly.
    @MainActor
    final class ScriptMessageTrampoline: NSObject, WKScriptMessageHandler {
        var receive: (@MainActor (Any) -> Void)?

        func userContentController(
            _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
        ) {
            receive?(message.body)
        }
    }
#endif
