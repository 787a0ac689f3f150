// Mirrors the iOS 18 SDK (Xcode 16) WebKit framework: the classes Parley's WKWebView host and web bridge use.
// Transcribed from developer.apple.com/documentation/webkit: WKWebView (`@MainActor class WKWebView : UIView`),
// WKWebView/init(frame:configuration:), …/load(_:), …/url, …/configuration,
// …/evaluatejavascript(_:completionhandler:) (`(@MainActor @Sendable (Any?, (any Error)?) -> Void)?`),
// WKWebViewConfiguration, WKUserContentController/add(_:name:), …/addUserScript(_:),
// …/removeScriptMessageHandler(forName:), WKUserScript/init(source:injectionTime:forMainFrameOnly:),
// WKUserScriptInjectionTime, WKScriptMessageHandler (`@MainActor protocol`), WKScriptMessage/body, WKNavigation.
// Interface only: bodies trap, nothing here runs.
@_exported import UIKit

/// An object that displays interactive web content, such as for an in-app browser.
@available(iOS 8.0, *)
@MainActor open class WKWebView: UIView {
    /// Creates a web view and initializes it with the specified frame and configuration data.
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    /// The object that contains the configuration details for the web view.
    open var configuration: WKWebViewConfiguration { fatalError() }  // `@NSCopying var configuration { get }`
    /// The URL for the current webpage.
    open var url: URL? { fatalError() }
    /// Loads the web content that the specified URL request object references and navigates to that content.
    @discardableResult open func load(_ request: URLRequest) -> WKNavigation? { fatalError() }
    /// Evaluates the specified JavaScript string.
    open func evaluateJavaScript(
        _ javaScriptString: String, completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) { fatalError() }
}

/// An object that tracks the loading progress of a webpage.
@available(iOS 8.0, *)
@MainActor open class WKNavigation: NSObject {}

/// A collection of properties that you use to initialize a web view.
@available(iOS 8.0, *)
@MainActor open class WKWebViewConfiguration: NSObject, NSCopying {
    public override init() { fatalError() }
    /// The object that coordinates interactions between your app's native code and the webpage's scripts and other
    /// content.
    open var userContentController: WKUserContentController {
        get { fatalError() }
        set { fatalError() }
    }
    nonisolated public func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

/// An object for managing interactions between JavaScript code and your web view, and for filtering content in your
/// web view.
@available(iOS 8.0, *)
@MainActor open class WKUserContentController: NSObject {
    public override init() { fatalError() }
    /// Installs a message handler that you can call from your JavaScript code.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) { fatalError() }
    /// Injects the specified script into the webpage's content.
    open func addUserScript(_ userScript: WKUserScript) { fatalError() }
    /// Uninstalls the custom message handler with the specified name from your JavaScript code.
    open func removeScriptMessageHandler(forName name: String) { fatalError() }
}

/// A script that the web view injects into a webpage.
@available(iOS 8.0, *)
@MainActor open class WKUserScript: NSObject {
    /// Creates a user script object that is scoped to a particular content world.
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) { fatalError() }
}

/// Constants that indicate when to inject a script into a webpage.
@available(iOS 8.0, *)
public enum WKUserScriptInjectionTime: Int, @unchecked Sendable {
    /// A constant to inject the script after the creation of the webpage's document element, but before loading any
    /// other content.
    case atDocumentStart = 0
    /// A constant to inject the script after the document finishes loading, but before loading any other subresources.
    case atDocumentEnd = 1
}

/// An interface for receiving messages from JavaScript code running in a webpage.
@available(iOS 8.0, *)
@MainActor public protocol WKScriptMessageHandler: NSObjectProtocol {
    /// Tells the handler that a webpage sent a script message.
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// An object that encapsulates a message sent by JavaScript code from a webpage.
@available(iOS 8.0, *)
@MainActor open class WKScriptMessage: NSObject {
    /// The body of the message.
    open var body: Any { fatalError() }
    /// The name of the message handler to which the message is sent.
    open var name: String { fatalError() }
}
