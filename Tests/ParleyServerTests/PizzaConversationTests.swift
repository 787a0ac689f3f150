import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

@testable import ParleyServer

@Suite("Conversations through the server", .serialized, .timeLimit(.minutes(2)))
struct PizzaConversationTests {
    static func text(_ message: SkillMessage) -> String? { message.payload.text }

    /// The whole pizza order over a real socket, as the seed's iOS app would drive it: profile, hidden first message,
    /// postbacks from actions and cards, typed answers, a location, and the end of the session.
    @Test func theWholePizzaFlowOnAnUnauthenticatedChannel() async throws {
        let channel = ChannelConfiguration(id: "pizza", skill: .demo)
        try await withServer(channels: [channel]) { server in
            try await server.chat(channel: "pizza", user: "guest", client: "iossdk") { socket in
                try await socket.send(
                    ProfileUpdate(profile: Profile(givenName: "First", surname: "Last"), userId: "guest"))
                try await socket.send(UserMessage.text("Hi", user: "guest"))  // initUserHiddenMessage
                let greeting = try await socket.receiveTurn()
                #expect(greeting.map(Self.text) == ["Hi First! Welcome to Parley Pizza.", "What do you want to do?"])
                #expect(greeting.allSatisfy { $0.source == .bot && $0.userId == "guest" })
                #expect(greeting.map(\.endOfTurn) == [nil, true])

                let orderPizza = try #require(greeting.last?.payload.actions?.first)
                guard case .postback(let postback) = orderPizza.kind else {
                    throw TimeoutError(description: "no postback")
                }
                try await socket.send(
                    UserMessage(payload: .postback(postback, text: orderPizza.label), userId: "guest"))
                let menu = try await socket.receiveTurn()
                guard case .card(let cards) = menu.first?.payload.content else {
                    Issue.record("expected the card carousel")
                    return
                }
                #expect(cards.layout == .horizontal)
                #expect(cards.cards.map(\.title) == ["Hawaiian Pizza", "Cheese Pizza", "Margherita Pizza"])
                #expect(menu.first?.payload.globalActions?.first?.kind == .call(phoneNumber: "123456789"))

                let orderLarge = try #require(cards.cards[1].actions?.first { $0.label == "Order Large" })
                guard case .postback(let largeCheese) = orderLarge.kind else { return }
                try await socket.send(
                    UserMessage(payload: .postback(largeCheese, text: "Order Large"), userId: "guest"))
                let askLocation = try await socket.receiveTurn()
                #expect(askLocation.map(Self.text) == ["Where should we deliver your large cheese pizza?"])
                #expect(askLocation.first?.payload.actions?.map(\.kind) == [.location])

                try await socket.send(
                    UserMessage(
                        payload: .location(Location(latitude: 45.9285271, longitude: 132.6101925)), userId: "guest"))
                let confirmation = try await socket.receiveTurn()
                #expect(
                    confirmation.map(Self.text) == [
                        "Thank you! Your large cheese pizza on thick crust is on its way to you."
                    ])
                #expect(confirmation.first?.payload.actions?.first?.kind == .call(phoneNumber: "123456789"))

                try await socket.send(UserMessage(payload: .closeSession, userId: "guest"))
                let closed = try await socket.receiveTurn()
                #expect(closed.last?.payload.content == .sessionClosed)
            }
            let stored = try await SQLiteConversationStore(
                url: server.dataDirectory.appendingPathComponent("parley.sqlite")
            )
            .messages(for: ConversationKey(channelId: "pizza", userId: "guest"), after: .sequence(0))
            #expect(stored.map(\.sequence) == Array(1...stored.count))
            #expect(stored.filter { $0.direction == .user }.count == 6)
            #expect(stored.first?.wireFrame["profile"]?["givenName"] == "First")
        }
    }

    /// A webhook skill: each user message goes to an HTTP server (a real one, in this test), and its answer comes back.
    @Test func aWebhookSkillRelaysTheBotsAnswers() async throws {
        let bot = Router()
        bot.post("/bot") { request, _ -> Response in
            let body = try JSONValue(parsing: try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let said = body["messagePayload"]?["text"]?.stringValue ?? "?"
            if said == "fail" { return Response(status: .internalServerError) }
            let answer: JSONValue = [
                "messages": [
                    [
                        "type": "text",
                        "text": .string(
                            "\(body["userId"]?.stringValue ?? "?") on \(body["channelId"]?.stringValue ?? "?") said \(said)"
                        ),
                    ],
                    ["type": "card", "layout": "vertical", "cards": [["title": "From the webhook"]]],
                ]
            ]
            return Response(status: .ok, body: .init(byteBuffer: .init(bytes: answer.jsonBytes())))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "parley.test.bot")
        logger.logLevel = .warning
        let botApp = Application(
            router: bot, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(
            configuration: .init(services: [botApp], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            let botPort = try #require(await iterator.next())
            let channel = ChannelConfiguration(id: "hooked", skill: .webhook("http://127.0.0.1:\(botPort)/bot"))
            try await withServer(channels: [channel]) { server in
                try await server.chat(channel: "hooked", user: "ann") { socket in
                    try await socket.send(UserMessage.text("hello", user: "ann"))
                    let turn = try await socket.receiveTurn()
                    #expect(turn.map(\.payload.type) == [.text, .card])
                    #expect(turn.first?.payload.text == "ann on hooked said hello")

                    try await socket.send(UserMessage.text("fail", user: "ann"))
                    let failure = try await socket.receiveMessage()
                    guard case .error(let error) = failure.payload.content else {
                        Issue.record("expected an error payload")
                        return
                    }
                    #expect(error.errorCode == .skillFailed)
                    #expect(error.errorMessage.contains("HTTP 500"))

                    try await socket.send(UserMessage.text("still there?", user: "ann"))
                    #expect(try await socket.receiveTurn().first?.payload.text == "ann on hooked said still there?")
                }
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
