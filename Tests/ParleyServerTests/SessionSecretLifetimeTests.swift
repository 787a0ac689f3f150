import Foundation
import NIOWebSocket
import Testing
import WSCore

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The lifetime of session secrets (``ChannelConfiguration/sessionSecretLifetimeDays``): an expired secret is refused
/// with `session.expired`, an open socket closes with 4009 at the secret's expiry, and the holder of the old secret
/// (and only the holder) renews it for the same user id. Time runs on the server's ``VirtualClock``.
@Suite("Session secret lifetimes", .serialized, .timeLimit(.minutes(1)))
struct SessionSecretLifetimeTests {
    static let day: TimeInterval = 86_400
    static let sealed: ChannelConfiguration = {
        var channel = ChannelConfiguration(id: "sealed", skill: .echo, sessionSecrets: true)
        channel.sessionSecretLifetimeDays = 1
        return channel
    }()

    /// `POST /chat/v1/sessions` for `userId`, renewing with `previous` when given.
    static func session(_ server: TestServer, _ userId: String, previous: String? = nil) async throws
        -> SessionSecretTests.Answer
    {
        try await SessionSecretTests.post(
            server, "channelId=sealed&userId=\(userId)",
            headers: previous.map { ["X-Parley-Session-Secret": $0] } ?? [:])
    }

    static func secret(of answer: SessionSecretTests.Answer) throws -> String {
        try #require(answer.json?["sessionSecret"]?.stringValue, "\(answer.status) \(String(describing: answer.json))")
    }

    static func socketUser(_ userId: String, _ secret: String) -> String {
        userId + "&sessionSecret=" + (secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret)
    }

    @Test
    func anExpiredSecretIsRefusedWithSessionExpired() async throws {
        let clock = VirtualClock()
        try await withServer(channels: [Self.sealed], configure: { $0.clock = serverClock(on: clock) }) { server in
            let secret = try Self.secret(of: try await Self.session(server, "ann"))
            let uploader = try Self.secret(of: try await Self.session(server, "u1"))  // the upload helper's user
            try await server.chat(channel: "sealed", user: Self.socketUser("ann", secret)) { socket in
                try await socket.send(UserMessage.text("within the day", user: "ann"))
                #expect(try await socket.receiveMessage().payload == .text("within the day"))
            }
            // A second past the day: at the day's exact end the stored date (seconds since 1970 as a Double) may read
            // back a fraction of a microsecond later than it was written, which made this test fail now and then.
            await clock.advance(by: .seconds(86_401))
            let close = try await server.chat(channel: "sealed", user: Self.socketUser("ann", secret)) { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == nil)
            }
            #expect(close?.closeCode == .unknown(CloseCode.sessionExpired.rawValue))
            #expect(close?.reason?.hasPrefix("session.expired") == true, "\(String(describing: close?.reason))")
            let wrong = try await server.chat(channel: "sealed", user: Self.socketUser("ann", "guess")) { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == nil)
            }
            #expect(wrong?.closeCode == .unknown(CloseCode.sessionInvalid.rawValue), "a wrong secret stays wrong")

            let upload = try await AttachmentTests.upload(
                server, channel: "sealed", fileName: "menu.png", type: "image/png", size: 256,
                content: UploadFixture.png, headers: ["X-Parley-Session-Secret": uploader])
            #expect(upload.status == 401)
            #expect(try JSONValue(parsing: upload.body)["error"]?["code"] == "session.expired")
        }
        #expect(CloseCode(for: .sessionExpired) == .sessionExpired)
        #expect(CloseCode.sessionExpired.rawValue == 4009)
    }

    @Test func anOpenSocketClosesWith4009AtTheSecretsExpiry() async throws {
        let clock = VirtualClock()
        try await withServer(channels: [Self.sealed], configure: { $0.clock = serverClock(on: clock) }) { server in
            let secret = try Self.secret(of: try await Self.session(server, "bea"))
            await clock.advance(by: .seconds(3600))
            let close = try await server.chat(channel: "sealed", user: Self.socketUser("bea", secret)) { socket in
                try await socket.send(UserMessage.text("hi", user: "bea"))
                #expect(try await socket.receiveMessage().payload == .text("hi"))
                await clock.waitForSleepers(1)  // the socket's expiry watch
                await clock.advance(by: .seconds(86_400 - 3600 - 60))
                try await socket.send(UserMessage.text("still here", user: "bea"))
                #expect(try await socket.receiveMessage().payload == .text("still here"))
                await clock.advance(by: .seconds(61))
                while try await socket.receive() != nil {}
            }
            #expect(close?.closeCode == .unknown(CloseCode.sessionExpired.rawValue))
            #expect(close?.reason?.hasPrefix(ParleyError.Code.sessionExpired.rawValue) == true)
        }
    }

    @Test func theOldSecretRenewsTheSameUserAndStopsWorking() async throws {
        let clock = VirtualClock()
        let time = serverClock(on: clock)
        try await withServer(channels: [Self.sealed], configure: { $0.clock = time }) { server in
            let first = try Self.secret(of: try await Self.session(server, "cai"))
            try await server.chat(channel: "sealed", user: Self.socketUser("cai", first)) { socket in
                try await socket.send(UserMessage.text("before", user: "cai"))
                #expect(try await socket.receiveMessage().payload == .text("before"))
            }
            // Expired, but the right secret: renewed for the same user id.
            await clock.advance(by: .seconds(2 * 86_400))
            let renewed = try await Self.session(server, "cai", previous: first)
            #expect(renewed.status == 200)
            #expect(renewed.json?["userId"] == "cai")
            #expect(renewed.header("Cache-Control") == "no-store")
            let second = try Self.secret(of: renewed)
            #expect(second != first)

            let old = try await server.chat(channel: "sealed", user: Self.socketUser("cai", first)) { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == nil)
            }
            #expect(old?.closeCode == .unknown(CloseCode.sessionInvalid.rawValue), "the old secret stops working")
            try await server.chat(channel: "sealed", user: Self.socketUser("cai", second)) { socket in
                try await socket.send(UserMessage.text("after", user: "cai"))
                #expect(try await socket.receiveMessage().payload == .text("after"))
            }
            // The new secret has a lifetime of its own, from the renewal; renewing before the end works too.
            await clock.advance(by: .seconds(86_400 - 60))
            let early = try await Self.session(server, "cai", previous: second)
            #expect(early.status == 200)
            let third = try Self.secret(of: early)
            #expect(try await Self.session(server, "cai", previous: second).status == 409, "the old one is spent")
            let sessions = SessionSecrets(
                bindings: try SQLiteSessionBindings(dataDirectory: server.dataDirectory), clock: time)
            let expiry = try #require(try await sessions.verify(channel: Self.sealed, userId: "cai", secret: third))
            #expect(abs(expiry.timeIntervalSince(time.now()) - Self.day) < 5)
        }
    }

    /// Without the old secret a bound id, expired or not, is refused; with a wrong one too, and each wrong one is a
    /// failed sign-in of the address (so the limit stops guessing).
    @Test func aWrongOldSecretIsRefusedAndCountsAsAFailedSignIn() async throws {
        let clock = VirtualClock()
        try await withServer(
            channels: [Self.sealed],
            configure: {
                $0.clock = serverClock(on: clock)
                $0.failedSignInsPerMinute = 3
            }
        ) { server in
            let secret = try Self.secret(of: try await Self.session(server, "dan"))
            await clock.advance(by: .seconds(2 * 86_400))
            for _ in 0..<3 {
                let bare = try await Self.session(server, "dan")
                #expect(bare.status == 409, "an expired binding is not up for grabs")
                #expect(bare.json?["error"]?["code"] == "session.userBound")
            }
            var statuses: [Int] = []
            for guess in ["guess 1", "guess 2", "guess 3", "guess 4"] {
                let answer = try await Self.session(server, "dan", previous: guess)
                statuses.append(answer.status)
                #expect(answer.json?["sessionSecret"] == nil)
            }
            #expect(statuses == [409, 409, 409, 429], "requests without a secret are not sign-ins; guesses are")
            #expect(try await Self.session(server, "dan", previous: secret).status == 429, "the address waits")
            await clock.advance(by: .seconds(61))
            let renewed = try await Self.session(server, "dan", previous: secret)
            #expect(renewed.status == 200)
            #expect(renewed.json?["userId"] == "dan")
        }
    }

    /// The same rules on the store behind a cluster (PostgreSQL) and on SQLite: expiry at the bound date plus the
    /// lifetime, renewal by the old secret once.
    @Test(arguments: SessionBindingStoreTests.Kind.allCases)
    func theStoresKeepTheLifetime(kind: SessionBindingStoreTests.Kind) async throws {
        try await kind.withBindings { bindings in
            let clock = VirtualClock()
            let sessions = SessionSecrets(bindings: bindings, clock: serverClock(on: clock))
            let issued = try await sessions.issue(channel: Self.sealed, userId: "eve")
            let expiry = try #require(
                try await sessions.verify(channel: Self.sealed, userId: "eve", secret: issued.sessionSecret))
            await clock.advance(by: .seconds(86_400 + 1))
            do throws(ParleyError) {
                try await sessions.verify(channel: Self.sealed, userId: "eve", secret: issued.sessionSecret)
                Issue.record("an expired secret was accepted")
            } catch {
                #expect(error.code == .sessionExpired)
            }
            do throws(ParleyError) {
                _ = try await sessions.issue(channel: Self.sealed, userId: "eve", previousSecret: "guess")
                Issue.record("a wrong old secret renewed")
            } catch {
                #expect(error.code == .sessionUserBound)
            }
            let renewed = try await sessions.issue(
                channel: Self.sealed, userId: "eve", previousSecret: issued.sessionSecret)
            #expect(renewed.userId == "eve")
            let newExpiry = try #require(
                try await sessions.verify(channel: Self.sealed, userId: "eve", secret: renewed.sessionSecret))
            #expect(abs(newExpiry.timeIntervalSince(expiry) - Self.day) <= 1.5)  // renewed a second after expiry
            do throws(ParleyError) {
                try await sessions.verify(channel: Self.sealed, userId: "eve", secret: issued.sessionSecret)
                Issue.record("the old secret still works")
            } catch {
                #expect(error.code == .sessionInvalid)
            }
        }
    }

    @Test func theLifetimeIsConfiguredPerChannel() throws {
        let channel = try ChannelConfiguration(json: ["id": "a", "sessionSecretLifetimeDays": 7])
        #expect(channel.sessionSecretLifetimeDays == 7)
        #expect(try ChannelConfiguration(json: ["id": "a"]).sessionSecretLifetimeDays == 30)
        #expect(try ChannelConfiguration(json: channel.jsonValue) == channel)
        for days: JSONValue in [0, -1, 3651, 1e300] {
            #expect(throws: ParleyError.self, "\(days)") {
                try ChannelConfiguration(json: ["id": "a", "sessionSecretLifetimeDays": days])
            }
        }
    }
}
