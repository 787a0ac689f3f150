import Foundation
import ParleyGenesys
import ParleyServerTesting
import Testing

/// ChatSession against a scripted GMS: a Comet batch out of order with repeats, every transcript kind.
@Suite("Chat session", .timeLimit(.minutes(1)))
struct ChatSessionTests {
    /// The transcript the fake GMS holds, by position.
    static let transcript: [[String]] = [
        ["Notice.Joined", "Stan", "has joined the session", "8", "CLIENT"],
        ["Notice.Joined", "Kristi Sippola", "has joined the session", "17", "AGENT"],
        ["Notice.TypingStarted", "Kristi Sippola", "is typing", "17", "AGENT"],
        ["Message.Text", "Kristi Sippola", "Hi Stan", "17", "AGENT"],
        ["Notice.PushUrl", "Kristi Sippola", "http://example.com/help", "17", "AGENT"],
        ["Notice.Custom", "system", "client is in background", "0", "EXTERNAL"],
        ["Notice.Brand.New", "Kristi Sippola", "waves", "17", "AGENT"],
        ["Notice.Left", "Kristi Sippola", "has left the session", "17", "AGENT"],
    ]

    static func update(_ positions: [Int], state: String = "TRANSCRIPT") -> JSONValue {
        [
            "chatIxnState": .string(state), "transcriptPosition": .string(String(positions.last ?? 0)),
            "transcriptToShow": .array(positions.map { .array(transcript[$0 - 1].map(JSONValue.string)) }),
        ]
    }

    static func event(_ positions: [Int], state: String = "TRANSCRIPT") -> JSONValue {
        [
            "channel": "/_genesys",
            "data": ["message": update(positions, state: state), "tag": "service.chat.refresh.S1"],
        ]
    }

    actor FakeGMS: WebClient {
        private(set) var refreshPositions: [String] = []
        private var connects = 0
        private var created = false
        private var waitingForCreate: CheckedContinuation<Void, Never>?

        func send(_ request: WebRequest) async throws -> WebResponse {
            let path = request.url.path
            if path.hasSuffix("/cometd") {
                let messages = try BayeuxMessage.batch(decoding: request.body ?? [])
                switch messages.first?.channel {
                case .some(.handshake):
                    return .json(#"[{"channel":"/meta/handshake","successful":true,"clientId":"c1"}]"#)
                case .some(.subscribe):
                    return .json(#"[{"channel":"/meta/subscribe","successful":true,"subscription":"/_genesys"}]"#)
                case .some(.connect):
                    connects += 1
                    switch connects {
                    case 1: return .json(#"[{"channel":"/meta/connect","successful":true}]"#)
                    case 2:
                        // As GMS: no chat events before the chat exists.
                        if !created { await withCheckedContinuation { waitingForCreate = $0 } }
                        // Out of order, with repeats of what the create answer already showed.
                        let batch: JSONValue = [
                            ["channel": "/meta/connect", "successful": true], Self.eventJSON([4]),
                            Self.eventJSON([3]), Self.eventJSON([2]), Self.eventJSON([3]), Self.eventJSON([6]),
                            Self.eventJSON([5]), Self.eventJSON([7]), Self.eventJSON([8], state: "DISCONNECTED"),
                        ]
                        return WebResponse(status: 200, body: batch.jsonBytes())
                    default:
                        try await suspendUntilCancelled()
                        return WebResponse(status: 500)
                    }
                default:
                    return .json(#"[{"channel":"/meta/disconnect","successful":true}]"#)
                }
            }
            let fields = String(decoding: request.body ?? [], as: UTF8.self)
            if path.hasSuffix("/refresh") {
                let from =
                    fields.split(separator: "&").first { $0.hasPrefix("transcriptPosition=") }
                    .map { String($0.dropFirst("transcriptPosition=".count)) } ?? "0"
                refreshPositions.append(from)
                let start = max(Int(from) ?? 0, 1)
                return WebResponse(status: 200, body: ChatSessionTests.update(Array(start...8)).jsonBytes())
            }
            // create
            created = true
            waitingForCreate?.resume()
            waitingForCreate = nil
            return WebResponse(status: 200, body: ChatSessionTests.update([1, 2], state: "CONNECTED").jsonBytes())
        }

        static func eventJSON(_ positions: [Int], state: String = "TRANSCRIPT") -> JSONValue {
            ChatSessionTests.event(positions, state: state)
        }
    }

    @Test func orderedDeduplicatedAndMapped() async throws {
        let gms = FakeGMS()
        let chat = ChatSession(
            configuration: .init(
                startChatURL: URL(string: "http://gms.test/genesys/1/service/S1/ixn/chat")!,
                cometURL: URL(string: "http://gms.test/genesys/cometd")!, gmsUser: "u"),
            web: gms, clock: VirtualClock())
        var events = await chat.events().makeAsyncIterator()
        var received: [ChatMessage] = []
        try await chat.start()
        while let event = await events.next(isolation: #isolation) {
            if case .messageReceived(let message) = event { received.append(message) }
            if case .chatEnded = event { break }
        }
        #expect(received.map(\.id) == (2...8).map { "gms-\($0)" })
        let summary = received.map { message -> String in
            let kind = message.payload.channelExtensions?.values["gmsEvent"]?.stringValue ?? "text"
            if case .status(let status) = message.payload.content { return "\(kind):\(status.status.rawValue)" }
            return "\(kind):\(message.payload.text ?? "")"
        }
        #expect(
            summary == [
                "Notice.Joined:Kristi Sippola has joined the session",
                "Notice.TypingStarted:RESPONDING",
                "text:Hi Stan",
                "Notice.PushUrl:http://example.com/help",
                "Notice.Custom:system client is in background",
                "Notice.Brand.New:Kristi Sippola waves",
                "Notice.Left:Kristi Sippola has left the session",
            ])
        guard received.count == 7 else { return }
        #expect(received[4].sender == .bot)  // an EXTERNAL party is not an agent
        #expect(received[2].sender == .agent)
        #expect(received[2].payload.channelExtensions?.agentSession?.name == "Kristi Sippola")
        // The gap (4 before 3) was filled by one refresh from the highest position shown.
        #expect(await gms.refreshPositions == ["2"])
        #expect(await chat.transcriptPosition == 8)
        #expect(await chat.hasEnded)
    }
}
