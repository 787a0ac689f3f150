import Foundation
import Hummingbird
import Logging
import NIOCore
import ParleyCore
import Synchronization

/// An OpenAI-compatible chat-completions endpoint, `POST /v1/chat/completions` streamed as server-sent events: each
/// answer is ``pieces`` chunks (``piece(_:)``), ``pause`` apart, then the finish chunk and `[DONE]`. It remembers
/// when it wrote each answer's first chunk, in the order of the requests.
///
/// `llm.firstFrame` runs it in the benchmark's process; `llm.streams` runs it in a process of its own
/// (`model-endpoint`), where nothing waits for its graceful stop: it is killed.
public final class ModelEndpoint: Sendable {
    /// The chunks of each answer.
    public let pieces: Int
    /// The pause before each chunk after the first.
    public let pause: Duration
    private let firstChunks = Mutex<[ContinuousClock.Instant]>([])

    public init(pieces: Int, pause: Duration = .zero) {
        self.pieces = pieces
        self.pause = pause
    }

    /// The text of piece `index`: its index in it, so that a reader sees a piece lost, repeated or out of order.
    public static func piece(_ index: Int) -> String { "w\(index) " }

    /// The whole text of an answer of `pieces` pieces.
    public static func answer(pieces: Int) -> String { (0..<pieces).map(piece).joined() }

    /// When the answer to request `index` (from 0) had its first chunk written.
    public func firstChunk(of index: Int) -> ContinuousClock.Instant? {
        firstChunks.withLock { index < $0.count ? $0[index] : nil }
    }

    /// Runs the endpoint for the duration of `body`, which gets its API base (`http://127.0.0.1:PORT/v1`).
    public func run<Result: Sendable>(_ body: @escaping @Sendable (String) async throws -> Result) async throws
        -> Result
    {
        let router = Router()
        router.post("/v1/chat/completions") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            // One request a connection: a kept-alive connection of the skill's would hold the endpoint's graceful
            // stop (at the end of `llm.firstFrame`) open for ever. Parley's client and the proxy alike pay a
            // connection per answer.
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .connection: "close"],
                body: ResponseBody { writer in try await self.stream(to: &writer) })
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
            guard let port = await iterator.next() else { throw Failure() }
            return try await body("http://127.0.0.1:\(port)/v1")
        }
    }

    /// Writes one answer.
    private func stream(to writer: inout any ResponseBodyWriter) async throws {
        for index in 0..<pieces {
            if index > 0, pause > .zero { try await Task.sleep(for: pause) }
            let chunk: JSONValue = ["choices": [["index": 0, "delta": ["content": .string(Self.piece(index))]]]]
            if index == 0 { firstChunks.withLock { $0.append(.now) } }
            try await writer.write(ByteBuffer(string: "data: \(chunk.jsonString())\n\n"))
        }
        try await writer.write(
            ByteBuffer(
                string: #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"))
        try await writer.finish(nil)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the model endpoint did not start" }
    }
}
