import Foundation
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Subprocess
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Our code against Bayeux software we did not write: Debian's ruby-faye server (run by thin), and PyPI's
/// aiocometd-ng client. `scripts/test` installs both.
@Suite("Bayeux interoperability", .serialized, .timeLimit(.minutes(2)))
struct InteroperabilityTests {
    @Test func ourClientAgainstFaye() async throws {
        let port = try freePort()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await withSubprocess(
            "/usr/bin/thin", ["-R", "faye.ru", "-a", "127.0.0.1", "-p", String(port), "start"],
            directory: peersDirectory
        ) { _ in
            try await waitUntilServing(base.appendingPathComponent("health"))
            let web = RecordingWebClient(URLSessionWebClient())
            let client = BayeuxClient(configuration: .init(url: base.appendingPathComponent("cometd")), web: web)
            var events = await client.events().makeAsyncIterator()
            await client.subscribe(.genesys)
            await client.start()
            let first = await AsyncStream.next(&events) { if case .handshook = $0 { true } else { false } }
            guard case .handshook(let firstId) = first else {
                Issue.record("no handshake")
                return
            }
            let subscribed = await AsyncStream.next(&events) { $0 == .subscribed(.genesys) }
            #expect(subscribed != nil)

            try await post(base.appendingPathComponent("publish"), SeedExamples.messageReceiptData)
            let message = await AsyncStream.next(&events) { if case .message = $0 { true } else { false } }
            guard case .message(let delivered) = message else {
                Issue.record("no message")
                return
            }
            #expect(delivered.channel == .genesys)
            let notification = try ChatNotification(json: #require(delivered.data))
            #expect(notification.update.entries.map(\.text) == ["Hello."])

            // Faye forgets the client: its next connect is "401:<id>:Unknown client" with advice handshake.
            let forgot = try await post(base.appendingPathComponent("forget"), "")
            #expect(forgot == "forgot 1")
            // What the client reported from here on, for the failure message. (Under the full suite's load, this
            // part failed while Faye's timeout was 2 s: Faye forgot the client again before the message reached it;
            // see faye.ru.)
            var seen: [String] = []
            let again = await AsyncStream.next(&events) {
                seen.append("\($0)")
                if case .handshook = $0 { return true } else { return false }
            }
            guard case .handshook(let secondId) = again else {
                Issue.record("no second handshake")
                return
            }
            #expect(secondId != firstId)
            let resubscribed = await AsyncStream.next(&events) {
                seen.append("\($0)")
                return $0 == .subscribed(.genesys)
            }
            #expect(resubscribed != nil)
            try await post(base.appendingPathComponent("publish"), SeedExamples.partyJoinedData)
            let second = await AsyncStream.next(&events) {
                seen.append("\($0)")
                if case .message = $0 { return true } else { return false }
            }
            guard case .message(let joined) = second else {
                Issue.record(
                    """
                    no message after the re-handshake; the client reported: \(seen.suffix(40)); its exchanges:
                    \(await web.lines.joined(separator: "\n"))
                    """)
                return
            }
            #expect(try ChatNotification(json: #require(joined.data)).update.entries.map(\.kind) == [.joined])
            await client.disconnect(ext: ["transcriptPosition": "3"])
            #expect(await client.state == .disconnected)
        }
    }

    @Test func aiocometdAgainstOurSimulator() async throws {
        try await InProcessServer.runWithGMS {
            server in
            let lines = try await peerLines("aiocometd_peer.py", [server.url.absoluteString, "py-user", "PYSERVICE"])
            #expect(lines.first == ["peer": "subscribed"])
            #expect(lines.contains(["peer": "created", "state": "CONNECTED"]))
            #expect(lines.contains { $0["channel"] == "/echo" && $0["data"] == ["hello": "from aiocometd"] })
            let joined = lines.first { $0["channel"] == "/_genesys" }
            #expect(joined?["data"]?["message"]?["transcriptToShow"]?[0]?[0] == "Notice.Joined")
            #expect(joined?["data"]?["tag"] == "service.chat.refresh.PYSERVICE")
            #expect(lines.last == ["peer": "done"])
        }
    }
    /// Chat API version 2 publishes wait for the server's reply: Faye's acknowledgement returns, its refusal of a
    /// channel name it does not accept throws.
    @Test func confirmedPublishesAgainstFaye() async throws {
        let port = try freePort()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await withSubprocess(
            "/usr/bin/thin", ["-R", "faye.ru", "-a", "127.0.0.1", "-p", String(port), "start"],
            directory: peersDirectory
        ) { _ in
            try await waitUntilServing(base.appendingPathComponent("health"))
            let client = BayeuxClient(configuration: .init(url: base.appendingPathComponent("cometd")))
            var events = await client.events().makeAsyncIterator()
            await client.subscribe(.genesys)
            await client.start()
            #expect(await AsyncStream.next(&events) { $0 == .subscribed(.genesys) } != nil)
            try await client.publishConfirmed(["operation": "sendMessage", "message": "echo"], to: .genesys)
            let echoed = await AsyncStream.next(&events) { if case .message = $0 { true } else { false } }
            guard case .message(let message) = echoed else {
                Issue.record("the published message did not come back")
                return
            }
            #expect(message.data == ["operation": "sendMessage", "message": "echo"])
            do {
                try await client.publishConfirmed("x", to: "/not a channel")
                Issue.record("Faye took a publish on an invalid channel")
            } catch let error as ParleyError {
                #expect(error.code == .bayeuxUnsuccessful)
            }
            await client.disconnect()
            do {
                try await client.publishConfirmed("x", to: .genesys)
                Issue.record("published after the disconnect")
            } catch let error as ParleyError {
                #expect(error.code == .bayeuxNotConnected)
            }
        }
    }

    /// A foreign CometD client runs a whole Chat API version 2 chat against the simulator: the simulator's service
    /// channel answers follow CometD's rules, not only our client's habits.
    @Test func aiocometdRunsAChatV2AgainstOurSimulator() async throws {
        try await InProcessServer.runWithGMS { server in
            let lines = try await peerLines(
                "aiocometd_chatv2_peer.py", [server.url.absoluteString, "py-user", "py-chat"])
            #expect(lines.first == ["peer": "subscribed"])
            let answers = lines.filter { $0["channel"] == "/service/chatV2/py-chat" }.compactMap(\.["data"])
            let decoded = try answers.map(ChatV2Response.init(json:))
            #expect(decoded.first?.secureKey != nil)
            #expect(decoded.allSatisfy { $0.statusCode == 0 && $0.secureKey == decoded.first?.secureKey })
            let events = decoded.flatMap(\.messages)
            #expect(!events.isEmpty)
            #expect(events.map(\.index) == Array(1..<(events.count + 1)))
            #expect(
                events.map { "\($0.from.type.rawValue):\($0.type.rawValue)" } == [
                    "Client:ParticipantJoined", "Agent:ParticipantJoined", "Client:Message", "Agent:TypingStarted",
                    "Agent:TypingStopped", "Agent:Message", "Client:ParticipantLeft",
                ])
            #expect(events.last?.from.nickname == "Py")
            #expect(decoded.last?.chatEnded == true)
            #expect(lines.last == ["peer": "done"])
        }
    }
}

extension SeedExamples {
    /// The seed's Comet deliveries' `data`, as strict JSON, for publishing through Faye.
    static var messageReceiptData: String { try! JSONValue(parsingLeniently: messageReceipt)["data"]!.jsonString() }
    static var partyJoinedData: String { try! JSONValue(parsingLeniently: partyJoined)["data"]!.jsonString() }
}

/// Runs one of the Python peers in `Peers` to its end and returns the JSON lines it printed. Awaited, not waited for
/// on a thread: a blocked thread of Swift's cooperative pool (two on a two-core machine) can stall every other test.
func peerLines(_ script: String, _ arguments: [String]) async throws -> [JSONValue] {
    let result = try await Subprocess.run(
        .name("python3"), arguments: Arguments([peersDirectory.appendingPathComponent(script).path] + arguments),
        output: .string(limit: 4 << 20), error: .discarded)
    #expect(result.terminationStatus.isSuccess, "\(script) ended with \(result.terminationStatus)")
    return result.standardOutput.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
}
