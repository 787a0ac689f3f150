import Foundation
import Testing

@testable import ParleyServer

/// A stored attachment whose record is damaged is neither answered as missing (404) nor deleted: the download gets a
/// coded `500 attachment.unreadable`, and the record is kept aside (`.metadata.json.damaged-<time>`).
@Suite("Damaged attachment records", .serialized, .timeLimit(.minutes(1)))
struct DamagedAttachmentTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)

    @Test func aDamagedRecordIsACodedErrorAndIsKeptAside() async throws {
        try await withServer(channels: [Self.open]) { server in
            let upload = try await UploadFixture.upload(
                port: server.port, fileName: "a.png", type: "image/png", content: UploadFixture.png())
            #expect(upload.status == 200)
            let path = try UploadFixture.downloadPath(upload, port: server.port)
            let id = try #require(path.split(separator: "/").dropLast().last.map(String.init))
            let folder = server.dataDirectory.appendingPathComponent("attachments/\(id)")
            let record = folder.appendingPathComponent(".metadata.json")
            try Data("{\"channelId\": \"open\", \"ty".utf8).write(to: record)  // cut short

            let download = try await RawHTTP.request(port: server.port, method: "GET", path)
            #expect(download.status == 500, "\(download)")
            #expect(download.errorCode == "attachment.unreadable")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains(".metadata.json"))
            let kept = try #require(names.first { $0.hasPrefix(".metadata.json.damaged-") }, "\(names)")
            #expect(
                try String(contentsOf: folder.appendingPathComponent(kept), encoding: .utf8)
                    == "{\"channelId\": \"open\", \"ty")
            #expect(names.contains("a.png"), "the file itself is kept")
        }
    }

    @Test func aRecordThatCannotBeReadIsNotAnsweredAsMissing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-unreadable-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let folder = AttachmentFolder(folder: data.appendingPathComponent("attachments"))
        let id = AttachmentID.random()
        let attachment = data.appendingPathComponent("attachments/\(id)")
        // A folder where the record should be: reading it is a disk error, not "no such attachment".
        try FileManager.default.createDirectory(
            at: attachment.appendingPathComponent(".metadata.json"), withIntermediateDirectories: true)
        let error = await #expect(throws: ParleyError.self) { try await folder.attachment(id: id, named: "a.png") }
        #expect(error?.code == .attachmentUnreadable)
        #expect(try await folder.attachment(id: AttachmentID.random(), named: "a.png") == nil, "missing is nil")
    }
}
