import Benchmark
import EchoServer
import Foundation
import ParleyCore
import ParleyServer
import ParleyServerTesting
import Synchronization
import WSClient
import WSCore

/// Issue 36: what Parley adds to a language model's stream, against a local OpenAI-compatible endpoint in this
/// process (``ModelEndpoint``, in the EchoServer target) and Parley's real server with a `{"llm": …}` channel.
/// `llm.streams`, 1,000 of them at once, is ``LanguageModelStreams``.
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
