import Foundation
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Attachments", .serialized, .timeLimit(.minutes(3)))
struct AttachmentTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)
    static let secured = ChannelConfiguration(
        id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, skill: .echo)

    struct Upload {
        let status: Int
        let body: Data
    }

    static func upload(
        _ server: TestServer, channel: String = "open", fileName: String, type: String?, size: Int,
        content: (Int) -> [UInt8] = UploadFixture.filler, headers: [String: String] = [:]
    ) async throws -> Upload {
        let boundary = "parley-\(UUID().uuidString)"
        var body = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"\(fileName)\"\r\n".utf8)
        if let type { body += Data("Content-Type: \(type)\r\n".utf8) }
        body += Data("\r\n".utf8)
        body += Data(content(size))
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        var request = URLRequest(
            url: URL(string: "http://127.0.0.1:\(server.port)/chat/v1/attachments?channelId=\(channel)&userId=u1")!)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.setValue(String(size), forHTTPHeaderField: "x-oda-meta-file-size")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.upload(for: request, from: body)
        return Upload(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    @Test func smallFileIsStoredAndServed() async throws {
        try await withServer(channels: [Self.open]) { server in
            let upload = try await Self.upload(
                server, fileName: "menu.png", type: "image/png", size: 1024, content: UploadFixture.png)
            #expect(upload.status == 200)
            let answer = try JSONValue(parsing: upload.body)
            #expect(answer["type"] == "image/png")
            #expect(answer["fileName"] == "menu.png")
            let url = try #require(answer["url"]?.stringValue.flatMap(URL.init(string:)))
            #expect(url.absoluteString.hasPrefix("http://127.0.0.1:\(server.port)/attachment/v1/attachments/"))
            let (downloaded, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(downloaded.count == 1024)
            #expect(downloaded == Data(UploadFixture.png(1024)))
        }
    }

    @Test func exactly25MiBIsAcceptedAndOneByteMoreIsNot() async throws {
        try await withServer(channels: [Self.open]) { server in
            let limit = 25 * 1024 * 1024
            let exact = try await Self.upload(
                server, fileName: "video.mp4", type: "video/mp4", size: limit, content: UploadFixture.mp4)
            #expect(exact.status == 200)
            let over = try await Self.upload(
                server, fileName: "video.mp4", type: "video/mp4", size: limit + 1, content: UploadFixture.mp4)
            #expect(over.status == 413)
        }
    }

    @Test func unsupportedTypesGet415() async throws {
        try await withServer(channels: [Self.open]) { server in
            let executable = try await Self.upload(
                server, fileName: "setup.exe", type: "application/x-msdownload", size: 10,
                content: { [0x4D, 0x5A] + UploadFixture.filler($0 - 2) })
            #expect(executable.status == 415)
            let unknown = try await Self.upload(server, fileName: "blob.bin", type: nil, size: 10)
            #expect(unknown.status == 415)
            let pdf = try await Self.upload(
                server, fileName: "notes.bin", type: "application/octet-stream", size: 10, content: UploadFixture.pdf)
            #expect(pdf.status == 200)
            #expect(try JSONValue(parsing: pdf.body)["type"] == "application/pdf")
        }
    }

    @Test func authenticatedChannelsNeedTheTokenToUploadAndToDownloadProtectedFiles() async throws {
        try await withServer(channels: [Self.secured]) { server in
            let text: (Int) -> [UInt8] = { Array(String(repeating: "x", count: $0).utf8) }
            let anonymous = try await Self.upload(
                server, channel: "secured", fileName: "a.txt", type: "text/plain", size: 5, content: text)
            #expect(anonymous.status == 401)
            let token = ChannelToken.mint(channelId: "secured", userId: "u1", secret: "s3cret", lifetime: 600)
            let upload = try await Self.upload(
                server, channel: "secured", fileName: "a.txt", type: "text/plain", size: 5, content: text,
                headers: ["Authorization": "Bearer \(token)", "x-oda-meta-file-isProtected": "True"])
            #expect(upload.status == 200)
            let url = try #require(try JSONValue(parsing: upload.body)["url"]?.stringValue)
            let (_, withoutToken) = try await URLSession.shared.data(from: URL(string: url)!)
            #expect((withoutToken as? HTTPURLResponse)?.statusCode == 401)
            let (file, withToken) = try await URLSession.shared.data(from: URL(string: url + "?token=\(token)")!)
            #expect((withToken as? HTTPURLResponse)?.statusCode == 200)
            #expect(file.count == 5)
        }
    }

    @Test func unknownChannelsGet404() async throws {
        try await withServer(channels: [Self.open]) { server in
            let upload = try await Self.upload(server, channel: "nope", fileName: "a.txt", type: "text/plain", size: 5)
            #expect(upload.status == 404)
        }
    }
}
