import Foundation
import Hummingbird
import Logging
import ParleyServerTesting
import ServiceLifecycle
import Testing

/// Reads a client's events in order, skipping the ones a test does not ask for.
struct EventReader {
    var iterator: AsyncStream<ChatEvent>.Iterator

    init(_ stream: AsyncStream<ChatEvent>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next event `match` accepts; events before it are skipped. Fails the test when the stream ends.
    mutating func next<Value>(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ match: (ChatEvent) -> Value?
    ) async throws -> Value {
        while let event = await iterator.next(isolation: #isolation) {
            if let value = match(event) { return value }
        }
        Issue.record("the events ended before \(what)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The next message received from the skill.
    mutating func received(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ChatMessage {
        try await next("a message", sourceLocation: sourceLocation) {
            if case .messageReceived(let message) = $0 { message } else { nil }
        }
    }

    /// Checks that the next message received says `text`.
    mutating func expectReply(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let message = try await received(sourceLocation: sourceLocation)
        #expect(message.payload.text == text, sourceLocation: sourceLocation)
    }

    /// The next status change to `status`.
    mutating func status(_ status: ConnectionStatus, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        _ = try await next("status \(status)", sourceLocation: sourceLocation) {
            if case .statusChanged(let changed) = $0, changed == status { () } else { nil }
        }
    }

    /// The next error.
    mutating func error(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ParleyError {
        try await next("an error", sourceLocation: sourceLocation) {
            if case .error(let error) = $0 { error } else { nil }
        }
    }
}

/// A bot behind a webhook channel that records every request the chat server makes, in order, and answers
/// a text with `echo: <text>` and anything else with `got <type>`.
actor RecordingBot {
    private(set) var requests: [JSONValue] = []

    func record(_ request: JSONValue) -> JSONValue {
        requests.append(request)
        guard let payload = request["messagePayload"] else { return ["messages": []] }
        let type = payload["type"]?.stringValue ?? "?"
        let text = type == "text" ? "echo: \(payload["text"]?.stringValue ?? "")" : "got \(type)"
        return ["messages": [["type": "text", "text": .string(text)]]]
    }

    /// Runs the bot on a free port for the duration of `body`, which gets the webhook URL.
    static func run<Result: Sendable>(
        _ body: @Sendable (RecordingBot, String) async throws -> Result
    ) async throws -> Result {
        let bot = RecordingBot()
        let router = Router()
        router.post("/bot") { request, _ -> Response in
            let body = try JSONValue(parsing: try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let answer = await bot.record(body)
            return Response(status: .ok, body: .init(byteBuffer: .init(bytes: answer.jsonBytes())))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "parley.test.bot")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body(bot, "http://127.0.0.1:\(port)/bot"))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
    }
}

/// A transport that wraps the real WebSocket transport and lets a test cut the connection or swallow `pong`
/// frames (a zombie socket), beside the real thing.
actor Saboteur {
    var swallowPongs = false
    private var cuts: [@Sendable () -> Void] = []

    func setSwallowPongs(_ value: Bool) { swallowPongs = value }

    fileprivate func register(_ cut: @escaping @Sendable () -> Void) { cuts.append(cut) }

    /// Ends every open connection's session (the socket closes as after a network drop).
    func cutAll() {
        cuts.forEach { $0() }
        cuts.removeAll()
    }

    nonisolated var transport: some ChatTransport { SabotagedTransport(saboteur: self) }
}

private struct SabotagedTransport: ChatTransport {
    let saboteur: Saboteur
    let base = WebSocketTransport()

    func connect(
        to url: URL, headers: [String: String], session: @escaping @Sendable (TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        try await base.connect(to: url, headers: headers) { connection in
            let (inbound, continuation) = AsyncStream.makeStream(of: String.self)
            await saboteur.register { continuation.finish() }
            let filtered = TransportConnection(
                inbound: inbound, send: { try await connection.send($0) },
                close: { await connection.close($0, reason: $1) })
            async let forwarding: Void = {
                for await text in connection.inbound {
                    if text.contains("\"pong\""), await saboteur.swallowPongs { continue }
                    continuation.yield(text)
                }
                continuation.finish()
            }()
            try await session(filtered)
            await connection.close(.goingAway, reason: "cut")
            await forwarding
        }
    }
}

/// Runs `body` and checks that it fails with a ``ParleyError`` of `code`; returns the error.
@discardableResult
func expectFailure(
    _ code: ParleyError.Code, _ what: String = "the call", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> ParleyError? {
    do {
        try await body()
        Issue.record("\(what) succeeded; expected \(code)", sourceLocation: sourceLocation)
    } catch let error as ParleyError {
        #expect(error.code == code, "\(what): \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("\(what) failed with \(error); expected \(code)", sourceLocation: sourceLocation)
    }
    return nil
}
