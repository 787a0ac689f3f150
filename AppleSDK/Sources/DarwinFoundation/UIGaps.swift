// Foundation declarations of the iOS 18 SDK (Xcode 16) that swift-corelibs-foundation on Linux lacks and that
// Parley's UI code uses: `URLRequest` (Linux has it in FoundationNetworking, which an iOS target never imports).
// Transcribed from developer.apple.com/documentation/foundation/urlrequest and …/urlrequest/init(url:cachepolicy:
// timeoutinterval:). Interface only: bodies trap, nothing here runs.
public import Foundation

/// A URL load request that is independent of protocol or URL scheme.
@available(iOS 7.0, macOS 10.9, *)
public struct URLRequest: Hashable, Equatable, Sendable {
    /// Creates and initializes a URL request with the given URL, cache policy and timeout interval.
    public init(url: URL, cachePolicy: CachePolicy = .useProtocolCachePolicy, timeoutInterval: TimeInterval = 60.0) {
        fatalError()
    }
    /// The URL of the request.
    public var url: URL? {
        get { fatalError() }
        set { fatalError() }
    }

    /// Constants that specify the interaction with the cached responses.
    public enum CachePolicy: UInt, Sendable {
        case useProtocolCachePolicy = 0
        case reloadIgnoringLocalCacheData = 1
        case returnCacheDataElseLoad = 2
        case returnCacheDataDontLoad = 3
    }
}

// developer.apple.com/documentation/foundation/url/startaccessingsecurityscopedresource() and
// …/url/stopaccessingsecurityscopedresource() (iOS 8): Darwin only.
extension URL {
    /// In an app that has adopted App Sandbox, makes the resource pointed to by a security-scoped URL available to
    /// the app.
    @available(iOS 8.0, macOS 10.7, *)
    public func startAccessingSecurityScopedResource() -> Bool { fatalError() }
    /// In an app that adopts App Sandbox, revokes access to the resource pointed to by a security-scoped URL.
    @available(iOS 8.0, macOS 10.7, *)
    public func stopAccessingSecurityScopedResource() { fatalError() }
}
