import Foundation
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Session secrets on open channels: `POST /chat/v1/sessions`, the SQLite file behind it, CORS, and
/// ``SessionSecrets/verify(channel:userId:secret:)``, the check the chat socket and uploads make.
@Suite("Session secrets", .serialized, .timeLimit(.minutes(1)))
struct SessionSecretTests {
    static let sealed = ChannelConfiguration(
        id: "sealed", allowedOrigins: ["https://shop.example.com"], sessionSecrets: true)
    static let open = ChannelConfiguration(id: "open")
    static let channels = [
        sealed, open, ChannelConfiguration(id: "off", enabled: false, sessionSecrets: true),
        ChannelConfiguration(id: "signed", secret: "s", clientAuthenticationEnabled: true, sessionSecrets: true),
        ChannelConfiguration(id: "anyone", sessionSecrets: true),
    ]

    struct Answer {
        let status: Int
        let json: JSONValue?
        let headers: [String: String]

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    static func send(
        _ method: String, _ url: String, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Answer(
            status: http.statusCode, json: data.isEmpty ? nil : try? JSONValue(parsing: data), headers: fields)
    }

    static func post(_ server: TestServer, _ query: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send("POST", "http://127.0.0.1:\(server.port)/chat/v1/sessions?\(query)", headers: headers)
    }

    @Test func withoutAUserIdTheServerMakesOneAndItsSecret() async throws {
        try await withServer(channels: Self.channels) { server in
            let first = try await Self.post(server, "channelId=sealed")
            let second = try await Self.post(server, "channelId=sealed")
            #expect(first.status == 200)
            #expect(first.header("Cache-Control") == "no-store")
            #expect(first.header("Content-Type") == "application/json")
            let userId = try #require(first.json?["userId"]?.stringValue)
            let secret = try #require(first.json?["sessionSecret"]?.stringValue)
            #expect(userId.wholeMatch(of: /user-[0-9a-f]{32}/) != nil, "\(userId)")
            #expect(secret.wholeMatch(of: /[A-Za-z0-9_-]{43}/) != nil, "256 bits as base64url: \(secret)")
            #expect(first.json?.objectValue?.count == 2)
            #expect(second.json?["userId"]?.stringValue != userId)
            #expect(second.json?["sessionSecret"]?.stringValue != secret)

            let sessions = SessionSecrets(bindings: try SQLiteSessionBindings(dataDirectory: server.dataDirectory))
            try await sessions.verify(channel: Self.sealed, userId: userId, secret: secret)
        }
    }

    /// Each session stores a row: one address gets 30 a minute, then `429 server.rateLimited` until the minute has
    /// passed on the server's (virtual) clock.
    @Test func issuingIsLimitedPerAddress() async throws {
        let clock = VirtualClock()
        try await withServer(channels: Self.channels, configure: { $0.clock = serverClock(on: clock) }) { server in
            var statuses: [Int] = []
            for _ in 0..<31 { statuses.append(try await Self.post(server, "channelId=anyone").status) }
            #expect(statuses == Array(repeating: 200, count: 30) + [429])
            let refused = try await Self.post(server, "channelId=anyone")
            #expect(refused.json?["error"]?["code"]?.stringValue == "server.rateLimited")
            await clock.advance(by: .seconds(60))
            #expect(try await Self.post(server, "channelId=anyone").status == 200, "a new minute")
        }
    }

    /// An upload on a channel with session secrets needs the user's secret, as the socket does.
    @Test func uploadsNeedTheUsersSecret() async throws {
        try await withServer(channels: Self.channels) { server in
            let secret = try #require(try await Self.post(server, "channelId=anyone&userId=u1").json?["sessionSecret"])
            func upload(_ headers: [String: String]) async throws -> (Int, String?) {
                let upload = try await AttachmentTests.upload(
                    server, channel: "anyone", fileName: "menu.png", type: "image/png", size: 256,
                    content: UploadFixture.png, headers: headers)
                return (upload.status, try? JSONValue(parsing: upload.body)["error"]?["code"]?.stringValue)
            }
            let without = try await upload([:])
            #expect(without.0 == 401 && without.1 == "session.required", "\(without)")
            let wrong = try await upload(["X-Parley-Session-Secret": "guess"])
            #expect(wrong.0 == 401 && wrong.1 == "session.invalid", "\(wrong)")
            let right = try await upload(["X-Parley-Session-Secret": try #require(secret.stringValue)])
            #expect(right.0 == 200, "\(right)")
        }
    }

    @Test func aUserIdIsBoundOnFirstUseAndRefusedAfterwards() async throws {
        try await withServer(channels: Self.channels) { server in
            let bound = try await Self.post(server, "channelId=sealed&userId=alice%20smith")
            #expect(bound.status == 200)
            #expect(bound.json?["userId"] == "alice smith")
            let secret = try #require(bound.json?["sessionSecret"]?.stringValue)

            let again = try await Self.post(server, "channelId=sealed&userId=alice%20smith")
            #expect(again.status == 409)
            #expect(again.json?["error"]?["code"] == "session.userBound")
            #expect(again.json?["sessionSecret"] == nil)

            // The same id on another channel is another binding.
            let elsewhere = try await Self.post(server, "channelId=anyone&userId=alice%20smith")
            #expect(elsewhere.status == 200)

            let sessions = SessionSecrets(bindings: try SQLiteSessionBindings(dataDirectory: server.dataDirectory))
            try await sessions.verify(channel: Self.sealed, userId: "alice smith", secret: secret)
            let other = try #require(elsewhere.json?["sessionSecret"]?.stringValue)
            await #expect(throws: ParleyError.self) {
                try await sessions.verify(channel: Self.sealed, userId: "alice smith", secret: other)
            }
        }
    }

    @Test func refusalsAreCodedJSON() async throws {
        try await withServer(channels: Self.channels) { server in
            let cases: [(query: String, status: Int, code: ParleyError.Code)] = [
                ("channelId=nowhere", 404, .unknownChannel),
                ("", 404, .unknownChannel),
                ("channelId=off", 403, .channelDisabled),
                ("channelId=open", 404, .sessionNotOffered),
                ("channelId=signed", 404, .sessionNotOffered),
                ("channelId=sealed&userId=", 400, .invalidValue),
                ("channelId=sealed&userId=\(String(repeating: "x", count: 257))", 400, .invalidValue),
                ("channelId=sealed&userId=a%0Ab", 400, .invalidValue),
            ]
            for (query, status, code) in cases {
                let answer = try await Self.post(server, query)
                #expect(answer.status == status, "\(query)")
                #expect(answer.json?["error"]?["code"] == .string(code.rawValue), "\(query)")
                #expect(answer.json?["error"]?["message"]?.stringValue?.isEmpty == false, "\(query)")
            }
            let forbidden = try await Self.post(server, "channelId=sealed", headers: ["Origin": "https://evil.example"])
            #expect(forbidden.status == 403)
            #expect(forbidden.json?["error"]?["code"] == "channel.originForbidden")
            #expect(forbidden.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func verifyThrowsTheSocketsCodes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sessions-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sessions = SessionSecrets(bindings: try SQLiteSessionBindings(dataDirectory: folder))
        let issued = try await sessions.issue(channel: Self.sealed, userId: "bob")

        func code(_ userId: String, _ secret: String?, on channel: ChannelConfiguration = Self.sealed) async
            -> ParleyError.Code?
        {
            do {
                try await sessions.verify(channel: channel, userId: userId, secret: secret)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(await code("bob", issued.sessionSecret) == nil)
        #expect(await code("bob", nil) == .sessionRequired)
        #expect(await code("bob", "") == .sessionRequired)
        #expect(await code("carol", issued.sessionSecret) == .sessionRequired, "an unbound user id")
        #expect(await code("bob", issued.sessionSecret + "x") == .sessionInvalid)
        // One character changed (to another character: a secret may end in "A" already).
        let tampered = String(issued.sessionSecret.dropLast()) + (issued.sessionSecret.last == "A" ? "B" : "A")
        #expect(await code("bob", tampered) == .sessionInvalid)
        #expect(await code("bob", issued.sessionSecret, on: Self.channels[4]) == .sessionRequired, "another channel")
        // Channels without session secrets, and authenticated ones, ask for nothing.
        #expect(await code("bob", nil, on: Self.open) == nil)
        #expect(await code("bob", "wrong", on: Self.channels[3]) == nil)
        #expect(CloseCode(for: .sessionRequired) == .sessionRequired)
        #expect(CloseCode(for: .sessionInvalid) == .sessionInvalid)
    }

    @Test func theFileKeepsDigestsAndSurvivesARestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let issued = try await withServer(channels: Self.channels, dataDirectory: folder) { server in
            let answer = try await Self.post(server, "channelId=sealed&userId=dora")
            #expect(answer.status == 200)
            return try #require(answer.json?["sessionSecret"]?.stringValue)
        }
        try await withServer(channels: Self.channels, dataDirectory: folder) { server in
            let again = try await Self.post(server, "channelId=sealed&userId=dora")
            #expect(again.status == 409, "the restarted server still knows the binding")
            let sessions = SessionSecrets(bindings: try SQLiteSessionBindings(dataDirectory: server.dataDirectory))
            try await sessions.verify(channel: Self.sealed, userId: "dora", secret: issued)
        }
        let file = try Data(contentsOf: folder.appendingPathComponent("sessions.sqlite"))
        #expect(file.range(of: Data(issued.utf8)) == nil, "the secret itself is not stored")
        #expect(file.range(of: SessionSecrets.digest(issued)) != nil, "its SHA-256 is")
    }

    @Test func corsFollowsTheChannelsAllowedOrigins() async throws {
        try await withServer(channels: Self.channels) { server in
            let allowed = try await Self.post(
                server, "channelId=sealed", headers: ["Origin": "https://shop.example.com"])
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://shop.example.com")
            #expect(allowed.header("Vary") == "Origin")
            let bound = try await Self.post(
                server, "channelId=sealed&userId=\(allowed.json?["userId"]?.stringValue ?? "")",
                headers: ["Origin": "https://shop.example.com"])
            #expect(bound.status == 409)
            #expect(
                bound.header("Access-Control-Allow-Origin") == "https://shop.example.com",
                "the page can read why it was refused")

            let url = "http://127.0.0.1:\(server.port)/chat/v1/sessions?channelId=sealed"
            let preflight = try await Self.send(
                "OPTIONS", url,
                headers: ["Origin": "https://shop.example.com", "Access-Control-Request-Method": "POST"])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://shop.example.com")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            let refused = try await Self.send(
                "OPTIONS", url, headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(refused.status == 403)
            #expect(refused.header("Access-Control-Allow-Origin") == nil)

            // `*` lets any page in; a request without an Origin (an app) gets no CORS headers.
            let any = try await Self.post(server, "channelId=anyone", headers: ["Origin": "https://a.example:8443"])
            #expect(any.header("Access-Control-Allow-Origin") == "https://a.example:8443")
            let app = try await Self.post(server, "channelId=anyone")
            #expect(app.status == 200)
            #expect(app.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func digestsAreComparedWholly() {
        let a = SessionSecrets.digest("one")
        #expect(SessionSecrets.constantTimeEqual(a, SessionSecrets.digest("one")))
        #expect(!SessionSecrets.constantTimeEqual(a, SessionSecrets.digest("two")))
        var lastByte = a
        lastByte[lastByte.count - 1] ^= 1
        #expect(!SessionSecrets.constantTimeEqual(a, lastByte))
        #expect(!SessionSecrets.constantTimeEqual(a, a.dropLast()))
        #expect(SessionSecrets.base64URL([0xFB, 0xFF]) == "-_8")
        #expect(SessionSecrets.hex([0x00, 0x0A, 0xFF]) == "000aff")
    }
}
