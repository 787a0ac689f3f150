import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads that survive: progress and state as events, automatic retries after a network failure, cancel, and a
/// restart of the app mid-upload — against the real in-process server, started late on a port that refused before.
@Suite("Uploads", .serialized, .timeLimit(.minutes(1)))
struct UploadTests {
    static let pdf = Data("%PDF-1.7\n".utf8) + Data((0..<4000).map { UInt8($0 % 251) })

    /// A client of a port where nothing listens (yet): every request fails on the network.
    static func cutOffClient(port: Int, clock: VirtualClock, folder: URL? = nil) async throws -> ChatClient {
        var configuration = ChatClient.Configuration(url: .loopback(port: port), channelId: "echo", userId: "uma")
        configuration.storageFolder = folder
        let client = ChatClient(configuration: configuration, clock: clock)
        _ = try? await client.initialize()  // initialized, not connected
        return client
    }

    /// The next ``Upload`` state event that `match` accepts.
    static func upload<Value>(
        _ events: inout EventReader, _ what: String, _ match: (Upload) -> Value?
    ) async throws -> Value {
        try await events.next(what) { event in
            if case .uploadChanged(let upload) = event { match(upload) } else { nil }
        }
    }

    static func waiting(_ upload: Upload) -> (Int, Duration)? {
        if case .waitingToRetry(let attempt, let delay, _) = upload.state { (attempt, delay) } else { nil }
    }

    @Test func aNetworkFailureIsTriedAgainAfterABackOffAndThenGoesThrough() async throws {
        let port = try freePort()
        let clock = VirtualClock()
        let client = try await Self.cutOffClient(port: port, clock: clock)
        await client.disconnect()  // no reconnect timer: the upload's back-off is the clock's only sleeper
        var events = EventReader(await client.events())
        let sending = Task { try await client.sendAttachment(Self.pdf, fileName: "a.pdf", mimeType: "application/pdf") }
        let first = try await Self.upload(&events, "the first wait", Self.waiting)
        #expect(first.0 == 1)
        #expect(first.1 == .seconds(1))
        #expect(await client.uploads().count == 1)
        let channels = [ChannelConfiguration(id: "echo", skill: .echo)]
        try await InProcessServer.run(channels: channels, configure: { $0.port = port }) { server in
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(1))

            let attachment = try await Self.upload(&events, "the upload") { upload in
                if case .uploaded(let attachment) = upload.state { attachment } else { nil }
            }
            let sent = try #require(try await sending.value)
            #expect(sent.payload == .attachment(attachment))
            try await client.connect()
            try await events.expectReply("attachment")  // the echo skill names what it got
            #expect(await client.uploads().isEmpty)
            let (body, _) = try await URLSession.shared.data(from: try #require(URL(string: attachment.url)))
            #expect(body == Self.pdf)
            await client.destroy()
        }
    }

    @Test func aCancelledUploadStopsAndIsForgotten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-uploads-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try await Self.cutOffClient(port: try freePort(), clock: VirtualClock(), folder: folder)
        var events = EventReader(await client.events())
        let sending = Task { try await client.sendAttachment(Self.pdf, fileName: "a.pdf", mimeType: "application/pdf") }
        _ = try await Self.upload(&events, "the first wait", Self.waiting)
        let id = try #require(await client.uploads().first?.id)
        await client.cancelUpload(id)
        let cancelled = try await Self.upload(&events, "the cancel") { $0.state == .cancelled ? $0 : nil }
        #expect(cancelled.id == id)
        do {
            _ = try await sending.value
            Issue.record("expected the cancel")
        } catch let error as ParleyError {
            #expect(error.code == .uploadCancelled)
        }
        #expect(await client.uploads().isEmpty)
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("uploads-echo-uma").path)
        #expect(kept.isEmpty, "nothing is kept of a cancelled upload")
        await client.destroy()
    }

    @Test func anUploadCutOffByTheAppsEndGoesThroughAtTheNextStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-uploads-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let before = try await Self.cutOffClient(port: try freePort(), clock: VirtualClock(), folder: folder)
            var beforeEvents = EventReader(await before.events())
            let sending = Task {
                try await before.sendAttachment(Self.pdf, fileName: "report.pdf", mimeType: "application/pdf")
            }
            _ = try await Self.upload(&beforeEvents, "the first wait", Self.waiting)
            await before.destroy()  // the app ends mid-upload
            do {
                _ = try await sending.value
                Issue.record("expected the upload to stop")
            } catch let error as ParleyError {
                #expect(error.code == .clientDestroyed)
            }

            var configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "uma")
            configuration.storageFolder = folder
            let after = ChatClient(configuration: configuration)
            var events = EventReader(await after.events())
            try await after.initialize()
            let attachment = try await Self.upload(&events, "the resumed upload") { upload in
                if case .uploaded(let attachment) = upload.state, upload.fileName == "report.pdf" {
                    attachment
                } else {
                    nil
                }
            }
            let sent = try await events.next("the attachment message") { event in
                if case .messageSent(let message) = event { message } else { nil }
            }
            #expect(sent.payload == .attachment(attachment))
            let (body, _) = try await URLSession.shared.data(from: try #require(URL(string: attachment.url)))
            #expect(body == Self.pdf)
            #expect(await after.uploads().isEmpty)
            await after.destroy()
        }
    }

    @Test func aLargeUploadReportsProgressBetweenStartAndEnd() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "echo", userId: "pia"))
            var events = EventReader(await client.events())
            try await client.initialize()
            // 2 MiB: enough for URLSession to report several pieces; the test is about progress, not speed (in the full
            // suite every server of the test process shares one upload thread, and 8 MiB took over a minute there).
            let file = Data("%PDF-1.7\n".utf8) + Data(count: 2 << 20)
            let sent = try #require(
                try await client.sendAttachment(file, fileName: "big.pdf", mimeType: "application/pdf"))
            var fractions: [Double] = []
            let attachment = try await Self.upload(&events, "the upload") { upload -> ParleyCore.Attachment? in
                switch upload.state {
                case .uploading(let fraction):
                    fractions.append(fraction)
                    return nil
                case .uploaded(let attachment): return attachment
                default: return nil
                }
            }
            #expect(sent.payload == .attachment(attachment))
            #expect(fractions.first == 0, "the try starts at 0")
            #expect(fractions == fractions.sorted(), "progress only grows")
            #expect(fractions.allSatisfy { $0 >= 0 && $0 <= 1 })
            let between = fractions.filter { $0 > 0 && $0 < 1 }
            // How many pieces URLSession reports is its own affair: on a loaded machine the kernel took the 2 MiB in two
            // writes, and one fraction between 0 and 1 came (with every piece reported, in order, since this session).
            #expect(!between.isEmpty, "progress while the bytes go: \(fractions)")
            await client.destroy()
        }
    }

    @Test func brokenKeptUploadsAreDroppedNotResumed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-uploads-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("uploads-echo-uma")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x7B]).write(to: kept.appendingPathComponent("bad.json"))  // not UTF-8, not JSON
        try Data("x".utf8).write(to: kept.appendingPathComponent("bad.data"))
        try Data(#"{"id":7,"fileName":"a.pdf","mimeType":"application/pdf"}"#.utf8)
            .write(to: kept.appendingPathComponent("typed.json"))  // a number where the id is a string
        try Data("x".utf8).write(to: kept.appendingPathComponent("typed.data"))
        try Data(#"{"id":"lost","fileName":"b.pdf","mimeType":"application/pdf"}"#.utf8)
            .write(to: kept.appendingPathComponent("lost.json"))  // its bytes were never written
        try Data("x".utf8).write(to: kept.appendingPathComponent("orphan.data"))  // killed before its record
        let client = try await Self.cutOffClient(port: try freePort(), clock: VirtualClock(), folder: folder)
        #expect(await client.uploads().isEmpty)
        // Moved aside, never deleted (docs/security.md, "Storage over time"): no live record or data file is left.
        let left = try FileManager.default.contentsOfDirectory(atPath: kept.path)
        #expect(left.allSatisfy { $0.contains(".damaged-") }, "the broken files are moved aside: \(left)")
        await client.destroy()
    }

    @Test func theRetryDelayDoublesUpToThirtySeconds() {
        let delays = (1...8).map { ChatClient.uploadRetryDelay(attempt: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
    }

    @Test func shareMenuTypesMayBeUniformTypeIdentifiers() {
        let images = ShareMenuConfiguration(items: [], customItems: [ShareMenuCustomItem(types: ["public.image"])])
        #expect(images.sizeLimit(mimeType: "image/png", fileName: "a.png") != nil)
        #expect(images.sizeLimit(mimeType: "image/x-unknown", fileName: "a.raw") != nil, "any image/*")
        #expect(images.sizeLimit(mimeType: "application/pdf", fileName: "a.pdf") == nil)

        let documents = ShareMenuConfiguration(
            items: [],
            customItems: [ShareMenuCustomItem(types: ["com.adobe.pdf", "public.plain-text"], maxSizeKiB: 10)])
        #expect(documents.sizeLimit(mimeType: "application/octet-stream", fileName: "Report.PDF") == 10 * 1024)
        #expect(documents.sizeLimit(mimeType: "text/plain", fileName: "notes") == 10 * 1024)
        #expect(documents.sizeLimit(mimeType: "text/html", fileName: "page.html") == nil, "html is text, not plain")

        #expect(TypeIdentifier.file(mimeType: "video/quicktime", fileName: "clip.mov", conformsTo: "public.movie"))
        #expect(
            TypeIdentifier.file(
                mimeType: "audio/mpeg", fileName: "a.mp3", conformsTo: "public.audiovisual-content"))
        #expect(TypeIdentifier.file(mimeType: "application/zip", fileName: "a.zip", conformsTo: "public.data"))
        #expect(!TypeIdentifier.file(mimeType: "application/zip", fileName: "a.zip", conformsTo: "public.content"))
        #expect(!TypeIdentifier.file(mimeType: "image/png", fileName: "a.png", conformsTo: "com.example.unknown"))
        #expect(TypeIdentifier.file(mimeType: "application/x-thing", fileName: "blob", conformsTo: "public.item"))
    }
}
