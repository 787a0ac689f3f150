import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import _NIOFileSystem

/// `POST /chat/v1/attachments`, its CORS preflight, and the download links it hands out.
///
/// Upload follows the Oracle server: multipart part `attachment`, `x-oda-meta-file-size`, at most
/// ``ServerConfiguration/maxAttachmentSize`` (413 beyond), and the answer `{"type": MIME, "url": …, "fileName": …}`.
/// The body is streamed to a file, never gathered in memory (``UploadReceiver``). The stored type is sniffed from
/// the bytes (``MediaSniffer``) and must be on the channel's ``ChannelConfiguration/attachmentTypes`` (415
/// otherwise). Uploads are capped at once and per minute (``UploadLimiter``) and per user and channel in bytes
/// (``ServerConfiguration/userStorageQuota``). Every refusal is a coded JSON body (``CodedHTTPError``).
///
/// Downloads are served so that they never run as script on the chat origin: `X-Content-Type-Options: nosniff`,
/// a `sandbox` Content-Security-Policy, and `Content-Disposition: attachment` for anything but pictures, sound and
/// video. On a client-authenticated channel an upload needs the channel's token; its download needs the token too
/// only when the upload said `x-oda-meta-file-isProtected: True` (Oracle's `enableAttachmentSecurity`), and is
/// otherwise served to whoever has its unguessable URL, as Oracle's server does.
struct AttachmentRoutes {
    let configuration: ServerConfiguration
    /// Failed token checks per address (shared with the sockets).
    let signIns: SignInLimiter
    /// The session secrets of channels that bind user ids to them: an upload needs the user's, as the socket does.
    let sessions: SessionSecrets
    /// Uploads at once and per minute.
    let uploads: UploadLimiter
    /// Bytes of received uploads between their check against ``ServerConfiguration/attachmentQuota`` and the end of
    /// their storing: each check counts the uploads before it, so that uploads at once cannot pass it together.
    let unstoredBytes = NIOLockedValueBox(0)
    /// The data folder's attachments folder, where uploads in progress are written.
    let folder: AttachmentFolder
    /// Where attachments are kept: ``folder``, or a cluster's store.
    let store: any AttachmentStore
    /// The port the server listens on, for links when no public URL is configured.
    var listeningPort: ListeningPort

    /// Creates the routes.
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - signIns: Failed token checks per address.
    ///   - sessions: The session secrets (`sessionSecret` query parameter or `X-Parley-Session-Secret` header).
    ///   - store: Where attachments are kept; nil for the data folder.
    init(
        configuration: ServerConfiguration, signIns: SignInLimiter, sessions: SessionSecrets,
        store: (any AttachmentStore)? = nil, listeningPort: ListeningPort? = nil
    ) {
        self.listeningPort = listeningPort ?? ListeningPort(configuration.port)
        self.configuration = configuration
        self.signIns = signIns
        self.sessions = sessions
        self.uploads = UploadLimiter(
            maxConcurrent: configuration.maxConcurrentUploads,
            maxConcurrentPerUser: configuration.maxConcurrentUploadsPerUser,
            perWindow: configuration.uploadsPerUserPerMinute, deadline: configuration.uploadTimeout,
            minimumRate: configuration.uploadMinimumRate, rateWindow: configuration.uploadRateWindow,
            clock: configuration.clock)
        let folder = AttachmentFolder(
            folder: configuration.dataDirectory.appendingPathComponent("attachments"),
            logger: Logger(label: "parley.attachments"))
        self.folder = folder
        self.store = store ?? folder
    }

    func register(on router: Router<ChatRequestContext>) {
        router.post("/chat/v1/attachments") { request, context in try await upload(request, context: context) }
        router.on("/chat/v1/attachments", method: .options) { request, _ in
            let channel = try channel(of: request)
            return try CORS.attachments.preflight(request, allowedOrigins: channel.allowedOrigins)
        }
        router.get("/attachment/v1/attachments/{id}/{name}") { request, context in
            try await download(
                request, context: context, id: context.parameters.require("id"),
                name: context.parameters.require("name"))
        }
    }

    /// Types a browser shows inline without running anything: pictures, sound and video. Everything else is
    /// served as a download (`Content-Disposition: attachment`).
    static func isInline(_ type: String) -> Bool {
        ["image/png", "image/jpeg", "image/gif", "image/webp"].contains(type) || type.hasPrefix("audio/")
            || type.hasPrefix("video/")
    }

    /// Whether `channel` accepts files of `type`: an exact entry, or a `major/*` entry for any type but markup
    /// (HTML, SVG, XML must be named exactly).
    static func accepts(_ type: String, on channel: ChannelConfiguration) -> Bool {
        let entries = channel.attachmentTypes.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if entries.contains(type) { return true }
        guard !MediaSniffer.markupTypes.contains(type) else { return false }
        let major = type.split(separator: "/").first.map(String.init) ?? ""
        return entries.contains("\(major)/*") || entries.contains("*/*") || entries.contains("*")
    }

    // MARK: Upload

    private func upload(_ request: Request, context: ChatRequestContext) async throws -> Response {
        let channel = try channel(of: request)
        let cors = try CORS.checkedResponseHeaders(for: request, allowedOrigins: channel.allowedOrigins)
        do {
            var response = try await receive(request, channel: channel, context: context)
            response.headers.append(contentsOf: cors)
            return response
        } catch let error as CodedHTTPError {
            if [.attachmentTooSlow, .attachmentTimedOut].contains(error.error.code) {
                // The rest of the body would be read (at the client's pace) before the connection could serve another
                // request: end it once the answer is out.
                let channel = context.channel
                channel.eventLoop.scheduleTask(in: .milliseconds(250)) { channel.close(promise: nil) }
            }
            throw error.adding(cors)
        } catch {
            // A client that goes away mid-upload ends here too.
            context.logger.notice("an upload failed: \(error)")
            throw CodedHTTPError(.internalServerError, .internalError, "the server could not store the file")
                .adding(cors)
        }
    }

    private func receive(_ request: Request, channel: ChannelConfiguration, context: ChatRequestContext)
        async throws -> Response
    {
        let peer = context.clientAddress(of: request, trusting: configuration.trustedProxies)
        let userId = try uploader(of: request, on: channel, peer: peer)
        if SessionSecrets.applies(to: channel) {
            try await verifySession(of: request, userId: userId, on: channel, peer: peer)
        }
        let limit = configuration.maxAttachmentSize
        let declaredSize = header("x-oda-meta-file-size", in: request).flatMap { Int($0) }
        if let declaredSize, declaredSize > limit {
            throw CodedHTTPError(.contentTooLarge, .attachmentTooLarge, "attachments are limited to \(limit) bytes")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }),
            length > limit + UploadReceiver.overheadAllowance
        {
            throw CodedHTTPError(.contentTooLarge, .attachmentTooLarge, "attachments are limited to \(limit) bytes")
        }
        guard let contentType = request.headers[.contentType],
            contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = HeaderParameters(contentType)["boundary"], (1...70).contains(boundary.utf8.count)
        else {
            throw CodedHTTPError(
                .badRequest, .attachmentMalformed, "expected multipart/form-data with a boundary of 1 to 70 characters")
        }
        let isProtected =
            channel.clientAuthenticationEnabled
            && header("x-oda-meta-file-isprotected", in: request)?.trimmingCharacters(in: .whitespaces)
                .lowercased() == "true"

        if let total = configuration.attachmentQuota,
            try await totalUsage(context: context) + (declaredSize ?? 1) > total
        {
            throw storageFull()
        }
        let ticket = try uploads.admit(channelId: channel.id, userId: userId)
        defer { uploads.release(ticket) }
        let quota = configuration.userStorageQuota
        let used = try await usage(of: userId, on: channel, context: context)
        if used + (declaredSize ?? 1) > quota { throw quotaExceeded() }

        // One read per turn of the event loop for this connection, so that the chats sharing the loop wait for at
        // most one chunk of each upload, not four.
        try? await context.channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1).get()
        var reader = UploadReceiver(maximumSize: limit, quotaLeft: quota - used)
        reader.progress = ticket.progress
        let receiver = reader
        let folder = folder
        let received = try await uploads.supervise(ticket) {
            try await onUploadThread {
                try await Self.receive(
                    request.body, boundary: boundary, channel: channel, with: receiver, into: folder)
            }
        }
        // Counted from here until the store has it (then the store's total counts it); a later upload's check sees
        // it either way. Across the nodes of a cluster, uploads of other nodes are seen once stored.
        var unstored = configuration.attachmentQuota == nil ? 0 : received.size
        let unstoredWithThis = unstoredBytes.withLockedValue { bytes in
            bytes += unstored
            return bytes
        }
        defer { unstoredBytes.withLockedValue { [unstored] in $0 -= unstored } }
        if let total = configuration.attachmentQuota {
            let stored: Int
            do {
                stored = try await totalUsage(context: context)
            } catch {
                await folder.discard(received.path)
                throw error
            }
            if stored + unstoredWithThis > total {
                await folder.discard(received.path)
                throw storageFull()
            }
        }
        let id = AttachmentID.random()
        let fileName = AttachmentName.safe(received.givenName ?? "attachment")
        let record = AttachmentRecord(
            channelId: channel.id, userId: userId, type: received.type, size: received.size, fileName: fileName,
            protected: isProtected)
        let stored: Bool
        do {
            stored = try await store.store(StagedUpload(path: received.path), id: id, record: record, quota: quota)
            // The store's total counts it now (a check from here on may count it twice, and refuse an upload that
            // would just fit, for this instant only).
            unstoredBytes.withLockedValue { [unstored] in $0 -= unstored }
            unstored = 0
        } catch {
            await folder.discard(received.path)
            throw Self.storeFailure(error, context: context)
        }
        await folder.discard(received.path)
        guard stored else { throw quotaExceeded() }
        let url = "\(publicBase(request))/attachment/v1/attachments/\(id)/\(AttachmentName.pathSegment(fileName))"
        let answer: JSONValue = ["type": .string(received.type), "url": .string(url), "fileName": .string(fileName)]
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: answer.jsonBytes())))
    }

    /// Reads the body of an upload into the data folder's `.uploads` (``UploadReceiver``), checking the name and the
    /// sniffed type against `channel`.
    private static func receive(
        _ body: RequestBody, boundary: String, channel: ChannelConfiguration, with receiver: UploadReceiver,
        into folder: AttachmentFolder
    ) async throws -> UploadReceiver.Received {
        try await receiver.receive(
            body, boundary: boundary, into: folder,
            checkHeaders: { part throws(CodedHTTPError) in
                if let given = part.givenName, given.utf8.count > AttachmentName.maximumBytes {
                    throw CodedHTTPError(
                        .badRequest, .attachmentNameTooLong,
                        "the file name has \(given.utf8.count) bytes in UTF-8; "
                            + "at most \(AttachmentName.maximumBytes) are accepted"
                    )
                }
            },
            accept: { sniffed, part throws(CodedHTTPError) in
                let type = MediaSniffer.refine(
                    sniffed, declared: part.declaredType, fileName: AttachmentName.safe(part.givenName ?? ""))
                guard Self.accepts(type, on: channel) else {
                    throw CodedHTTPError(
                        .unsupportedMediaType, .attachmentUnsupportedType,
                        "the file's content is \(type); channel \"\(channel.id)\" does not accept it")
                }
                return type
            })
    }

    /// The bytes of every attachment the server keeps (for ``ServerConfiguration/attachmentQuota``).
    private func totalUsage(context: ChatRequestContext) async throws(CodedHTTPError) -> Int {
        do {
            return try await store.totalUsage()
        } catch {
            throw Self.storeFailure(error, context: context)
        }
    }

    private func storageFull() -> CodedHTTPError {
        CodedHTTPError(
            HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), .attachmentStorageFull,
            "the server keeps as many bytes of attachments as it allows; try again later",
            headers: [.retryAfter: "3600"])
    }

    /// The uploading user: the token's on a client-authenticated channel (counting bad tokens per address),
    /// the `userId` query parameter otherwise.
    private func uploader(of request: Request, on channel: ChannelConfiguration, peer: String) throws(CodedHTTPError)
        -> String
    {
        let userId = request.uri.queryParameters.get("userId")
        guard channel.clientAuthenticationEnabled else {
            guard let userId, !userId.isEmpty else {
                throw CodedHTTPError(.badRequest, .missingField, "the query needs the uploading user's userId")
            }
            do throws(ParleyError) {
                try ConversationKey.validate(userId: userId)
            } catch {
                throw CodedHTTPError(.badRequest, error)
            }
            return userId
        }
        let claims = try verifiedToken(
            ChannelToken.bearerToken(in: request.headers[.authorization]), on: channel, userId: userId, peer: peer)
        return claims.userId
    }

    /// Checks the session secret of an upload on a channel with session secrets: `401` without the user's secret,
    /// a wrong one counted against `peer`; `429` when `peer` has failed too often.
    private func verifySession(of request: Request, userId: String, on channel: ChannelConfiguration, peer: String)
        async throws(CodedHTTPError)
    {
        do {
            try signIns.check(peer)
        } catch {
            throw CodedHTTPError(.tooManyRequests, error, headers: [.retryAfter: "60"])
        }
        let secret =
            request.uri.queryParameters.get("sessionSecret")
            ?? request.headers[ChatSocket.Upgrade.sessionSecretHeader]
        do throws(ParleyError) {
            try await sessions.verify(channel: channel, userId: userId, secret: secret)
        } catch {
            if error.code == .sessionInvalid { signIns.recordFailure(peer) }
            throw CodedHTTPError(.unauthorized, error)
        }
    }

    /// The claims of `token` for `channel`; `401` when it is missing or bad (a bad one counted against `peer`),
    /// `429` when `peer` has failed too often.
    private func verifiedToken(_ token: String?, on channel: ChannelConfiguration, userId: String?, peer: String)
        throws(CodedHTTPError) -> TokenClaims
    {
        do {
            try signIns.check(peer)
        } catch {
            throw CodedHTTPError(.tooManyRequests, error, headers: [.retryAfter: "60"])
        }
        guard let token, !token.isEmpty else {
            throw CodedHTTPError(
                .unauthorized, .authRequired, "channel \"\(channel.id)\" needs its token (Authorization: Bearer)")
        }
        do {
            return try ChannelToken.verify(token, for: channel, userId: userId, now: configuration.clock.now())
        } catch {
            signIns.recordFailure(peer)
            throw CodedHTTPError(.unauthorized, error)
        }
    }

    /// The bytes the user keeps on the channel.
    private func usage(of userId: String, on channel: ChannelConfiguration, context: ChatRequestContext)
        async throws(CodedHTTPError) -> Int
    {
        do {
            return try await store.usage(channelId: channel.id, userId: userId)
        } catch {
            throw Self.storeFailure(error, context: context)
        }
    }

    /// A failure of the attachment store as an answer: `503` `store.unavailable` when the store says so (its
    /// database is away), otherwise a `500` `internal.error` that tells the client nothing more (the log does).
    private static func storeFailure(_ error: any Error, context: ChatRequestContext) -> CodedHTTPError {
        if let error = error as? ParleyError, error.code == .storeUnavailable {
            return CodedHTTPError(.serviceUnavailable, error, headers: [.retryAfter: "5"])
        }
        if let error = error as? ParleyError, error.code == .attachmentUnreadable {
            context.logger.error("\(error)")
            return CodedHTTPError(
                .internalServerError, .attachmentUnreadable, "the stored attachment could not be read")
        }
        context.logger.error("the attachment store failed: \(error)")
        return CodedHTTPError(.internalServerError, .internalError, "the server could not reach the stored files")
    }

    private func quotaExceeded() -> CodedHTTPError {
        CodedHTTPError(
            .contentTooLarge, .attachmentQuotaExceeded,
            "this file would exceed the user's attachment storage on this channel "
                + "(\(configuration.userStorageQuota) bytes)"
        )
    }

    /// The channel named by the `channelId` query parameter, when it exists and is on.
    private func channel(of request: Request) throws(CodedHTTPError) -> ChannelConfiguration {
        guard let channelId = request.uri.queryParameters.get("channelId"),
            let channel = configuration.channel(channelId)
        else {
            throw CodedHTTPError(.notFound, .unknownChannel, "no such channel")
        }
        guard channel.enabled else {
            throw CodedHTTPError(.forbidden, .channelDisabled, "channel \"\(channel.id)\" is disabled")
        }
        return channel
    }

    private func header(_ name: String, in request: Request) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// Where clients reach the server: ``ServerConfiguration/publicURL``, or else the configured host and the port
    /// the server listens on, with the scheme it serves (`https` with TLS). Never the request's `Host` header: any
    /// client can write it, and a link made from it would be handed to every reader of the conversation.
    private func publicBase(_ request: Request) -> String {
        if let url = configuration.publicURL {
            var base = url.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return base
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.tls == nil ? "http" : "https")://\(host):\(listeningPort.value)"
    }

    // MARK: Download

    /// The Content-Security-Policy of every download: no script, no plugins, no navigation, no network but our own
    /// pictures and media.
    static let downloadPolicy =
        "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'"

    private func download(_ request: Request, context: ChatRequestContext, id: String, name: String) async throws
        -> Response
    {
        let notFound = CodedHTTPError(.notFound, .attachmentNotFound, "no attachment has this address")
        let fileName = AttachmentName.safe(name.removingPercentEncoding ?? name)
        guard AttachmentID.isValid(id) else { throw notFound }
        let found: AttachmentRecord?
        do {
            found = try await store.attachment(id: id, named: fileName)
        } catch {
            throw Self.storeFailure(error, context: context)
        }
        guard let record = found else { throw notFound }
        let channel = configuration.channel(record.channelId)
        let cors = channel.map { CORS.responseHeaders(for: request, allowedOrigins: $0.allowedOrigins) } ?? [:]

        // Files stored before protection was recorded keep the old rule: protected whenever the channel
        // authenticates.
        let isProtected = record.protected ?? (channel?.clientAuthenticationEnabled ?? false)
        if isProtected {
            guard let channel, channel.secret != nil else { throw notFound.adding(cors) }
            let token =
                request.uri.queryParameters.get("token")
                ?? ChannelToken.bearerToken(in: request.headers[.authorization])
            do {
                _ = try verifiedToken(
                    token, on: channel, userId: nil,
                    peer: context.clientAddress(of: request, trusting: configuration.trustedProxies))
            } catch {
                throw error.adding(cors)
            }
        }

        let type = record.type
        var headers: HTTPFields = [
            .contentType: type.hasPrefix("text/") ? "\(type); charset=utf-8" : type,
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: Self.downloadPolicy,
            .crossOriginResourcePolicy: "cross-origin",
            .contentDisposition: AttachmentName.contentDisposition(inline: Self.isInline(type), name: fileName),
            .cacheControl: isProtected ? "private, no-store" : "private, max-age=86400",
        ]
        headers.append(contentsOf: cors.isEmpty ? [.vary: "Origin"] : cors)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: record.size) { [store] writer in
                var index = 0
                while let chunk = try await store.chunk(index, of: id, record: record) {
                    try await writer.write(chunk)
                    index += 1
                }
                try await writer.finish(nil)
            })
    }
}
