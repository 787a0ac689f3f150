import Foundation
import Testing

@testable import ParleyServer

/// The global attachment quota (``ServerConfiguration/attachmentQuota``): what every user keeps together is bounded,
/// however many user ids a client makes up.
@Suite("Global attachment quota", .serialized, .timeLimit(.minutes(2)))
struct QuotaTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)

    @Test func uploadsBeyondTheServersQuotaAreRefusedWithACodeAndLeaveNothing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-global-quota-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let configure: (inout ServerConfiguration) -> Void = { $0.attachmentQuota = 10_000 }
        try await withServer(channels: [Self.open], dataDirectory: data, configure: configure) { server in
            let first = try await UploadFixture.upload(
                port: server.port, user: "ann", fileName: "a.png", type: "image/png", content: UploadFixture.png(6_000))
            #expect(first.status == 200, "\(first)")
            // Another user, well within the per-user quota: the server's own is full.
            let declared = try await UploadFixture.upload(
                port: server.port, user: "bob", fileName: "b.png", type: "image/png", content: UploadFixture.png(6_000))
            #expect(declared.status == 507, "\(declared)")
            #expect(declared.errorCode == "attachment.storageFull")
            #expect(declared.header("retry-after") != nil)
            let undeclared = try await UploadFixture.upload(
                port: server.port, user: "cy", fileName: "c.png", type: "image/png", content: UploadFixture.png(6_000),
                declareSize: false)
            #expect(undeclared.status == 507, "\(undeclared)")
            #expect(undeclared.errorCode == "attachment.storageFull")
            let uploads = server.dataDirectory.appendingPathComponent("attachments/.uploads").path
            #expect((try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? [] == [])
            let fits = try await UploadFixture.upload(
                port: server.port, user: "dee", fileName: "d.png", type: "image/png", content: UploadFixture.png(4_000))
            #expect(fits.status == 200, "what is left of the quota is still usable: \(fits)")
        }
        // Counted again from the stored records after a restart.
        try await withServer(channels: [Self.open], dataDirectory: data, configure: configure) { server in
            let again = try await UploadFixture.upload(
                port: server.port, user: "eve", fileName: "e.png", type: "image/png", content: UploadFixture.png(100))
            #expect(again.status == 507, "\(again)")
        }
    }

    /// Uploads that arrive together are checked against the quota one after another: eight users at once, room for
    /// three of their files, never more stored than the quota holds, every other one refused with its code. (With the
    /// data folder's store the window between one upload's check and its storing is too short for another's check
    /// to fall in; with a database's total, a round trip, it was not.)
    @Test func uploadsAtOnceDoNotPassTheQuotaTogether() async throws {
        try await withServer(channels: [Self.open], configure: { $0.attachmentQuota = 20_000 }) { server in
            // Each sends all of its body but the last bytes, and the last bytes go once all eight have sent the
            // rest, so that the eight finish receiving together.
            let barrier = Barrier(count: 8)
            let replies = try await withThrowingTaskGroup(of: RawHTTP.Reply.self) { group in
                for user in 0..<8 {
                    group.addTask {
                        let body = UploadFixture.multipart(
                            fileName: "f.png", type: "image/png", content: UploadFixture.png(6_000))
                        let head = RawHTTP.head(
                            method: "POST", target: "/chat/v1/attachments?channelId=open&userId=u\(user)",
                            port: server.port,
                            headers: [("Content-Type", "multipart/form-data; boundary=\(UploadFixture.boundary)")],
                            bodyLength: body.count)
                        return try await RawHTTP.withConnection(port: server.port) { connection in
                            try await connection.send(head + body.dropLast(8))
                            await barrier.arrive()
                            try await connection.send(Array(body.suffix(8)))
                            return try await connection.reply()
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = replies.filter { $0.status == 200 }.count
            // At the instant one is stored, a check may count it twice and refuse one that would just fit.
            #expect((2...3).contains(stored), "\(replies.map(\.status))")
            #expect(replies.allSatisfy { $0.status == 200 || $0.errorCode == "attachment.storageFull" })
        }
    }

    @Test func theFileMayGiveTheQuotaAndTheUploadLimits() throws {
        let file = try ServerConfigurationFile(
            decoding: Data(
                #"{"channels": [], "attachmentQuota": 5000, "uploadTimeout": "2m", "uploadMinimumRate": 512, "retain": "30d"}"#
                    .utf8))
        #expect(file.attachmentQuota == 5000)
        #expect(file.uploadTimeout == .seconds(120))
        #expect(file.uploadMinimumRate == 512)
        #expect(file.retain == .seconds(30 * 86_400))
        let again = try ServerConfigurationFile(decoding: Data(file.jsonValue.jsonString().utf8))
        #expect(again.retain == file.retain && again.uploadTimeout == file.uploadTimeout)
        for bad in [#""attachmentQuota": 0"#, #""retain": "1e300""#, #""retain": "0d""#, #""uploadTimeout": 5"#] {
            #expect(throws: ParleyError.self, "\(bad)") {
                try ServerConfigurationFile(decoding: Data(#"{"channels": [], \#(bad)}"#.utf8))
            }
        }
    }
}

/// Lets tasks go on once `count` of them have arrived.
private actor Barrier {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private let count: Int

    init(count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 == count {
            for task in waiting { task.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
