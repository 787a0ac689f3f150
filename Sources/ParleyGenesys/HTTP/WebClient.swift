#if canImport(FoundationNetworking)
    public import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// One HTTP request to a GMS server: what ``WebClient`` sends.
public struct WebRequest: Sendable, Hashable {
    /// `GET`, `POST`, …
    public var method: String
    /// The full URL, with its query.
    public var url: URL
    /// Header fields, by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: [UInt8]?
    /// How long to wait for the answer; long polls need more than the server's hold time.
    public var timeout: Duration

    /// A request.
    public init(
        method: String = "POST", url: URL, headers: [String: String] = [:], body: [UInt8]? = nil,
        timeout: Duration = .seconds(60)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A request whose body is a `application/x-www-form-urlencoded` form.
    public static func form(
        _ method: String = "POST", url: URL, fields: [(String, String)], headers: [String: String] = [:]
    ) -> WebRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return WebRequest(method: method, url: url, headers: headers, body: Array(FormEncoding.encode(fields).utf8))
    }
}

/// The answer to a ``WebRequest``.
public struct WebResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields; a repeated field (such as `Set-Cookie`) appears once per value.
    public var headers: [(name: String, value: String)] {
        get { headerList.map { ($0.name, $0.value) } }
        set { headerList = newValue.map { Header(name: $0.name, value: $0.value) } }
    }
    /// The body.
    public var body: [UInt8]

    private var headerList: [Header]
    private struct Header: Sendable, Hashable {
        var name: String
        var value: String
    }

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headerList = headers.map { Header(name: $0.name, value: $0.value) }
        self.body = body
    }

    /// The values of the header `name`, compared case-insensitively.
    public func values(of name: String) -> [String] {
        headerList.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// The HTTP seam of ParleyGenesys: every request to GMS (dialogs, chat, Bayeux) goes through one.
///
/// The default is ``URLSessionWebClient``; tests inject a recording or scripted one.
public protocol WebClient: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    /// - Throws: When no answer arrives (network failure, timeout, cancellation).
    func send(_ request: WebRequest) async throws -> WebResponse
}

/// A ``WebClient`` on Foundation's `URLSession` (plain HTTP works on Linux too). It neither stores nor sends
/// cookies by itself: the Bayeux client keeps its own.
public struct URLSessionWebClient: WebClient {
    private let session: URLSession

    /// A client on a new session without a cookie store or cache.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 120
        session = URLSession(configuration: configuration)
    }

    /// A client on `session`.
    public init(session: URLSession) {
        self.session = session
    }

    /// Sends `request` with `URLSession`.
    public func send(_ request: WebRequest) async throws -> WebResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        let seconds = request.timeout.components
        urlRequest.timeoutInterval = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        #if canImport(FoundationNetworking)
            // Cancelling an async URLSession request crashes swift-corelibs-foundation ("Trying to access a
            // behaviour for a task that in not in the registry"), so on Linux the request runs in its own task and
            // a cancelled caller just stops waiting for it. That task is also given up on a second after the
            // request's timeout: swift-corelibs-foundation was seen to leave a request unanswered for two minutes
            // under load, which stalled a Bayeux session's long poll (and its messages) for as long.
            let session = session
            let prepared = urlRequest
            let (data, response) = try await Self.firstOf(
                { try await session.data(for: prepared) }, orTimeoutAfter: request.timeout + .seconds(1))
        #else
            let (data, response) = try await session.data(for: urlRequest)
        #endif
        guard let http = response as? HTTPURLResponse else {
            throw ParleyError(.gmsBadResponse, "\(request.url) did not answer with HTTP")
        }
        var headers: [(name: String, value: String)] = []
        for case (let name as String, let value as String) in http.allHeaderFields {
            // Foundation joins repeated Set-Cookie fields with ", "; split them back where a new cookie starts.
            if name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                headers += CookieJar.splitJoinedSetCookie(value).map { (name, $0) }
            } else {
                headers.append((name, value))
            }
        }
        return WebResponse(status: http.statusCode, headers: headers, body: Array(data))
    }
}

/// `application/x-www-form-urlencoded` encoding.
enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacingOccurrences(
            of: "%20", with: "+")
    }

    static func decode(_ body: String) -> [(String, String)] {
        body.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                let plain = part.replacingOccurrences(of: "+", with: " ")
                return plain.removingPercentEncoding ?? plain
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}

#if canImport(FoundationNetworking)
    extension URLSessionWebClient {
        /// The result of `operation`, or `URLError(.timedOut)` once `limit` has passed, whichever comes first; the
        /// operation is not cancelled (see ``send(_:)``) but no longer awaited.
        static func firstOf<Value: Sendable>(
            _ operation: @escaping @Sendable () async throws -> Value, orTimeoutAfter limit: Duration
        ) async throws -> Value {
            let outcome = FirstOutcome<Value>()
            return try await withCheckedThrowingContinuation { continuation in
                outcome.waiter(continuation)
                let alarm = Task {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    outcome.finish(.failure(URLError(.timedOut)))
                }
                Task {
                    do {
                        outcome.finish(.success(try await operation()))
                    } catch {
                        outcome.finish(.failure(error))
                    }
                    alarm.cancel()
                }
            }
        }
    }

    /// Resumes its waiter with the first outcome it is given; later ones are dropped.
    private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Value, any Error>?

        func waiter(_ continuation: CheckedContinuation<Value, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func finish(_ result: Result<Value, any Error>) {
            let waiting = lock.withLock {
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(with: result)
        }
    }
#endif
