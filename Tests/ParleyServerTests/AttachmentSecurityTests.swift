import Foundation
import NIOCore
import Testing

@testable import ParleyServer

/// Hostile uploads and downloads against the real server (issue 18): stored script, error answers, size and rate
/// limits, quotas, CORS for Oracle's Web SDK on another origin, and protected downloads.
@Suite("Attachment security", .serialized, .timeLimit(.minutes(3)))
struct AttachmentSecurityTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)
    static let secret = "s3cret"
    static let secured = ChannelConfiguration(
        id: "secured", secret: secret, clientAuthenticationEnabled: true, skill: .echo)
    static let policy =
        "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'"

    static func token(user: String = "u1") -> String {
        ChannelToken.mint(channelId: "secured", userId: user, secret: secret, lifetime: 600)
    }

    /// Folders of stored attachments (not `.uploads`).
    static func storedAttachments(_ server: TestServer) -> [String] {
        let folder = server.dataDirectory.appendingPathComponent("attachments")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// Files left in `.uploads`.
    static func uploadsInProgress(_ server: TestServer) -> [String] {
        let folder = server.dataDirectory.appendingPathComponent("attachments/.uploads")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// Checks the headers every download must carry.
    static func expectSafeDownload(
        _ reply: RawHTTP.Reply, type: String, inline: Bool, fileName: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 200, "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.header("content-type") == type, sourceLocation: sourceLocation)
        #expect(reply.header("x-content-type-options") == "nosniff", sourceLocation: sourceLocation)
        #expect(reply.header("content-security-policy") == policy, sourceLocation: sourceLocation)
        #expect(reply.header("cross-origin-resource-policy") == "cross-origin", sourceLocation: sourceLocation)
        let encoded = AttachmentName.contentDisposition(inline: inline, name: fileName)
        #expect(reply.header("content-disposition") == encoded, sourceLocation: sourceLocation)
        #expect(
            reply.header("content-disposition")?.hasPrefix(
                inline ? "inline; filename*=UTF-8''" : "attachment; filename*=UTF-8''")
                == true, sourceLocation: sourceLocation)
    }

    // MARK: Stored script

    @Test func htmlAndSvgUploadsAreRefusedWhateverTheyAreCalled() async throws {
        try await withServer(channels: [Self.open]) { server in
            let attempts: [(String, String?, String)] = [
                ("page.html", "text/html", "<!DOCTYPE html><html><script>alert(document.cookie)</script></html>"),
                ("notes.txt", "text/plain", "<html><body onload=alert(1)>"),
                ("photo.png", "image/png", "\u{FEFF}  \r\n<script>fetch('/chat')</script>"),
                (
                    "logo.svg", "image/svg+xml",
                    "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"
                ),
                ("logo.jpg", "image/jpeg", "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
                ("data.xml", nil, "<?xml version=\"1.0\"?><root/>"),
                ("plain", "application/octet-stream", "<b>bold</b>"),
            ]
            for (name, type, content) in attempts {
                let reply = try await UploadFixture.upload(
                    port: server.port, fileName: name, type: type, content: UploadFixture.text(content))
                #expect(reply.status == 415, "\(name): \(reply)")
                #expect(reply.errorCode == "attachment.unsupportedType", "\(name)")
                #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
            }
            #expect(Self.storedAttachments(server).isEmpty)
            #expect(Self.uploadsInProgress(server).isEmpty)
        }
    }

    @Test func markupAllowedByAChannelIsServedAsASandboxedDownload() async throws {
        var channel = Self.open
        channel.attachmentTypes = ["text/html", "image/svg+xml", "image/*"]
        try await withServer(channels: [channel]) { server in
            let html = UploadFixture.text("<html><script>alert(1)</script></html>")
            let upload = try await UploadFixture.upload(
                port: server.port, fileName: "page.html", type: "text/html", content: html)
            #expect(upload.status == 200, "\(upload)")
            #expect(upload.json?["type"] == "text/html")
            let page = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(upload, port: server.port))
            Self.expectSafeDownload(page, type: "text/html; charset=utf-8", inline: false, fileName: "page.html")
            #expect(page.body == html)

            let svg = UploadFixture.text("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>")
            let svgUpload = try await UploadFixture.upload(
                port: server.port, fileName: "logo.svg", type: "image/svg+xml", content: svg)
            #expect(svgUpload.json?["type"] == "image/svg+xml")
            let logo = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(svgUpload, port: server.port))
            Self.expectSafeDownload(logo, type: "image/svg+xml", inline: false, fileName: "logo.svg")
        }
        // `image/*` alone does not let SVG in: markup must be named exactly.
        var wildcard = Self.open
        wildcard.attachmentTypes = ["image/*", "text/*"]
        try await withServer(channels: [wildcard]) { server in
            let svg = try await UploadFixture.upload(
                port: server.port, fileName: "logo.svg", type: "image/svg+xml",
                content: UploadFixture.text("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"))
            #expect(svg.status == 415)
            let html = try await UploadFixture.upload(
                port: server.port, fileName: "a.html", type: "text/html", content: UploadFixture.text("<html>"))
            #expect(html.status == 415)
        }
    }

    @Test func theStoredTypeIsSniffedNotDeclared() async throws {
        try await withServer(channels: [Self.open]) { server in
            let png = UploadFixture.png(2048)
            let upload = try await UploadFixture.upload(
                port: server.port, fileName: "x.html", type: "text/html", content: png)
            #expect(upload.status == 200, "\(upload)")
            #expect(upload.json?["type"] == "image/png")
            let image = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(upload, port: server.port))
            Self.expectSafeDownload(image, type: "image/png", inline: true, fileName: "x.html")
            #expect(image.body == png)

            // Text declared as a picture is text; bytes without a known type are refused whatever they claim.
            let text = try await UploadFixture.upload(
                port: server.port, fileName: "cat.png", type: "image/png", content: UploadFixture.text("meow\n"))
            #expect(text.json?["type"] == "text/plain")
            let binary = try await UploadFixture.upload(
                port: server.port, fileName: "setup.pdf", type: "application/pdf",
                content: [0x4D, 0x5A, 0x90, 0] + UploadFixture.filler(500))
            #expect(binary.status == 415)
            #expect(binary.errorCode == "attachment.unsupportedType")
        }
    }

    @Test func everyDownloadCarriesNosniffSandboxAndDisposition() async throws {
        try await withServer(channels: [Self.open]) { server in
            let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            let cases: [(name: String, declared: String?, content: [UInt8], type: String, inline: Bool)] = [
                ("photo.png", "image/png", UploadFixture.png(), "image/png", true),
                ("song.mp3", "audio/mpeg", UploadFixture.mp3(), "audio/mpeg", true),
                ("clip.mp4", "video/mp4", UploadFixture.mp4(4096), "video/mp4", true),
                ("menu.pdf", "application/pdf", UploadFixture.pdf(), "application/pdf", false),
                ("notes.txt", "text/plain", UploadFixture.text("hello"), "text/plain; charset=utf-8", false),
                ("prices.csv", "text/csv", UploadFixture.text("a,b\n1,2\n"), "text/csv; charset=utf-8", false),
                ("letter.docx", "application/octet-stream", UploadFixture.zip(), docx, false),
                ("naïve résumé.txt", nil, UploadFixture.text("ok"), "text/plain; charset=utf-8", false),
            ]
            for item in cases {
                let upload = try await UploadFixture.upload(
                    port: server.port, fileName: item.name, type: item.declared, content: item.content)
                #expect(upload.status == 200, "\(item.name): \(upload)")
                let download = try await RawHTTP.request(
                    port: server.port, try UploadFixture.downloadPath(upload, port: server.port))
                Self.expectSafeDownload(download, type: item.type, inline: item.inline, fileName: item.name)
                #expect(download.body == item.content, "\(item.name)")
            }
        }
    }

    @Test func attachmentsStoredBeforeSniffingAreServedSafely() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-legacy-\(UUID())")
        let attachments = data.appendingPathComponent("attachments")
        func legacy(_ id: String, name: String, type: String, content: [UInt8]) throws {
            let folder = attachments.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(content).write(to: folder.appendingPathComponent(name))
            try Data(#"{"channelId":"open","type":"\#(type)"}"#.utf8).write(
                to: folder.appendingPathComponent(".metadata.json"))
        }
        let html = UUID().uuidString.lowercased()
        let disguised = UUID().uuidString.lowercased()
        let picture = UUID().uuidString.lowercased()
        try legacy(html, name: "page.html", type: "text/html", content: UploadFixture.text("<script>alert(1)</script>"))
        try legacy(disguised, name: "cat.png", type: "image/png", content: UploadFixture.text("<html><script>"))
        try legacy(picture, name: "cat.png", type: "image/png", content: UploadFixture.png())
        try await withServer(channels: [Self.open], dataDirectory: data) { server in
            let page = try await RawHTTP.request(port: server.port, "/attachment/v1/attachments/\(html)/page.html")
            Self.expectSafeDownload(page, type: "application/octet-stream", inline: false, fileName: "page.html")
            let fake = try await RawHTTP.request(port: server.port, "/attachment/v1/attachments/\(disguised)/cat.png")
            Self.expectSafeDownload(fake, type: "application/octet-stream", inline: false, fileName: "cat.png")
            let real = try await RawHTTP.request(port: server.port, "/attachment/v1/attachments/\(picture)/cat.png")
            Self.expectSafeDownload(real, type: "image/png", inline: true, fileName: "cat.png")
        }
    }

    // MARK: Coded errors

    @Test func anOverlongFileNameGetsACodedBadRequest() async throws {
        try await withServer(channels: [Self.open]) { server in
            let long = try await UploadFixture.upload(
                port: server.port, fileName: String(repeating: "a", count: 796) + ".png", type: "image/png",
                content: UploadFixture.png())
            #expect(long.status == 400, "\(long)")
            #expect(long.errorCode == "attachment.nameTooLong")
            #expect(long.json?["error"]?["message"]?.stringValue?.isEmpty == false)

            // 86 emoji are 344 bytes in UTF-8: too long, even sent as encodeURI does.
            let emoji = String(repeating: "😀", count: 86) + ".png"
            let encoded = try await UploadFixture.upload(
                port: server.port,
                fileName: emoji.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed), type: "image/png",
                content: UploadFixture.png())
            #expect(encoded.errorCode == "attachment.nameTooLong")

            // 60 emoji (244 bytes with the extension) fit, arrive decoded, and are stored under that name.
            let fits = String(repeating: "😀", count: 60) + ".png"
            let stored = try await UploadFixture.upload(
                port: server.port, fileName: fits.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
                type: "image/png", content: UploadFixture.png())
            #expect(stored.status == 200, "\(stored)")
            #expect(stored.json?["fileName"]?.stringValue == fits)
            let download = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(stored, port: server.port))
            #expect(download.status == 200)
            #expect(Self.uploadsInProgress(server).isEmpty)
        }
    }

    @Test func everyUploadErrorIsACodedClientError() async throws {
        try await withServer(channels: [Self.open]) { server in
            let noBoundary = try await RawHTTP.request(
                port: server.port, method: "POST", "/chat/v1/attachments?channelId=open&userId=u1",
                headers: [("Content-Type", "multipart/form-data")], body: Array("x".utf8))
            #expect(noBoundary.status == 400)
            #expect(noBoundary.errorCode == "attachment.malformed")

            let emptyBoundary = try await RawHTTP.request(
                port: server.port, method: "POST", "/chat/v1/attachments?channelId=open&userId=u1",
                headers: [("Content-Type", "multipart/form-data; boundary=\"\"")], body: Array("x".utf8))
            #expect(emptyBoundary.status == 400)
            #expect(emptyBoundary.errorCode == "attachment.malformed")

            let truncated = Array(
                UploadFixture.multipart(fileName: "a.png", type: "image/png", content: UploadFixture.png()).dropLast(20)
            )
            let cut = try await RawHTTP.request(
                port: server.port, method: "POST", "/chat/v1/attachments?channelId=open&userId=u1",
                headers: [("Content-Type", "multipart/form-data; boundary=\(UploadFixture.boundary)")], body: truncated)
            #expect(cut.status == 400)
            #expect(cut.errorCode == "attachment.malformed")

            let wrongPart = try await RawHTTP.request(
                port: server.port, method: "POST", "/chat/v1/attachments?channelId=open&userId=u1",
                headers: [("Content-Type", "multipart/form-data; boundary=\(UploadFixture.boundary)")],
                body: UploadFixture.multipart(
                    name: "file", fileName: "a.png", type: "image/png", content: UploadFixture.png()))
            #expect(wrongPart.errorCode == "attachment.malformed")

            let empty = try await UploadFixture.upload(
                port: server.port, fileName: "a.txt", type: "text/plain", content: [])
            #expect(empty.status == 400)
            #expect(empty.errorCode == "attachment.empty")

            let noUser = try await UploadFixture.upload(
                port: server.port, user: nil, fileName: "a.txt", type: "text/plain", content: UploadFixture.text("x"))
            #expect(noUser.status == 400)
            #expect(noUser.errorCode == "decode.missingField")

            let controlUser = try await UploadFixture.upload(
                port: server.port, user: "u1%00x", fileName: "a.txt", type: "text/plain",
                content: UploadFixture.text("x"))
            #expect(controlUser.status == 400)
            #expect(controlUser.errorCode == "decode.invalidValue")

            let unknown = try await UploadFixture.upload(
                port: server.port, channel: "nope", fileName: "a.txt", type: "text/plain",
                content: UploadFixture.text("x"))
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "channel.unknown")

            let missing = try await RawHTTP.request(
                port: server.port, "/attachment/v1/attachments/\(String(repeating: "a", count: 32))/x.png")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "attachment.notFound")
            let traversal = try await RawHTTP.request(
                port: server.port, "/attachment/v1/attachments/..%2F..%2Fetc/passwd")
            #expect(traversal.status == 404)
        }
    }

    @Test func aTooLargeUploadGets413AndLeavesNoFile() async throws {
        let limit = 64 * 1024
        try await withServer(channels: [Self.open], configure: { $0.maxAttachmentSize = limit }) { server in
            // No size header: the server finds out while streaming.
            let over = try await UploadFixture.upload(
                port: server.port, fileName: "big.png", type: "image/png", content: UploadFixture.png(limit + 1),
                declareSize: false)
            #expect(over.status == 413, "\(over)")
            #expect(over.errorCode == "attachment.tooLarge")
            #expect(Self.uploadsInProgress(server).isEmpty, "the partial file is deleted")
            #expect(Self.storedAttachments(server).isEmpty)

            let declared = try await UploadFixture.upload(
                port: server.port, fileName: "big.png", type: "image/png", content: UploadFixture.png(limit + 1))
            #expect(declared.status == 413)
            #expect(declared.errorCode == "attachment.tooLarge")

            let exact = try await UploadFixture.upload(
                port: server.port, fileName: "fits.png", type: "image/png", content: UploadFixture.png(limit),
                declareSize: false)
            #expect(exact.status == 200, "\(exact)")
            #expect(Self.storedAttachments(server).count == 1)
            #expect(Self.uploadsInProgress(server).isEmpty)
        }
    }

    // MARK: Caps

    /// Starts two uploads that send only their first bytes; returns the first reply the server gives (the other
    /// upload is held until then), then finishes both and returns the second reply too.
    static func raceTwoUploads(_ server: TestServer, users: (String, String)) async throws -> (
        first: RawHTTP.Reply, second: RawHTTP.Reply
    ) {
        let replies = ReplyLog()
        let body = UploadFixture.multipart(
            fileName: "slow.png", type: "image/png", content: UploadFixture.png(64 * 1024))
        let split = 8 * 1024
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in [users.0, users.1] {
                group.addTask {
                    try await RawHTTP.withConnection(port: server.port) { connection in
                        try await connection.send(
                            RawHTTP.head(
                                method: "POST", target: "/chat/v1/attachments?channelId=open&userId=\(user)",
                                port: server.port,
                                headers: [("Content-Type", "multipart/form-data; boundary=\(UploadFixture.boundary)")],
                                bodyLength: body.count) + body.prefix(split))
                        let outbound = connection.outbound
                        try await withThrowingTaskGroup(of: Void.self) { sender in
                            sender.addTask {
                                // Ends at the first reply, or when the test's time runs out (cancellation).
                                for await _ in await replies.firstArrived() {}
                                try Task.checkCancellation()
                                try await outbound.write(.init(bytes: body.dropFirst(split)))
                            }
                            await replies.record(try await connection.reply())
                            try await sender.waitForAll()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = await replies.replies
        return (all[0], all[1])
    }

    @Test func concurrentUploadsOfOneUserAreCapped() async throws {
        try await withServer(
            channels: [Self.open], configure: { $0.maxConcurrentUploadsPerUser = 1 }
        ) { server in
            let (first, second) = try await withTimeout(.seconds(30), "a refusal while the other upload runs") {
                try await Self.raceTwoUploads(server, users: ("u1", "u1"))
            }
            #expect(first.status == 429, "\(first)")
            #expect(first.errorCode == "server.rateLimited")
            #expect(first.header("retry-after") != nil)
            #expect(second.status == 200, "\(second)")
        }
    }

    @Test func concurrentUploadsOnTheServerAreCapped() async throws {
        try await withServer(
            channels: [Self.open], configure: { $0.maxConcurrentUploads = 1 }
        ) { server in
            let (first, second) = try await withTimeout(.seconds(30), "a refusal while the other upload runs") {
                try await Self.raceTwoUploads(server, users: ("u1", "u2"))
            }
            #expect(first.status == 503, "\(first)")
            #expect(first.errorCode == "server.busy")
            #expect(first.header("retry-after") == "5")
            #expect(second.status == 200, "\(second)")
            // The slot is free again.
            let after = try await UploadFixture.upload(
                port: server.port, user: "u3", fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(after.status == 200)
        }
    }

    /// The third upload within a minute is refused until the minute since the first has passed (virtual clock).
    @Test func uploadsPerUserPerMinuteAreCapped() async throws {
        let clock = VirtualClock()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.uploadsPerUserPerMinute = 2
            $0.clock = serverClock(on: clock)
        }
        try await withServer(channels: [Self.open], configure: configure) { server in
            for _ in 0..<2 {
                let ok = try await UploadFixture.upload(
                    port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png())
                #expect(ok.status == 200)
            }
            let third = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(third.status == 429, "\(third)")
            #expect(third.errorCode == "server.rateLimited")
            #expect(third.header("retry-after") == "60", "no time has passed on the server's clock")
            let other = try await UploadFixture.upload(
                port: server.port, user: "u2", fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(other.status == 200, "another user is not affected")

            await clock.advance(by: .seconds(45))
            let later = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(later.status == 429)
            #expect(later.header("retry-after") == "15")
            await clock.advance(by: .seconds(15))
            let next = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(next.status == 200, "the window has passed: \(next)")
        }
    }

    @Test func theStorageQuotaHoldsPerUserAndChannelAcrossRestarts() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-quota-\(UUID())")
        let configure: (inout ServerConfiguration) -> Void = { $0.userStorageQuota = 10_000 }
        try await withServer(channels: [Self.open], dataDirectory: data, configure: configure) { server in
            let first = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png(6_000))
            #expect(first.status == 200)
            let second = try await UploadFixture.upload(
                port: server.port, fileName: "b.png", type: "image/png", content: UploadFixture.png(6_000),
                declareSize: false)
            #expect(second.status == 413, "\(second)")
            #expect(second.errorCode == "attachment.quotaExceeded")
            #expect(Self.uploadsInProgress(server).isEmpty)
            let other = try await UploadFixture.upload(
                port: server.port, user: "u2", fileName: "b.png", type: "image/png", content: UploadFixture.png(6_000))
            #expect(other.status == 200, "another user has a quota of their own")
        }
        try await withServer(channels: [Self.open], dataDirectory: data, configure: configure) { server in
            let again = try await UploadFixture.upload(
                port: server.port, fileName: "c.png", type: "image/png", content: UploadFixture.png(6_000))
            #expect(again.status == 413, "the usage was read back from the stored records")
            #expect(again.errorCode == "attachment.quotaExceeded")
            let fits = try await UploadFixture.upload(
                port: server.port, fileName: "d.png", type: "image/png", content: UploadFixture.png(4_000))
            #expect(fits.status == 200)
        }
    }

    // MARK: CORS (Oracle's Web SDK on another origin)

    static let shop = "https://shop.example"

    static func preflight(_ server: TestServer, origin: String) async throws -> RawHTTP.Reply {
        try await RawHTTP.request(
            port: server.port, method: "OPTIONS", "/chat/v1/attachments?channelId=open&userId=u1",
            headers: [
                ("Origin", origin), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "authorization,x-oda-meta-file-size,x-oda-meta-file-isprotected"),
            ])
    }

    @Test func aPreflightFromAnAllowedOriginIsAnswered() async throws {
        var channel = Self.open
        channel.allowedOrigins = [Self.shop]
        try await withServer(channels: [channel]) { server in
            let reply = try await Self.preflight(server, origin: Self.shop)
            #expect(reply.status == 204, "\(reply)")
            #expect(reply.header("access-control-allow-origin") == Self.shop)
            #expect(reply.header("vary") == "Origin")
            #expect(reply.header("access-control-allow-methods")?.contains("POST") == true)
            let allowed = Set(
                (reply.header("access-control-allow-headers") ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            #expect(
                allowed.isSuperset(of: [
                    "authorization", "content-type", "x-oda-meta-file-size", "x-oda-meta-file-isprotected",
                    "x-oda-meta-file-authtype",
                ]))
            #expect(reply.header("access-control-max-age").flatMap { Int($0) } ?? 0 > 0)
        }
        // `*` allows any origin, echoed back.
        try await withServer(channels: [Self.open]) { server in
            let reply = try await Self.preflight(server, origin: "https://anyone.example")
            #expect(reply.status == 204)
            #expect(reply.header("access-control-allow-origin") == "https://anyone.example")
        }
    }

    @Test func aPreflightOrUploadFromAnotherOriginIsRefused() async throws {
        var channel = Self.open
        channel.allowedOrigins = [Self.shop]
        try await withServer(channels: [channel]) { server in
            let reply = try await Self.preflight(server, origin: "https://evil.example")
            #expect(reply.status == 403, "\(reply)")
            #expect(reply.errorCode == "channel.originForbidden")
            #expect(reply.header("access-control-allow-origin") == nil)
            let upload = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png(),
                headers: [("Origin", "https://evil.example")])
            #expect(upload.status == 403)
            #expect(upload.errorCode == "channel.originForbidden")
            #expect(upload.header("access-control-allow-origin") == nil)
            #expect(Self.storedAttachments(server).isEmpty)
        }
    }

    @Test func uploadAndDownloadAnswersCarryTheAllowedOrigin() async throws {
        var channel = Self.open
        channel.allowedOrigins = [Self.shop]
        try await withServer(channels: [channel]) { server in
            let origin = [("Origin", Self.shop)]
            let upload = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png(), headers: origin)
            #expect(upload.status == 200)
            #expect(upload.header("access-control-allow-origin") == Self.shop)
            let refused = try await UploadFixture.upload(
                port: server.port, fileName: "a.html", type: "text/html", content: UploadFixture.text("<html>"),
                headers: origin)
            #expect(refused.status == 415)
            #expect(refused.header("access-control-allow-origin") == Self.shop, "the page can read the 415")
            let download = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(upload, port: server.port), headers: origin)
            #expect(download.status == 200)
            #expect(download.header("access-control-allow-origin") == Self.shop)
            let foreign = try await RawHTTP.request(
                port: server.port, try UploadFixture.downloadPath(upload, port: server.port),
                headers: [("Origin", "https://evil.example")])
            #expect(foreign.header("access-control-allow-origin") == nil)
        }
    }

    // MARK: Attachment security as ODA does it

    @Test func protectedAndUnprotectedDownloadsOnAnAuthenticatedChannel() async throws {
        try await withServer(channels: [Self.secured]) { server in
            let anonymous = try await UploadFixture.upload(
                port: server.port, channel: "secured", fileName: "a.png", type: "image/png",
                content: UploadFixture.png())
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "auth.required")

            let bearer = [("Authorization", "Bearer \(Self.token())")]
            let protected = try await UploadFixture.upload(
                port: server.port, channel: "secured", fileName: "secret.png", type: "image/png",
                content: UploadFixture.png(),
                headers: bearer + [
                    ("x-oda-meta-file-isProtected", "True"), ("x-oda-meta-file-authType", "ChannelClientAuth"),
                ])
            #expect(protected.status == 200, "\(protected)")
            let protectedPath = try UploadFixture.downloadPath(protected, port: server.port)
            let withoutToken = try await RawHTTP.request(port: server.port, protectedPath)
            #expect(withoutToken.status == 401)
            #expect(withoutToken.errorCode == "auth.required")
            let badToken = try await RawHTTP.request(port: server.port, protectedPath + "?token=not.a.token")
            #expect(badToken.status == 401)
            #expect(badToken.errorCode == "auth.invalidToken")
            let withQuery = try await RawHTTP.request(
                port: server.port, protectedPath + "?token=\(Self.token(user: "u2"))")
            #expect(withQuery.status == 200)
            let withHeader = try await RawHTTP.request(port: server.port, protectedPath, headers: bearer)
            #expect(withHeader.status == 200)
            #expect(withHeader.header("cache-control") == "private, no-store")

            // Oracle's Web SDK with enableAttachmentSecurity false: no header, no token on the download.
            let open = try await UploadFixture.upload(
                port: server.port, channel: "secured", fileName: "menu.png", type: "image/png",
                content: UploadFixture.png(), headers: bearer)
            #expect(open.status == 200)
            let openPath = try UploadFixture.downloadPath(open, port: server.port)
            let byURL = try await RawHTTP.request(port: server.port, openPath)
            Self.expectSafeDownload(byURL, type: "image/png", inline: true, fileName: "menu.png")
            // The URL is the secret: 128 random bits.
            let id = openPath.split(separator: "/")[3]
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            #expect(openPath.split(separator: "/")[3] != protectedPath.split(separator: "/")[3])
        }
    }

    /// Two failures refuse the address for the rest of the minute (on the server's virtual clock), then it is let in.
    @Test func failedTokenChecksAreLimitedPerAddress() async throws {
        let clock = VirtualClock()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.failedSignInsPerMinute = 2
            $0.clock = serverClock(on: clock)
        }
        try await withServer(channels: [Self.secured], configure: configure) { server in
            let bearer = [("Authorization", "Bearer \(Self.token())")]
            let protected = try await UploadFixture.upload(
                port: server.port, channel: "secured", fileName: "a.png", type: "image/png",
                content: UploadFixture.png(), headers: bearer + [("x-oda-meta-file-isProtected", "true")])
            let path = try UploadFixture.downloadPath(protected, port: server.port)
            for _ in 0..<2 {
                let bad = try await RawHTTP.request(port: server.port, path + "?token=forged.token.value")
                #expect(bad.status == 401)
            }
            let good = try await RawHTTP.request(port: server.port, path, headers: bearer)
            #expect(good.status == 429, "\(good)")
            #expect(good.errorCode == "server.rateLimited")
            let upload = try await UploadFixture.upload(
                port: server.port, channel: "secured", fileName: "a.png", type: "image/png",
                content: UploadFixture.png(), headers: bearer)
            #expect(upload.status == 429, "uploads share the address's failures")

            await clock.advance(by: .seconds(59))
            #expect(try await RawHTTP.request(port: server.port, path, headers: bearer).status == 429, "59 s later")
            await clock.advance(by: .seconds(1))
            let again = try await RawHTTP.request(port: server.port, path, headers: bearer)
            #expect(again.status == 200, "the minute has passed: \(again)")
        }
    }
}

/// The replies of ``AttachmentSecurityTests/raceTwoUploads(_:users:)`` in arrival order, and a signal for the first.
actor ReplyLog {
    private(set) var replies: [RawHTTP.Reply] = []
    private var waiting: [AsyncStream<Void>.Continuation] = []

    func record(_ reply: RawHTTP.Reply) {
        replies.append(reply)
        for waiter in waiting { waiter.finish() }
        waiting = []
    }

    /// A sequence that ends once a reply has arrived; iterating it also ends when the task is cancelled, so that a
    /// server that never answers fails the test by its timeout instead of hanging it.
    func firstArrived() -> AsyncStream<Void> {
        let (signal, continuation) = AsyncStream.makeStream(of: Void.self)
        if replies.isEmpty { waiting.append(continuation) } else { continuation.finish() }
        return signal
    }
}
