import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web chat widget: `GET /` and `GET /widget` (the page), `GET /widget/parley-widget.js` and
/// `GET /widget/parley-widget.css` (its script and style), and `GET /widget/config` (the channel it
/// connects to when the page is given none).
///
/// The files are package resources of ParleyServer (`Widget/Assets`), read once when the server is built.
struct WidgetRoutes {
    let configuration: ServerConfiguration
    let assets: WidgetAssets

    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        self.assets = try WidgetAssets.load()
    }

    /// The page's Content-Security-Policy: scripts and styles only from this server, media from anywhere
    /// (skills send image and video links), connections to this or the configured chat server.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src * data: blob:; media-src * data: blob:; "
        + "connect-src 'self' http: https: ws: wss:; object-src 'none'; base-uri 'none'; form-action 'none'"

    func register(on router: Router<some RequestContext>) {
        router.get("/") { _, _ in page() }
        router.get("/widget") { _, _ in page() }
        router.get("/widget/{name}") { _, context in
            let name = try context.parameters.require("name")
            if name == "config" { return defaults() }
            guard let asset = assets.files[name] else { throw HTTPError(.notFound) }
            return Self.response(asset.bytes, type: asset.contentType, extraHeaders: [:])
        }
    }

    private func page() -> Response {
        var headers = HTTPFields()
        headers[HTTPField.Name("Content-Security-Policy")!] = Self.contentSecurityPolicy
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Self.response(assets.page, type: "text/html; charset=utf-8", extraHeaders: headers)
    }

    /// `{"channelId": …, "channelName": …, "maxAttachmentSize": …}`: the first enabled channel without client
    /// authentication, or `null` when there is none.
    private func defaults() -> Response {
        let channel = Self.defaultChannel(in: configuration)
        let body: JSONValue = [
            "channelId": channel.map { .string($0.id) } ?? .null,
            "channelName": channel.map { .string($0.name) } ?? .null,
            "maxAttachmentSize": configuration.maxAttachmentSize.jsonValue,
        ]
        return Self.response(body.jsonBytes(), type: "application/json", extraHeaders: [:])
    }

    /// The channel the widget uses when the page names none: the first enabled, unauthenticated one.
    static func defaultChannel(in configuration: ServerConfiguration) -> ChannelConfiguration? {
        configuration.channels.first { $0.enabled && !$0.clientAuthenticationEnabled }
    }

    private static func response(_ bytes: [UInt8], type: String, extraHeaders: HTTPFields) -> Response {
        var headers = extraHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The widget's files, read from the package resources.
struct WidgetAssets: Sendable {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// `index.html`.
    let page: [UInt8]
    /// The other files by name.
    let files: [String: File]

    static let served: [(name: String, contentType: String)] = [
        ("parley-widget.js", "text/javascript; charset=utf-8"), ("parley-widget.css", "text/css; charset=utf-8"),
    ]

    /// Reads the files from ParleyServer's resource bundle.
    static func load() throws -> WidgetAssets {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil) else {
            throw ParleyError(.internalError, "the web widget's files are missing from ParleyServer's resources")
        }
        var files: [String: File] = [:]
        for (name, type) in served {
            files[name] = File(
                bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))), contentType: type)
        }
        return WidgetAssets(page: Array(try Data(contentsOf: folder.appendingPathComponent("index.html"))), files: files)
    }
}
