public import Foundation

/// Fetches GMS callback dialogs: the one a push names, and the next one when the user chooses a menu item.
///
/// ```swift
/// let service = CallbackService(configuration: .init(serverURL: URL(string: "http://gms.example:8080")!,
///                                                    gmsUser: "user-42"))
/// var dialog = try await service.dialog(for: CallbackPush(userInfo: userInfo))
/// if case .menu(let menu) = dialog.content, let ready = menu.items.first {
///     dialog = try await service.choose(ready)          // e.g. DialNumber or ConfirmationDialog
/// }
/// ```
public struct CallbackService: Sendable {
    /// Where GMS is and how to talk to it.
    public struct Configuration: Sendable, Hashable {
        /// The GMS host (`$(ServerURL)`), such as `http://135.34.145.123:8080`.
        public var serverURL: URL
        /// The path of the services API (`$(URLPath)`), default `/genesys/1/service/`.
        public var urlPath: String
        /// The `gms_user` header sent on every request, when set.
        public var gmsUser: String?
        /// The method for a request whose dialog does not name one: `POST`, as the GMS iOS documentation says.
        /// The public Android sample uses `GET`; set it for a deployment that wants that.
        public var defaultMethod: String
        /// More headers for every request (authentication, say).
        public var headers: [String: String]
        /// The GMS chat service a `StartChat` dialog's chat runs on, default `request-chat`; Chat API version 2
        /// names it in its channel (`/service/chatV2/{serviceName}`).
        public var chatServiceName: String
        /// The chat API each chat service speaks, by service name; a service not listed speaks
        /// ``ChatAPIVersion/version1`` (what GMS's documented `StartChat` dialog describes).
        public var chatAPIVersions: [String: ChatAPIVersion]

        /// A configuration.
        public init(
            serverURL: URL, urlPath: String = "/genesys/1/service/", gmsUser: String? = nil,
            defaultMethod: String = "POST", headers: [String: String] = [:], chatServiceName: String = "request-chat",
            chatAPIVersions: [String: ChatAPIVersion] = [:]
        ) {
            self.serverURL = serverURL
            self.urlPath = urlPath
            self.gmsUser = gmsUser
            self.defaultMethod = defaultMethod
            self.headers = headers
            self.chatServiceName = chatServiceName
            self.chatAPIVersions = chatAPIVersions
        }

        /// The chat API `service` speaks: its entry in ``chatAPIVersions``, else version 1.
        public func chatAPIVersion(for service: String) -> ChatAPIVersion {
            chatAPIVersions[service] ?? .version1
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    let web: any WebClient

    /// A service client.
    /// - Parameters:
    ///   - configuration: Where GMS is.
    ///   - web: How requests are sent; default ``URLSessionWebClient``.
    public init(configuration: Configuration, web: any WebClient = URLSessionWebClient()) {
        self.configuration = configuration
        self.web = web
    }

    /// `{ServerURL}{URLPath}{_id}/{_action}`: the URL a push's dialog is fetched from.
    public func url(for push: CallbackPush) -> URL {
        var base = configuration.serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var path = configuration.urlPath
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        let id = push.serviceID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? push.serviceID
        let action = push.action.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? push.action
        // Both parts are percent-encoded for a path, so the string is a URL; the fallback only keeps the type total.
        return URL(string: base + path + id + "/" + action)
            ?? configuration.serverURL.appendingPathComponent(path + push.serviceID + "/" + push.action)
    }

    /// Fetches the dialog a push names.
    /// - Throws: ``ParleyError/Code/gmsHTTPStatus`` on a non-2xx answer, ``ParleyError/Code/gmsBadResponse`` when
    ///   the answer is not a dialog, ``ParleyError/Code/connectionFailed`` when the request fails.
    public func dialog(for push: CallbackPush, method: String? = nil) async throws(ParleyError) -> Dialog {
        try await dialog(at: url(for: push), method: method ?? configuration.defaultMethod)
    }

    /// Requests a menu item's URL with its method and returns the next dialog.
    /// - Throws: ``ParleyError/Code/invalidValue`` when the item has no URL, and what ``dialog(at:method:)`` throws.
    public func choose(_ item: MenuItem) async throws(ParleyError) -> Dialog {
        guard let address = item.userActionURL, let url = resolve(address) else {
            throw ParleyError(.invalidValue, "the menu item \(item.label ?? "") has no usable _user_action_url")
        }
        return try await dialog(at: url, method: item.method ?? configuration.defaultMethod)
    }

    /// Requests `url` and decodes the answer as a dialog.
    /// - Throws: ``ParleyError/Code/gmsHTTPStatus``, ``ParleyError/Code/gmsBadResponse`` or
    ///   ``ParleyError/Code/connectionFailed``.
    public func dialog(at url: URL, method: String) async throws(ParleyError) -> Dialog {
        var headers = configuration.headers
        if let user = configuration.gmsUser { headers["gms_user"] = user }
        let method = method.uppercased()
        var request = WebRequest(method: method, url: url, headers: headers)
        if method == "POST" {
            request.headers["Content-Type"] = "application/x-www-form-urlencoded"
            request.body = []
        }
        let response: WebResponse
        do {
            response = try await web.send(request)
        } catch {
            throw ParleyError(.connectionFailed, "\(method) \(url) failed: \(error)", underlying: error)
        }
        guard response.isSuccess else {
            throw ParleyError(.gmsHTTPStatus, "\(method) \(url) answered HTTP \(response.status)")
        }
        do {
            return try Dialog(decodingLenient: response.body)
        } catch {
            throw ParleyError(.gmsBadResponse, "\(url) did not answer with a dialog: \(error)", underlying: error)
        }
    }

    /// A dialog URL as sent: a full URL, or a path resolved against ``Configuration/serverURL``.
    public func resolve(_ address: String) -> URL? {
        if let url = URL(string: address), url.scheme != nil { return url }
        return URL(string: address, relativeTo: configuration.serverURL)?.absoluteURL
    }
}
