import Foundation
import Logging
import NIOWebSocket
import ParleyServerTesting
import Testing
import WSClient
import WSCore

@testable import ParleyServer

/// Live agents have identities (issue 33): an agent signs in with a token signed by the agent key, acts under the
/// token's name whatever it declares, and a conversation it takes is bound to that name.
@Suite("Agent identities", .serialized, .timeLimit(.minutes(2)))
struct AgentIdentityTests {
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)
    static let key = "agent-key-for-the-identity-tests-0123456789"

    static func token(_ name: String, key: String = key, lifetime: TimeInterval = 3600, now: Date = Date()) -> String {
        AgentToken.mint(agent: name, key: key, lifetime: lifetime, now: now)
    }

    /// The code of the error `body` throws; nil when it throws none.
    static func code(_ body: () throws -> Any) -> ParleyError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as ParleyError {
            return error.code
        } catch {
            return "not a ParleyError"
        }
    }

    // MARK: The token

    @Test func aTokenCarriesTheAgentsNameAndIsBoundToTheKey() throws {
        let now = Date()
        let token = Self.token("Ava", now: now)
        #expect(try AgentToken.verify(token, key: Self.key, now: now).agent == "Ava")
        #expect(Self.code { try AgentToken.verify(token, key: "another key", now: now) } == .invalidToken)
        let later = now.addingTimeInterval(3601)
        #expect(Self.code { try AgentToken.verify(token, key: Self.key, now: later) } == .tokenExpired)
        let tooLong = Self.token("Ava", lifetime: AgentToken.maxLifetime + 60, now: now)
        #expect(Self.code { try AgentToken.verify(tooLong, key: Self.key, now: now) } == .invalidToken)
        // A channel token signed with the same secret is no agent token, and the other way round.
        let channelToken = ChannelToken.mint(channelId: "demo", userId: "Ava", secret: Self.key, lifetime: 600)
        #expect(Self.code { try AgentToken.verify(channelToken, key: Self.key, now: now) } == .invalidToken)
        let channel = ChannelConfiguration(id: "demo", secret: Self.key, clientAuthenticationEnabled: true)
        #expect(Self.code { try ChannelToken.verify(token, for: channel, now: now) } != nil)
        // A signature over other claims does not verify.
        let parts = token.split(separator: ".").map(String.init)
        let forged = Data(#"{"aud":"parley.agent","agent":"Root","iat":1,"exp":9999999999}"#.utf8)
        let tampered = [parts[0], forged.base64URLEncodedString(), parts[2]].joined(separator: ".")
        #expect(Self.code { try AgentToken.verify(tampered, key: Self.key, now: now) } == .invalidToken)
        #expect(!AgentToken.isValidName(" "))
        #expect(!AgentToken.isValidName("Ava\u{7}"))
    }

    // MARK: Signing in

    /// The shared key with a declared name no longer signs in (anyone holding it could be anyone); a token signed with
    /// another key, an expired token and a channel token are refused too.
    @Test func onlyAnAgentTokenSignsIn() async throws {
        try await withServer(channels: [Self.demo], configure: { $0.agentKey = Self.key }) { server in
            let refusals: [(JSONValue, CloseCode)] = [
                (["type": "auth", "key": .string(Self.key), "agent": ["name": "Ava"]], .invalidToken),
                (["type": "auth", "token": .string(Self.token("Ava", key: "guess")), "agent": [:]], .invalidToken),
                (
                    ["type": "auth", "token": .string(Self.token("Ava", now: Date().addingTimeInterval(-7200)))],
                    .tokenExpired
                ),
                (
                    [
                        "type": "auth",
                        "token": .string(
                            ChannelToken.mint(channelId: "demo", userId: "Ava", secret: Self.key, lifetime: 600)),
                    ], .invalidToken
                ),
            ]
            for (frame, code) in refusals {
                let (frames, close) = try await Self.signIn(port: server.port, frame)
                #expect(frames.first?["type"] == "error", "\(frame)")
                #expect(close?.closeCode == .unknown(code.rawValue), "\(frame): \(String(describing: close))")
                #expect(!frames.contains { $0["type"] == "welcome" })
            }
        }
    }

    /// The name an agent acts under is its token's: Bob declaring himself Ava is Bob, and cannot write to, hand back or
    /// take the conversation Ava took; the user sees only Ava.
    @Test func aConversationIsBoundToTheAgentWhoTookIt() async throws {
        try await withServer(channels: [Self.demo], configure: { $0.agentKey = Self.key }) { server in
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let ava = try await ScriptedAgent.connect(to: url, token: Self.token("Ava"))
            #expect(try await ava.next("welcome")["agent"]?["name"] == "Ava")
            _ = try await ava.next("queue")
            try await server.chat(channel: "demo", user: "uma") { socket in
                try await socket.send(UserMessage.text("agent", user: "uma"))
                while try await socket.receiveMessage().payload
                    != .text("I'm connecting you to one of our agents. Please wait.")
                {}
                await ava.join(channelId: "demo", userId: "uma")
                _ = try await ava.next("joined")

                let bob = try await ScriptedAgent.connect(
                    to: url, token: Self.token("Bob"), agent: AgentSession(name: "Ava"))
                #expect(try await bob.next("welcome")["agent"]?["name"] == "Bob", "the token's name, not the frame's")
                let entry = try await bob.next("queue")["conversations"]?[0]
                #expect(entry?["userId"] == "uma")
                #expect(entry?["agent"]?["name"] == "Ava")
                await bob.say(.text("I am Ava, trust me"), channelId: "demo", userId: "uma")
                #expect(try await bob.next("error")["error"]?["code"] == "agent.notJoined")
                await bob.typing(.responding, channelId: "demo", userId: "uma")
                #expect(try await bob.next("error")["error"]?["code"] == "agent.notJoined")
                await bob.handBack(channelId: "demo", userId: "uma", text: "Bob ended it")
                #expect(try await bob.next("error")["error"]?["code"] == "agent.notJoined")
                await bob.join(channelId: "demo", userId: "uma")
                #expect(try await bob.next("error")["error"]?["code"] == "agent.conversationTaken")
                await bob.close()

                // The user got nothing from Bob: the next message is Ava's.
                await ava.say(.text("Ava here"), channelId: "demo", userId: "uma")
                let heard = try await socket.receiveMessage()
                #expect(heard.payload.jsonValue["text"] == "Ava here")
                #expect(heard.payload.channelExtensions?.agentSession?.name == "Ava")
            }
            await ava.close()
        }
    }

    /// A token bounds the socket it opened: when it expires (on the server's clock) the console is closed with 4003.
    @Test func theConsoleClosesWhenItsTokenExpires() async throws {
        let clock = VirtualClock()
        let start = Date()
        try await withServer(
            channels: [Self.demo],
            configure: {
                $0.agentKey = Self.key
                $0.clock = ServerClock(clock: clock, startingAt: start)
            }
        ) { server in
            let token = Self.token("Ava", lifetime: 60, now: start)
            let (frames, close) = try await Self.signIn(port: server.port, ["type": "auth", "token": .string(token)]) {
                await clock.waitForSleepers(1)  // the expiry watch
                await clock.advance(by: .seconds(59))
                #expect(clock.sleeperCount == 1, "not expired yet")
                await clock.advance(by: .seconds(2))
            }
            #expect(frames.first?["type"] == "welcome")
            #expect(close?.closeCode == .unknown(CloseCode.tokenExpired.rawValue))
        }
    }

    /// Opens the agent socket, sends `frame`, runs `meanwhile` once the first frame came, and reads until the server
    /// closes: the frames and the close frame.
    static func signIn(
        port: Int, _ frame: JSONValue, meanwhile: @escaping @Sendable () async -> Void = {}
    ) async throws -> ([JSONValue], WebSocketCloseFrame?) {
        try await withTimeout(.seconds(30), "the agent sign-in") {
            let frames = Frames()
            let close = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/agent/socket", logger: Logger(label: "parley.test.agent")
            ) { inbound, outbound, _ in
                try await outbound.write(.text(frame.jsonString()))
                var first = true
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { await frames.append(try JSONValue(parsing: text)) }
                    if first {
                        first = false
                        await meanwhile()
                    }
                }
            }
            return (await frames.all, close)
        }
    }

    actor Frames {
        var all: [JSONValue] = []
        func append(_ frame: JSONValue) { all.append(frame) }
    }
}
