import Foundation
import ParleyGenesys

#if canImport(Glibc)
    import Glibc
#endif

/// A ``WebClient`` that records requests and answers them with a closure.
actor ScriptedWebClient: WebClient {
    private(set) var requests: [WebRequest] = []
    private let answer: @Sendable (WebRequest) throws -> WebResponse

    init(_ answer: @escaping @Sendable (WebRequest) throws -> WebResponse) {
        self.answer = answer
    }

    func send(_ request: WebRequest) async throws -> WebResponse {
        requests.append(request)
        return try answer(request)
    }

    nonisolated static func json(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }
}

/// A ``WebClient`` that passes requests on to another and keeps a line per exchange (what was sent, how long it took,
/// how it ended), for failure messages.
actor RecordingWebClient: WebClient {
    private let next: any WebClient
    private let started = ContinuousClock.now
    private(set) var lines: [String] = []

    init(_ next: any WebClient) {
        self.next = next
    }

    func send(_ request: WebRequest) async throws -> WebResponse {
        let sent = ContinuousClock.now
        let what = request.body.map { String(decoding: $0, as: UTF8.self).prefix(120) } ?? ""
        do {
            let response = try await next.send(request)
            record(
                sent, "\(what) -> HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self).prefix(160))"
            )
            return response
        } catch {
            record(sent, "\(what) -> \(error)")
            throw error
        }
    }

    private func record(_ sent: ContinuousClock.Instant, _ line: String) {
        let at = (sent - started).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))
        let took = (ContinuousClock.now - sent).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))
        lines.append("[\(at) +\(took)] \(line)")
    }
}

extension AsyncStream {
    /// The next element that matches, or nil when the stream ends.
    static func next(_ iterator: inout AsyncStream<Element>.Iterator, where match: (Element) -> Bool) async -> Element?
    {
        while let element = await iterator.next(isolation: #isolation) {
            if match(element) { return element }
        }
        return nil
    }
}

/// What the chat suites read events with: `Self.read(&events, into: &seen) { … }` and `Self.text(event)`.
protocol ChatEventReading {}

extension ChatEventReading {
    /// Reads events until one matches, keeping every event read in `seen`; nil when the stream ends.
    static func read(
        _ events: inout AsyncStream<ChatEvent>.Iterator, into seen: inout [ChatEvent], until match: (ChatEvent) -> Bool
    ) async -> ChatEvent? {
        while let event = await events.next(isolation: #isolation) {
            seen.append(event)
            if match(event) { return event }
        }
        return nil
    }

    /// The text of a message received.
    static func text(_ event: ChatEvent) -> String? {
        guard case .messageReceived(let message) = event else { return nil }
        return message.payload.text
    }
}

/// The folder of the test peers (Faye's config, the aiocometd script).
let peersDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers")

/// Runs `executable` with `arguments` until `body` returns, then terminates it.
func withSubprocess<Result>(
    _ executable: String, _ arguments: [String], directory: URL? = nil, output: Pipe? = nil,
    _ body: (Process) async throws -> Result
) async throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = output ?? FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    // Its end is awaited, not waited for on a thread (`waitUntilExit()` would block a thread of Swift's cooperative
    // pool, two on a two-core machine, and could stall every other test).
    let (exited, ended) = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in ended.finish() }
    try process.run()
    do {
        let result = try await body(process)
        process.terminate()
        for await _ in exited {}
        return result
    } catch {
        process.terminate()
        for await _ in exited {}
        throw error
    }
}

/// Asks `url` until it answers 200 (a peer starting up); gives up after `attempts` tries a quarter second apart.
func waitUntilServing(_ url: URL, attempts: Int = 160) async throws {
    for _ in 0..<attempts {
        if let (_, response) = try? await URLSession.shared.data(from: url),
            (response as? HTTPURLResponse)?.statusCode == 200
        {
            return
        }
        try await Task.sleep(for: .milliseconds(250))
    }
    throw POSIXError(.ETIMEDOUT)
}

/// Suspends until the task is cancelled, then throws `CancellationError`: a long poll that never answers, without
/// a timer (nothing to sleep on, nothing left behind on a virtual clock).
func suspendUntilCancelled() async throws {
    let (never, continuation) = AsyncStream.makeStream(of: Never.self)
    for await _ in never {}  // an AsyncStream ends when its task is cancelled
    continuation.finish()  // keeps the stream open until then
    throw CancellationError()
}

/// A POST with a body, for the peers' control endpoints.
@discardableResult
func post(_ url: URL, _ body: String, contentType: String = "application/json") async throws -> String {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    let (data, _) = try await URLSession.shared.data(for: request)
    return String(decoding: data, as: UTF8.self)
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebResponse {
    /// A 200 answer with a JSON body.
    static func json(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }
}
