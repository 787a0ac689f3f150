import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore

/// `POST /chat/v1/attachments` and the download links it hands out.
///
/// Upload follows the Oracle server: multipart part `attachment`, `x-oda-meta-file-size`, at most
/// 25 MiB (413 beyond), an allow-list of media and document types (415 otherwise), and the answer
/// `{"type": MIME, "url": …, "fileName": …}`. Files are kept under `DATA/attachments/ID/NAME`;
/// on a client-authenticated channel both upload and download need the channel's token
/// (`Authorization: Bearer` to upload, `?token=` or the header to download).
struct AttachmentRoutes {
    let configuration: ServerConfiguration

    var directory: URL { configuration.dataDirectory.appendingPathComponent("attachments") }

    func register(on router: Router<some RequestContext>) {
        router.post("/chat/v1/attachments") { request, _ in try await upload(request) }
        router.get("/attachment/v1/attachments/{id}/{name}") { request, context in
            try await download(request, id: context.parameters.require("id"), name: context.parameters.require("name"))
        }
    }

    /// The types an upload may have: a MIME major type, or a full MIME type.
    static let allowedMajorTypes: Set<String> = ["image", "video", "audio", "text"]
    static let allowedTypes: Set<String> = [
        "application/pdf", "application/json", "application/zip", "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/vnd.ms-excel",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.ms-powerpoint",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation", "application/rtf",
    ]
    static let typesByExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "mp3": "audio/mpeg",
        "m4a": "audio/mp4", "wav": "audio/wav", "ogg": "audio/ogg", "txt": "text/plain", "csv": "text/csv",
        "pdf": "application/pdf", "json": "application/json", "zip": "application/zip", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation", "rtf": "application/rtf",
    ]

    private func upload(_ request: Request) async throws -> Response {
        let channel = try authorizedChannel(
            request, token: ChannelToken.bearerToken(in: request.headers[.authorization]))
        let limit = configuration.maxAttachmentSize
        if let declared = request.headers.first(where: { $0.name.canonicalName == "x-oda-meta-file-size" })
            .flatMap({ Int($0.value) }),
            declared > limit
        {
            throw HTTPError(.contentTooLarge, message: "attachments are limited to \(limit) bytes")
        }
        guard let contentType = request.headers[.contentType], let boundary = Self.boundary(of: contentType) else {
            throw HTTPError(.badRequest, message: "expected multipart/form-data with a boundary")
        }
        let body = try await request.body.collect(upTo: limit + 64 * 1024)
        let part = try Self.attachmentPart(in: body, boundary: boundary)
        guard part.body.readableBytes <= limit else {
            throw HTTPError(.contentTooLarge, message: "attachments are limited to \(limit) bytes")
        }
        guard part.body.readableBytes > 0 else { throw HTTPError(.badRequest, message: "the file is empty") }
        let fileName = Self.safeName(part.fileName ?? "attachment")
        let type = Self.mediaType(declared: part.contentType, fileName: fileName)
        guard let type else {
            throw HTTPError(
                .unsupportedMediaType, message: "files of type \(part.contentType ?? fileName) are not accepted")
        }
        let id = UUID().uuidString.lowercased()
        let folder = directory.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(part.body.readableBytesView).write(to: folder.appendingPathComponent(fileName))
        let metadata: JSONValue = ["channelId": .string(channel.id), "type": .string(type)]
        try Data(metadata.jsonBytes()).write(to: folder.appendingPathComponent(".metadata.json"))
        let url = "\(publicBase(request))/attachment/v1/attachments/\(id)/\(Self.percentEncoded(fileName))"
        let answer: JSONValue = ["type": .string(type), "url": .string(url), "fileName": .string(fileName)]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: answer.jsonBytes())))
    }

    private func download(_ request: Request, id: String, name: String) async throws -> Response {
        guard UUID(uuidString: id) != nil else { throw HTTPError(.notFound) }
        let folder = directory.appendingPathComponent(id)
        let fileName = Self.safeName(name.removingPercentEncoding ?? name)
        guard let metadataBytes = try? Data(contentsOf: folder.appendingPathComponent(".metadata.json")),
            let metadata = try? JSONValue(parsing: metadataBytes), let channelId = metadata["channelId"]?.stringValue,
            let bytes = try? Data(contentsOf: folder.appendingPathComponent(fileName))
        else { throw HTTPError(.notFound) }
        if let channel = configuration.channel(channelId), channel.clientAuthenticationEnabled {
            let token =
                request.uri.queryParameters.get("token")
                ?? ChannelToken.bearerToken(in: request.headers[.authorization])
            guard let token else {
                throw HTTPError(.unauthorized, message: "this attachment needs the channel's token")
            }
            do {
                _ = try ChannelToken.verify(token, for: channel)
            } catch {
                throw HTTPError(.unauthorized, message: "\(error.code): \(error.message)")
            }
        }
        return Response(
            status: .ok, headers: [.contentType: metadata["type"]?.stringValue ?? "application/octet-stream"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The channel of an upload, once the channel exists, is on, and (when it authenticates) the token is good.
    private func authorizedChannel(_ request: Request, token: String?) throws -> ChannelConfiguration {
        let query = request.uri.queryParameters
        guard let channelId = query.get("channelId"), let channel = configuration.channel(channelId) else {
            throw HTTPError(.notFound, message: "\(ParleyError.Code.unknownChannel): no such channel")
        }
        guard channel.enabled else {
            throw HTTPError(
                .forbidden, message: "\(ParleyError.Code.channelDisabled): channel \"\(channel.id)\" is disabled")
        }
        if channel.clientAuthenticationEnabled {
            guard let token else { throw HTTPError(.unauthorized, message: "\(ParleyError.Code.authRequired)") }
            do {
                _ = try ChannelToken.verify(token, for: channel, userId: query.get("userId"))
            } catch {
                throw HTTPError(.unauthorized, message: "\(error.code): \(error.message)")
            }
        }
        return channel
    }

    private func publicBase(_ request: Request) -> String {
        if let url = configuration.publicURL { return url.absoluteString.trimmingSuffix("/") }
        return "http://\(request.head.authority ?? "\(configuration.host):\(configuration.port)")"
    }

    // MARK: Multipart

    struct Part {
        var fileName: String?
        var contentType: String?
        var body: ByteBuffer
    }

    static func boundary(of contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        return headerParameter("boundary", in: contentType)
    }

    /// The part named `attachment`.
    static func attachmentPart(in body: ByteBuffer, boundary: String) throws -> Part {
        let parser = MultipartParser(boundary: boundary)
        var parts: [Part] = []
        var headers: [(String, String)] = []
        var current = ByteBuffer()
        parser.onHeader = { name, value in headers.append((name.lowercased(), value)) }
        parser.onBody = { chunk in current.writeBuffer(&chunk) }
        parser.onPartComplete = {
            let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
            if Self.headerParameter("name", in: disposition) == "attachment" {
                parts.append(
                    Part(
                        fileName: Self.headerParameter("filename", in: disposition).map {
                            $0.removingPercentEncoding ?? $0
                        },
                        contentType: headers.first { $0.0 == "content-type" }?.1, body: current))
            }
            headers = []
            current = ByteBuffer()
        }
        do {
            try parser.execute(body)
        } catch {
            throw HTTPError(.badRequest, message: "the multipart body does not parse: \(error)")
        }
        guard let part = parts.first else { throw HTTPError(.badRequest, message: "no part named \"attachment\"") }
        return part
    }

    /// The parameter `name` of a header value such as `form-data; name="attachment"`, unquoted.
    static func headerParameter(_ name: String, in value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name { return pair[1].trimmingCharacters(in: ["\""]) }
        }
        return nil
    }

    /// The accepted MIME type of an upload, from its declared type or else its extension; nil when not accepted.
    static func mediaType(declared: String?, fileName: String) -> String? {
        let byExtension = typesByExtension[(fileName as NSString).pathExtension.lowercased()]
        let declared = declared?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let candidate = (declared == nil || declared == "application/octet-stream") ? byExtension : declared
        guard let candidate else { return nil }
        let major = String(candidate.split(separator: "/").first ?? "")
        return allowedMajorTypes.contains(major) || allowedTypes.contains(candidate) ? candidate : nil
    }

    /// A file name safe to store and serve: no folders, no control characters, not hidden.
    static func safeName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\u{7F}" }.map(Character.init))
        let trimmed = cleaned.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return trimmed.isEmpty ? "attachment" : String(trimmed.prefix(200))
    }

    static func percentEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])) ?? "attachment"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
