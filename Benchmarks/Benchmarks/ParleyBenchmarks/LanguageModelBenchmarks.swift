import Benchmark
import Foundation
import Hummingbird
import Logging
import NIOCore
import ParleyCore
import ParleyServer
import ParleyServerTesting
import Synchronization
import WSClient
import WSCore

/// Issue 36: what Parley adds to a language model's stream, against a local OpenAI-compatible endpoint in this
/// process (``ModelEndpoint``) and Parley's real server with a `{"llm": …}` channel.
///
/// `llm.firstFrame`: one conversation, one answer at a time: from the moment the endpoint writes an answer's first
/// chunk to the moment the client reads the `textStream` frame that carries it. The endpoint's HTTP response, the
/// skill's parsing, the turn and the frame's way to the socket: Parley's overhead.
enum LanguageModelBenchmarks {
    static var turns: Int { quick ? 200 : 1_000 }
    static let warmUp = 20

    static func register() {
        Benchmark("llm.firstFrame", configuration: measuring(.p50, .p99, iterations: 3, warmup: 0)) { benchmark in
            let samples = try await firstFrameDelays()
            benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
            benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
        }
    }

    /// Runs the endpoint and a Parley server whose channel `llm` asks it, for the duration of `body`.
    static func withModelServer<Result: Sendable>(
        _ endpoint: ModelEndpoint, _ body: @escaping @Sendable (_ url: @escaping @Sendable (String) -> String)
            async throws -> Result
    ) async throws -> Result {
        try await endpoint.run { base in
            // No history: every request is the same size however long the conversation, so that turn N costs what
            // turn 1 does.
            let model: JSONValue = ["url": .string(base), "model": "bench", "history": 0]
            let channel = ChannelConfiguration(id: "llm", skill: try SkillReference(json: ["llm": model]))
            return try await InProcessServer.run(channels: [channel], logLevel: .error) { server in
                try await body { user in
                    "ws://127.0.0.1:\(server.port)/chat/v1/chats/sockets/websdk?channelId=llm&userId=\(user)"
                }
            }
        }
    }

    /// One client asking ``turns`` questions one after another: the delay from each answer's first chunk written by
    /// the endpoint to its first frame read by the client, after ``warmUp``, sorted.
    static func firstFrameDelays() async throws -> [Duration] {
        let endpoint = ModelEndpoint(pieces: 4)
        return try await withModelServer(endpoint) { url in
            var message = Fixtures.userText
            message.userId = "first"
            let frame = message.jsonString()
            let delays = Mutex<[Duration]>([])
            try await WebSocketClient.connect(
                url: url("first"), configuration: .init(maxFrameSize: 1 << 20), logger: LoadClient.logger
            ) { inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                for turn in 0..<(warmUp + turns) {
                    try await outbound.write(.text(frame))
                    var first: ContinuousClock.Instant?
                    while true {
                        guard case .text(let text)? = try await frames.next() else {
                            throw BenchmarkFailure("the server closed the socket")
                        }
                        if first == nil, text.contains("\"textStream\"") { first = .now }
                        if text.contains("\"endOfTurn\":true") { break }
                    }
                    guard let first, let written = endpoint.firstChunk(of: turn) else {
                        throw BenchmarkFailure("turn \(turn) streamed no piece")
                    }
                    if turn >= warmUp { delays.withLock { $0.append(written.duration(to: first)) } }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            return delays.withLock { $0 }.sorted()
        }
    }
}

/// An OpenAI-compatible chat-completions endpoint in this process: each answer is ``pieces`` chunks
/// (``piece(_:)``), written one after another as the connection takes them, then the finish and `[DONE]`. It
/// remembers when it wrote each answer's first chunk, in the order of the requests.
final class ModelEndpoint: Sendable {
    let pieces: Int
    private let firstChunks = Mutex<[ContinuousClock.Instant]>([])

    init(pieces: Int) { self.pieces = pieces }

    /// The text of piece `index`.
    static func piece(_ index: Int) -> String { "word\(index) " }

    /// When the answer to request `index` (from 0) had its first chunk written.
    func firstChunk(of index: Int) -> ContinuousClock.Instant? {
        firstChunks.withLock { index < $0.count ? $0[index] : nil }
    }

    /// Runs the endpoint for the duration of `body`, which gets its API base (`http://127.0.0.1:PORT/v1`).
    func run<Result: Sendable>(_ body: @escaping @Sendable (String) async throws -> Result) async throws -> Result {
        let router = Router()
        let pieces = pieces
        router.post("/v1/chat/completions") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            // One request a connection: a kept-alive connection of the skill's would hold the endpoint's graceful
            // stop (at the end of the benchmark) open for ever.
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .connection: "close"],
                body: ResponseBody { writer in
                    for index in 0..<pieces {
                        let chunk: JSONValue = [
                            "choices": [["index": 0, "delta": ["content": .string(Self.piece(index))]]]
                        ]
                        if index == 0 { self.firstChunks.withLock { $0.append(.now) } }
                        try await writer.write(ByteBuffer(string: "data: \(chunk.jsonString())\n\n"))
                    }
                    try await writer.write(
                        ByteBuffer(
                            string: #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#
                                + "\n\ndata: [DONE]\n\n"))
                    try await writer.finish(nil)
                })
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "bench.llm")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw BenchmarkFailure("the model endpoint did not start") }
            return try await body("http://127.0.0.1:\(port)/v1")
        }
    }
}
