import Foundation
import Hummingbird
import Logging
import NIOCore
import ParleyLanguageModel
import ParleyServerTesting
import Testing

@testable import ParleyServer

/// A channel whose skill is `{"llm": …}`: the model's pieces reach the socket as `textStream` frames (start, running,
/// end with the whole text and `endOfTurn`, one `streamId`), the stored answer is the `end` frame, and the next
/// request carries the conversation from the store.
@Suite("Language-model channels", .serialized, .timeLimit(.minutes(2)))
struct LanguageModelChannelTests {
    /// An OpenAI-compatible endpoint that streams each answer's pieces and records the requests' messages.
    actor Endpoint {
        var answers: [[String]]
        private(set) var requests: [JSONValue] = []

        init(_ answers: [[String]]) { self.answers = answers }

        func take(_ request: JSONValue) -> [String] {
            requests.append(request)
            return answers.isEmpty ? ["?"] : answers.removeFirst()
        }

        func run(_ body: @Sendable (String) async throws -> Void) async throws {
            let router = Router()
            router.post("/v1/chat/completions") { request, _ -> Response in
                let json = try JSONValue(parsing: try await request.body.collect(upTo: 1 << 20).readableBytesView)
                let pieces = await self.take(json)
                var text = ""
                for piece in pieces {
                    let chunk: JSONValue = ["choices": [["index": 0, "delta": ["content": .string(piece)]]]]
                    text += "data: \(chunk.jsonString())\n\n"
                }
                text += #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            var logger = Logger(label: "parley.test.llm")
            logger.logLevel = .critical
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                defer { group.cancelAll() }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { throw CancellationError() }
                try await body("http://127.0.0.1:\(port)/v1")
            }
        }
    }

    @Test func piecesAreTextStreamFramesAndTheEndIsStoredWhole() async throws {
        let endpoint = Endpoint([["Hel", "lo", "!"], ["Fine."]])
        try await endpoint.run { url in
            let model = LanguageModelConfiguration(url: url, model: "m", instructions: "Be brief.")
            let channel = ChannelConfiguration(id: "llm", skill: try SkillReference(json: ["llm": model.jsonValue]))
            try await withServer(channels: [channel]) { server in
                try await server.chat(channel: "llm", user: "ada") { socket in
                    try await socket.send(UserMessage.text("hi", user: "ada"))
                    let turn = try await socket.receiveTurn()
                    let pieces = turn.compactMap { message -> MessagePayload.TextStream? in
                        if case .textStream(let piece) = message.payload.content { return piece }
                        return nil
                    }
                    #expect(turn.count == 4)
                    #expect(pieces.map(\.streamState) == [.start, .running, .running, .end])
                    #expect(pieces.map(\.text) == ["Hel", "lo", "!", "Hello!"])
                    #expect(pieces.map(\.aggregateText) == ["Hel", "Hello", "Hello!", "Hello!"])
                    #expect(Set(pieces.map(\.streamId)) == ["llm/ada/1"])
                    #expect(turn.map(\.endOfTurn) == [nil, nil, nil, true])

                    try await socket.send(UserMessage.text("and you?", user: "ada"))
                    #expect(try await socket.receiveTurn().last?.payload.text == "Fine.")
                }
            }
        }
        // The second request carries the conversation as stored: the answer once, whole (the `end` frame).
        let second = await endpoint.requests.last?["messages"]?.arrayValue ?? []
        #expect(second.map { $0["role"]?.stringValue ?? "" } == ["system", "user", "assistant", "user"])
        #expect(second.map { $0["content"]?.stringValue ?? "" } == ["Be brief.", "hi", "Hello!", "and you?"])
    }

    @Test func theConfigurationFileNamesAModel() throws {
        let reference = try SkillReference(json: ["llm": ["url": "http://127.0.0.1:11434/v1", "model": "llama3.2"]])
        guard case .llm(let model) = reference else {
            Issue.record("not a language model: \(reference)")
            return
        }
        #expect(model.model == "llama3.2")
        #expect(try SkillReference(json: reference.jsonValue) == reference)
        let error = #expect(throws: ParleyError.self) {
            try SkillReference(json: ["llm": ["url": "ftp://x", "model": "m"]])
        }
        #expect(error?.path?.description == "$.llm.url")
    }
}
