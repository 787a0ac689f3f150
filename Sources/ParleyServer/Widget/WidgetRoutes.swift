import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyUI

/// The web chat widget: `GET /` and `GET /widget` (the page), `GET /widget/<module>.js` (its JavaScript modules,
/// `parley-widget.js` first) and `GET /widget/parley-widget.css` (its style), `GET /widget/strings.json` (ParleyUI's
/// string tables), and `GET /widget/config` (the channel it connects to when the page is given none, and whether
/// that channel wants a session secret).
///
/// The page's `frame-ancestors` (and `X-Frame-Options: SAMEORIGIN` when only this server may frame it) come from
/// the allowed origins of the channel the page will chat on; see ``pageChannel(_:in:)``.
///
/// The files are package resources of ParleyServer (`Widget/Assets`), read once when the server is built. The
/// modules and the strings may be loaded by a page of another site (`<script type="module" src=…>` is a CORS
/// request): they are public, and answer any origin.
struct WidgetRoutes {
    let configuration: ServerConfiguration
    let assets: WidgetAssets
    /// `index.html` with the chat servers a link may name (``ServerConfiguration/widgetChatServers``).
    let page: [UInt8]
    /// The page's Content-Security-Policy without its `frame-ancestors`.
    let contentSecurityPolicy: String
    /// ParleyUI's string tables as JSON, `{"en": {"odais_chat_title": "Ask", …}, "fr": {…}, …}`.
    let strings: [UInt8]

    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        self.assets = try WidgetAssets.load()
        page = Self.page(assets.page, chatServers: configuration.widgetChatServers)
        contentSecurityPolicy = Self.contentSecurityPolicy(chatServers: configuration.widgetChatServers)
        strings = Self.stringTables().jsonBytes()
    }

    /// ParleyUI's `.strings` tables (`Sources/ParleyUI/Resources/Strings`), by language tag then key: the texts the
    /// widget shows, the same as the native screens'.
    static func stringTables() -> JSONValue {
        let tables = Strings.bundledLocales.compactMap { locale -> JSONObject.Member? in
            guard let table = Strings.bundledTable(for: locale) else { return nil }
            let texts = table.keys.sorted().map { JSONObject.Member($0, .string(table[$0] ?? "")) }
            return JSONObject.Member(locale, .object(JSONObject(texts)))
        }
        return .object(JSONObject(tables))
    }

    /// The page's Content-Security-Policy without its `frame-ancestors`: scripts and styles only from this server,
    /// media from anywhere (skills send image and video links), connections only to this server and the other chat
    /// servers the operator listed (each origin, and its `ws:`/`wss:` twin for the sockets).
    static func contentSecurityPolicy(chatServers: [String]) -> String {
        var connect = ["'self'"]
        for origin in chatServers where isPlainOrigin(origin) {
            let socket = origin.lowercased().hasPrefix("https://") ? "wss://" : "ws://"
            connect += [origin, socket + origin.drop(while: { $0 != "/" }).dropFirst(2)]
        }
        return
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src * data: blob:; media-src * data: blob:; "
            + "connect-src \(connect.joined(separator: " ")); object-src 'none'; base-uri 'none'; form-action 'none'"
    }

    /// `index.html` with `<meta name="parley-chat-servers" content="…">` before `</head>` when the operator listed
    /// other chat servers: the widget's script lets a link (`?URI=`) name only these and the page's own origin.
    static func page(_ page: [UInt8], chatServers: [String]) -> [UInt8] {
        let origins = chatServers.filter(isPlainOrigin)
        guard !origins.isEmpty else { return page }
        let text = String(decoding: page, as: UTF8.self)
        let meta = "<meta name=\"parley-chat-servers\" content=\"\(origins.joined(separator: " "))\">\n</head>"
        return Array(text.replacingOccurrences(of: "</head>", with: meta).utf8)
    }

    func register(on router: Router<some RequestContext>) {
        router.get("/") { request, _ in page(request) }
        router.get("/widget") { request, _ in page(request) }
        router.get("/widget/{name}") { request, context in
            let name = try context.parameters.require("name")
            if name == "config" { return try defaults(request) }
            let anyOrigin: HTTPFields = [.accessControlAllowOrigin: "*"]
            if name == "strings.json" {
                return Self.response(strings, type: "application/json", extraHeaders: anyOrigin)
            }
            guard let asset = assets.files[name] else { throw HTTPError(.notFound) }
            return Self.response(asset.bytes, type: asset.contentType, extraHeaders: asset.isModule ? anyOrigin : [:])
        }
    }

    private func page(_ request: Request) -> Response {
        let ancestors = Self.frameAncestors(for: Self.pageChannel(request.uri.queryParameters, in: configuration))
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] =
            contentSecurityPolicy + "; frame-ancestors " + ancestors.joined(separator: " ")
        if ancestors == ["'self'"] { headers[.xFrameOptions] = "SAMEORIGIN" }
        headers[.referrerPolicy] = "no-referrer"
        return Self.response(page, type: "text/html; charset=utf-8", extraHeaders: headers)
    }

    // MARK: Framing

    /// The channel a page will chat on, decided as the widget's script decides it: the last `channelId` query
    /// parameter, else the `channelId` of the `config` query parameter's JSON, else (when both are absent or empty)
    /// the default channel. `nil` when that channel does not exist or the `config` JSON cannot be read.
    ///
    /// A `window.parleyConfig` set by a host page cannot be seen here, but it only exists when the host page loads
    /// the script itself, where framing does not apply.
    static func pageChannel(_ query: Parameters, in configuration: ServerConfiguration) -> ChannelConfiguration? {
        var named: String?
        if let config = query.get("config") {
            guard let json = try? JSONValue(parsing: config), case .object = json else { return nil }
            switch json["channelId"] {
            case .string(let id)?: named = id
            case nil, .null?: break
            default: return nil
            }
        }
        if let last = query.getAll("channelId").last { named = last }
        guard let named, !named.isEmpty else { return defaultChannel(in: configuration) }
        return configuration.channel(named)
    }

    /// The `frame-ancestors` sources for a page that chats on `channel`: `*` when the channel's
    /// ``ChannelConfiguration/frameOrigins`` say `*`, else `'self'` and those origins (by default the channel's allowed
    /// origins other than `*`; only plain `http(s)://host[:port]` origins, as others could not match a browser origin
    /// anyway). Only `'self'` for no channel or a disabled one.
    static func frameAncestors(for channel: ChannelConfiguration?) -> [String] {
        guard let channel, channel.enabled else { return ["'self'"] }
        let origins = channel.frameOrigins ?? channel.allowedOrigins.filter { $0 != "*" }
        if origins.contains("*") { return ["*"] }
        var sources = ["'self'"]
        for origin in origins where isPlainOrigin(origin) && !sources.contains(origin) {
            sources.append(origin)
        }
        return sources
    }

    /// Whether `origin` is `http(s)://host[:port]` with nothing else: safe to put into a CSP header as it is.
    static func isPlainOrigin(_ origin: String) -> Bool {
        origin.wholeMatch(of: /https?:\/\/[A-Za-z0-9.\-]+(:[0-9]{1,5})?/) != nil
            || origin.wholeMatch(of: /https?:\/\/\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?/) != nil
    }

    // MARK: Configuration

    /// `{"channelId": …, "channelName": …, "maxAttachmentSize": …, "sessionSecrets": …}` for the channel named by
    /// the `channelId` query parameter (404 when there is no such channel), or else for the first enabled channel
    /// without client authentication (`null` members when there is none). `sessionSecrets` says whether the widget
    /// must get a session secret (`POST /chat/v1/sessions`) before it connects. Any origin may read it
    /// (`Access-Control-Allow-Origin: *`): it holds nothing secret, and a widget on another origin needs it.
    private func defaults(_ request: Request) throws(CodedHTTPError) -> Response {
        let cors: HTTPFields = [.accessControlAllowOrigin: "*"]
        let channel: ChannelConfiguration?
        if let named = request.uri.queryParameters.get("channelId"), !named.isEmpty {
            guard let found = configuration.channel(named) else {
                throw CodedHTTPError(.notFound, .unknownChannel, "no such channel", headers: cors)
            }
            channel = found
        } else {
            channel = Self.defaultChannel(in: configuration)
        }
        let body: JSONValue = [
            "channelId": channel.map { .string($0.id) } ?? .null,
            "channelName": channel.map { .string($0.name) } ?? .null,
            "maxAttachmentSize": configuration.maxAttachmentSize.jsonValue,
            "sessionSecrets": .bool(channel.map(SessionSecrets.applies(to:)) ?? false),
        ]
        return Self.response(body.jsonBytes(), type: "application/json", extraHeaders: cors)
    }

    /// The channel the widget uses when the page names none: the first enabled, unauthenticated one.
    static func defaultChannel(in configuration: ServerConfiguration) -> ChannelConfiguration? {
        configuration.channels.first { $0.enabled && !$0.clientAuthenticationEnabled }
    }

    private static func response(_ bytes: [UInt8], type: String, extraHeaders: HTTPFields) -> Response {
        var headers = extraHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The widget's files, read from the package resources.
struct WidgetAssets: Sendable {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        /// A JavaScript module, which a page of another origin loads with CORS.
        var isModule: Bool { contentType.hasPrefix("text/javascript") }
    }

    /// `index.html`.
    let page: [UInt8]
    /// The other files by name: every `.js` module and `.css` style of the folder.
    let files: [String: File]

    /// The content type of each kind of file served, by extension.
    static let contentTypes = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]

    /// Reads the files from ParleyServer's resource bundle.
    static func load() throws -> WidgetAssets {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil) else {
            throw ParleyError(.internalError, "the web widget's files are missing from ParleyServer's resources")
        }
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            guard let type = contentTypes[(name as NSString).pathExtension] else { continue }
            files[name] = File(
                bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))), contentType: type)
        }
        return WidgetAssets(
            page: Array(try Data(contentsOf: folder.appendingPathComponent("index.html"))), files: files)
    }
}
