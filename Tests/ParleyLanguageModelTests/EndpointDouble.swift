import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ParleyLanguageModel
import ParleySkills

/// A door the test opens: the endpoint double waits at it between two pieces of a stream, so the test decides
/// exactly when each piece leaves.
final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    func open() {
        continuation.yield()
        continuation.finish()
    }

    func wait() async {
        for await _ in stream { return }
    }
}

/// A test double of an OpenAI-compatible endpoint: `POST /v1/chat/completions` answers with the replies the test
/// scripts, one per request in order; `POST /tools/NAME` is an operator tool's webhook. Every request is recorded.
actor EndpointDouble {
    /// One step of a streamed answer.
    enum Step: Sendable {
        /// Bytes sent as they are.
        case raw(String)
        /// `data: JSON\n\n`.
        case data(JSONValue)
        /// Wait until the test opens the gate.
        case wait(Gate)
        /// Close the connection without ending the body.
        case cut
        /// Write keep-alive comments until the client is gone, and record it (``disconnections``).
        case untilDisconnected
    }

    /// What one request gets.
    enum Reply: Sendable {
        /// `200 text/event-stream` with these steps.
        case stream([Step])
        /// Any status, headers and body.
        case status(Int, headers: [String: String] = [:], body: String = "")
    }

    struct Recorded: Sendable {
        var body: JSONValue
        var authorization: String?
    }

    private var replies: [Reply]
    private(set) var requests: [Recorded] = []
    private(set) var toolCalls: [(name: String, body: JSONValue)] = []
    private(set) var active = 0
    private(set) var maximumActive = 0
    let disconnections: AsyncStream<Void>
    private let disconnected: AsyncStream<Void>.Continuation
    let toolAnswer: String

    init(_ replies: [Reply], toolAnswer: String = #"{"status": "shipped"}"#) {
        self.replies = replies
        self.toolAnswer = toolAnswer
        (disconnections, disconnected) = AsyncStream.makeStream(of: Void.self)
    }

    fileprivate func take(_ request: Recorded) -> Reply {
        requests.append(request)
        active += 1
        maximumActive = max(maximumActive, active)
        return replies.isEmpty
            ? .status(500, body: #"{"error": {"message": "no reply scripted"}}"#) : replies.removeFirst()
    }

    fileprivate func done() { active -= 1 }
    fileprivate func recordDisconnection() { disconnected.yield() }
    fileprivate func recordTool(_ name: String, _ body: JSONValue) { toolCalls.append((name, body)) }

    private struct Cut: Error {}

    /// Runs the double on a free port for the duration of `body`, which gets the API base (`http://…/v1`).
    func run<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
        let router = Router()
        router.post("/v1/chat/completions") { request, _ -> Response in
            let json = try JSONValue(parsing: try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let reply = await self.take(Recorded(body: json, authorization: request.headers[.authorization]))
            switch reply {
            case .status(let code, let headers, let text):
                await self.done()
                var fields = HTTPFields()
                fields[.contentType] = "application/json"
                for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
                return Response(
                    status: .init(code: code), headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
            case .stream(let steps):
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        defer { Task { await self.done() } }
                        for step in steps {
                            switch step {
                            case .raw(let text): try await writer.write(ByteBuffer(string: text))
                            case .data(let json):
                                try await writer.write(ByteBuffer(string: "data: \(json.jsonString())\n\n"))
                            case .wait(let gate): await gate.wait()
                            case .cut: throw Cut()
                            case .untilDisconnected:
                                // Until the client goes, however long that takes on a loaded machine (a bounded
                                // number of writes in a tight loop could end first, and the stream with it), a
                                // comment every 20 ms as a server's keep-alive would.
                                do {
                                    while true {
                                        try await writer.write(ByteBuffer(string: ": still here\n"))
                                        try await Task.sleep(for: .milliseconds(20))
                                    }
                                } catch {
                                    await self.recordDisconnection()
                                    throw error
                                }
                            }
                        }
                        try await writer.finish(nil)
                    })
            }
        }
        router.post("/tools/:name") { request, context -> Response in
            let json = try JSONValue(parsing: try await request.body.collect(upTo: 1 << 20).readableBytesView)
            await self.recordTool(context.parameters.get("name") ?? "", json)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: self.toolAnswer)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "parley.test.llm")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            return try await body("http://127.0.0.1:\(port)/v1")
        }
    }
}

/// Chunks as OpenAI-compatible servers stream them.
enum Chunk {
    static func text(_ text: String) -> EndpointDouble.Step {
        .data(["choices": [["index": 0, "delta": ["content": .string(text)], "finish_reason": nil]]])
    }

    static func finish(_ reason: String = "stop") -> EndpointDouble.Step {
        .data(["choices": [["index": 0, "delta": [:], "finish_reason": .string(reason)]]])
    }

    static func usage(prompt: Int, completion: Int) -> EndpointDouble.Step {
        .data([
            "choices": [],
            "usage": ["prompt_tokens": .number(Double(prompt)), "completion_tokens": .number(Double(completion))],
        ])
    }

    static let done = EndpointDouble.Step.raw("data: [DONE]\n\n")

    /// A piece of a tool call: the first piece of each index has its id and name.
    static func tool(index: Int, id: String? = nil, name: String? = nil, arguments: String) -> EndpointDouble.Step {
        var function: JSONObject = ["arguments": .string(arguments)]
        if let name { function["name"] = .string(name) }
        var call: JSONObject = ["index": .number(Double(index)), "function": .object(function)]
        if let id {
            call["id"] = .string(id)
            call["type"] = "function"
        }
        return .data(["choices": [["index": 0, "delta": ["tool_calls": [.object(call)]], "finish_reason": nil]]])
    }

    /// A whole answer: the text in pieces, then stop and `[DONE]`.
    static func answer(_ pieces: String...) -> EndpointDouble.Reply {
        .stream(pieces.map(text) + [finish(), done])
    }
}

extension SkillContext {
    /// A context for the tests, with a history and a clock.
    static func test(
        history: [HistoryMessage] = [], clock: any Clock<Duration> = ContinuousClock()
    ) -> SkillContext {
        SkillContext(
            channelId: "web", userId: "ada", clock: clock, history: InMemoryConversationHistory(history))
    }
}

/// The events of a stream, collected.
func collect(_ stream: AsyncThrowingStream<SkillStreamEvent, any Error>) async throws -> (
    pieces: [String], response: SkillResponse?
) {
    var pieces: [String] = []
    var response: SkillResponse?
    for try await event in stream {
        switch event {
        case .text(let piece): pieces.append(piece)
        case .response(let whole): response = whole
        }
    }
    return (pieces, response)
}
