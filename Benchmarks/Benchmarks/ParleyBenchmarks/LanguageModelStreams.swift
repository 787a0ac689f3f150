import Benchmark
import EchoServer
import Foundation
import ParleyCore
import Synchronization
import WSClient
import WSCore

/// Issue 36: 1,000 conversations streaming at once from a local language-model endpoint, through Parley's real
/// server (`parley serve`, a `{"llm": …}` channel, SQLite store) and through a raw pass-through proxy
/// (`model-proxy`), each in a process of its own with the endpoint (`model-endpoint`) in a third: chunks per second,
/// the server's CPU time per chunk, the time from a question to its stream's last frame, and every chunk checked.
///
/// Each client is one conversation asking ``questionsPerClient`` questions one after another, the next as soon as
/// the answer to the last ended; all start together. Every answer is checked whole: its pieces in the order they
/// came must be the endpoint's (`ModelEndpoint.piece(_:)`: "w0 ", "w1 ", …), once each; from Parley, each frame's
/// `aggregateText` must be the text so far and the `end` frame must carry the whole answer. A run with any chunk
/// lost, out of order, repeated or foreign fails.
enum LanguageModelStreams {
    static let clients = 1_000
    static var questionsPerClient: Int { quick ? 3 : 10 }
    /// The pieces of each answer, and the endpoint's pause before each after the first. An answer takes at least
    /// 0.95 s, far longer than the 1,000 questions take to reach the endpoint, so the streams overlap: 1,000 are open
    /// at once. The pace asks for 20,000 chunks a second, more than a 2-core machine passes on even through the proxy
    /// (about 9,000 on the one measured): both servers run at capacity, so chunks a second compares capacities (as
    /// `server.throughput` does); at a pace both could keep, it would be the endpoint's pace, 1.0x by construction.
    static let pieces = 20
    static let pauseMilliseconds = 50
    /// How long one sample may take before the server is killed, which ends every client with an error.
    static let deadline = Duration.seconds(300)

    /// Who streams the answers to the clients.
    enum Server: String, Sendable {
        case parley
        case proxy
    }

    static func register() {
        let runs = [(Server.parley, "llm.streams"), (.proxy, "llm.streams (raw pass-through proxy)")]
        for (server, name) in runs {
            // Three samples, as the `server` load takes: one sample of a load moves by ±15 % from run to run.
            let configuration = measuring(
                .chunksPerSecond, .cpuPerMessage, .p50, .faultyChunks, iterations: 3, warmup: 0)
            Benchmark(name, configuration: configuration) { benchmark in
                let load = try await run(server)
                benchmark.measurement(.chunksPerSecond, rate(load.chunks, in: load.duration))
                if let cpu = load.serverCPU {
                    benchmark.measurement(.cpuPerMessage, Int(cpu.seconds * 1e9) / max(load.chunks, 1))
                }
                benchmark.measurement(.p50, microseconds(percentile(load.samples, 0.50)))
                benchmark.measurement(.faultyChunks, load.faults.total)
            }
        }
    }

    /// What one sample measured.
    struct Load: Sendable {
        /// The chunks the endpoint wrote and the clients read.
        var chunks: Int
        /// From the moment all clients were connected to the last answer's end.
        var duration: Duration
        /// Each question's time to its stream's last frame, sorted.
        var samples: [Duration]
        /// The server's CPU time over `duration`.
        var serverCPU: Duration?
        var faults: Faults
    }

    /// Starts the endpoint, then `server` in front of it, and runs the clients.
    static func run(_ server: Server) async throws -> Load {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpointArguments = ["--pieces", "\(pieces)", "--pause-ms", "\(pauseMilliseconds)"]
        return try await withProcess("model-endpoint", endpointArguments, in: folder) { endpointPort, _ in
            let base = "http://127.0.0.1:\(endpointPort)/v1"
            switch server {
            case .parley:
                // No history, so that every request is the same size; as many requests to the endpoint at once as
                // there are conversations (the default, 8, would queue the others in the server).
                let model: JSONValue = [
                    "url": .string(base), "model": "bench", "history": 0,
                    "maxConcurrentRequests": .number(Double(clients)),
                ]
                let channels: JSONValue = ["channels": [["id": "llm", "skill": ["llm": model]]]]
                let configuration = folder.appendingPathComponent("channels.json")
                try Data(channels.jsonString().utf8).write(to: configuration)
                let arguments = [
                    "serve", "--port", "0", "--config", configuration.path, "--data",
                    folder.appendingPathComponent("data").path, "--messages-per-minute",
                    "\(benchmarkMessagesPerMinute)",
                ]
                return try await withProcess("parley", arguments, in: folder) { port, pid in
                    try await load(server, pid: pid) { user in
                        "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/bench?channelId=llm&userId=\(user)"
                    }
                }
            case .proxy:
                return try await withProcess("model-proxy", ["--endpoint", base], in: folder) { port, pid in
                    try await load(server, pid: pid) { _ in "ws://127.0.0.1:\(port)/proxy" }
                }
            }
        }
    }

    /// Runs ``clients`` conversations against the server of process `pid`.
    static func load(_ server: Server, pid: Int32, url: @escaping @Sendable (String) -> String) async throws -> Load {
        let cpu = { @Sendable in CPUTimes(server: cpuTime(of: pid)) }
        let gate = Gate(count: clients, cpu: cpu)
        // A load that stalls ends: the server is killed, which closes every client's socket.
        let stalled = Mutex(false)
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            stalled.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let conversations: [Conversation]
        do {
            conversations = try await concurrently(clients, width: clients) { index in
                try await converse(server, url: url("stream-\(index)"), user: "stream-\(index)", gate: gate)
            }
        } catch {
            guard !stalled.withLock({ $0 }) else {
                throw BenchmarkFailure("\(server): the load did not end within \(deadline) (\(error))")
            }
            throw error
        }
        guard let start = await gate.opened else { throw BenchmarkFailure("the clients never started") }
        let duration = start.duration(to: .now)
        let openedCPU = await gate.openedCPU
        let used = cpu().since(openedCPU)
        let faults = conversations.reduce(into: Faults()) { $0.add($1.faults) }
        guard faults.total == 0 else { throw BenchmarkFailure("\(server): \(faults)") }
        return Load(
            chunks: clients * questionsPerClient * pieces, duration: duration,
            samples: conversations.flatMap(\.samples).sorted(), serverCPU: used.server, faults: faults)
    }

    /// One client's questions and what its answers showed.
    struct Conversation: Sendable {
        var samples: [Duration] = []
        var faults = Faults()
    }

    /// One conversation: connects, waits at `gate`, asks ``questionsPerClient`` questions (the seed's user message)
    /// one after another, reading each answer to its end and checking it.
    static func converse(_ server: Server, url: String, user: String, gate: Gate) async throws -> Conversation {
        var message = Fixtures.userText
        message.userId = user
        let frame = message.jsonString()
        let result = Mutex<Conversation?>(nil)
        let arrived = Mutex(false)
        do {
            try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: 1 << 20), logger: LoadClient.logger
            ) { inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                await gate.arrive()
                arrived.withLock { $0 = true }
                var conversation = Conversation()
                conversation.samples.reserveCapacity(questionsPerClient)
                let clock = ContinuousClock()
                for question in 0..<questionsPerClient {
                    let start = clock.now
                    try await outbound.write(.text(frame))
                    var answer = AnswerCheck(server: server, pieces: pieces)
                    while !answer.ended {
                        guard case .text(let text)? = try await frames.next() else {
                            throw BenchmarkFailure("\(server) closed the socket of \(user)")
                        }
                        try answer.read(text)
                    }
                    conversation.samples.append(start.duration(to: clock.now))
                    conversation.faults.add(answer.faults(of: "\(user)'s answer \(question + 1)"))
                }
                result.withLock { $0 = conversation }
                try await outbound.close(.normalClosure, reason: nil)
            }
        } catch {
            // A client that never reached the gate would keep the others waiting at it for ever.
            if !arrived.withLock({ $0 }) { await gate.abandon() }
            throw error
        }
        if !arrived.withLock({ $0 }) { await gate.abandon() }
        guard let conversation = result.withLock({ $0 }) else {
            throw BenchmarkFailure("\(user)'s conversation ended before its answers")
        }
        return conversation
    }

    /// Runs product `name` (built next to this benchmark) with `arguments` for the duration of `body`, which gets
    /// the port it prints and its process id, then kills it: nothing waits for a graceful stop, which an endpoint's
    /// kept-alive connections held open for ever in this benchmark's first version. Its output goes to files in
    /// `folder`; a failure quotes the end of what it wrote on its standard error.
    static func withProcess<Result: Sendable>(
        _ name: String, _ arguments: [String], in folder: URL,
        _ body: (_ port: Int, _ pid: Int32) async throws -> Result
    ) async throws -> Result {
        let process = Process()
        process.executableURL = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent(name)
        process.arguments = arguments
        // To files, which never fill up and block the process as an undrained pipe would.
        let printed = folder.appendingPathComponent("\(name).out")
        let errors = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: printed.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let output = try FileHandle(forWritingTo: printed)
        let errorOutput = try FileHandle(forWritingTo: errors)
        process.standardOutput = output
        process.standardError = errorOutput
        // Not under the benchmark's own malloc interposer (LD_PRELOAD), which a deployed server never runs with.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        try process.run()
        try? output.close()  // the process has its own descriptors now
        try? errorOutput.close()
        let result: Swift.Result<Result, any Error>
        do {
            let port = try await Target.port(printedBy: process, in: printed)
            result = .success(try await body(port, process.processIdentifier))
        } catch {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let quoted = BenchmarkFailure("\(error); \(name) said: …\(said.suffix(600))")
            result = .failure(said.isEmpty ? error : quoted)
        }
        kill(process.processIdentifier, SIGKILL)
        await blocking { process.waitUntilExit() }
        return try result.get()
    }
}

/// One answer as a client reads it, frame by frame, until its last: from Parley, `textStream` frames (`start`, then
/// `running`, each with the new text and `aggregateText`, the text so far; the answer's `end`, with the whole text,
/// closes the turn); from the proxy, each chunk's text, then `[DONE]`. Whether Parley sends a frame per chunk or
/// several chunks in one frame, the pieces' texts in order must make the endpoint's answer.
struct AnswerCheck {
    let server: LanguageModelStreams.Server
    let pieces: Int
    /// The pieces' texts, in the order they came.
    private(set) var text = ""
    /// Whether the answer's last frame came.
    private(set) var ended = false
    private var streamId: String?
    /// Frames that contradict the stream: a wrong `aggregateText`, another stream's id, a wrong `end`.
    private var wrongFrames: [String] = []

    init(server: LanguageModelStreams.Server, pieces: Int) {
        self.server = server
        self.pieces = pieces
    }

    /// Reads one frame.
    /// - Throws: ``BenchmarkFailure`` for a frame that is not part of an answer (an error, an unreadable frame).
    mutating func read(_ frame: String) throws {
        guard server == .parley else {
            if frame == "[DONE]" { ended = true } else { text += frame }
            return
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: frame)
        } catch {
            throw BenchmarkFailure("an unreadable frame: \(frame.prefix(300))")
        }
        guard let payload = json["messagePayload"], payload["type"]?.stringValue == "textStream",
            let state = payload["streamState"]?.stringValue, let piece = payload["text"]?.stringValue
        else { throw BenchmarkFailure("a frame that is not an answer's: \(frame.prefix(300))") }
        let id = payload["streamId"]?.stringValue
        let aggregate = payload["aggregateText"]?.stringValue
        switch state {
        case "start", "running":
            if state == "start" {
                if streamId != nil { wrongFrames.append("a second start") }
                streamId = id
            } else if streamId == nil || id != streamId {
                wrongFrames.append("a running frame of stream \(id ?? "none") in stream \(streamId ?? "none")")
            }
            text += piece
            if aggregate != text { wrongFrames.append("aggregateText \(aggregate ?? "none") after \(text)") }
        case "end":
            ended = true
            let whole = ModelEndpoint.answer(pieces: pieces)
            if id != streamId || piece != whole || aggregate != whole || json["endOfTurn"]?.boolValue != true {
                wrongFrames.append("an end frame \(frame.prefix(300))")
            }
        default:
            wrongFrames.append("a frame \(frame.prefix(300))")
        }
    }

    /// What is wrong with the answer read, named `name` in an example.
    func faults(of name: String) -> Faults {
        var faults = Faults()
        var seen = [Bool](repeating: false, count: pieces)
        var highest = -1
        for token in text.split(separator: " ") {
            guard token.first == "w", let index = Int(token.dropFirst()), seen.indices.contains(index) else {
                faults.foreign += 1
                continue
            }
            if seen[index] {
                faults.repeated += 1
            } else {
                seen[index] = true
                if index < highest { faults.reordered += 1 } else { highest = index }
            }
        }
        faults.lost = seen.count { !$0 }
        faults.wrongFrames = wrongFrames.count
        // Any other difference (a missing space, a piece cut in two and glued wrong) counts once.
        if faults.total == 0, text != ModelEndpoint.answer(pieces: pieces) { faults.wrongFrames += 1 }
        if faults.total > 0 {
            faults.example = "\(name): \(text.prefix(200))" + (wrongFrames.first.map { "; \($0)" } ?? "")
        }
        return faults
    }
}

/// Chunks lost, out of order, repeated or foreign, and frames that contradict their stream, over a load.
struct Faults: Sendable, CustomStringConvertible {
    var lost = 0
    var reordered = 0
    var repeated = 0
    /// Text that is no piece of the endpoint's.
    var foreign = 0
    var wrongFrames = 0
    /// The first faulty answer.
    var example: String?

    var total: Int { lost + reordered + repeated + foreign + wrongFrames }

    mutating func add(_ other: Faults) {
        lost += other.lost
        reordered += other.reordered
        repeated += other.repeated
        foreign += other.foreign
        wrongFrames += other.wrongFrames
        example = example ?? other.example
    }

    var description: String {
        "\(lost) chunks lost, \(reordered) out of order, \(repeated) repeated, \(foreign) foreign, \(wrongFrames) "
            + "frames wrong; the first: \(example ?? "none")"
    }
}

extension BenchmarkMetric {
    /// Chunks of a language model's answers delivered per second.
    static let chunksPerSecond = BenchmarkMetric.custom("chunk/s", polarity: .prefersLarger, useScalingFactor: false)
    /// Chunks lost, out of order, repeated or foreign, and wrong frames: 0, or the benchmark fails.
    static let faultyChunks = BenchmarkMetric.custom("faulty", useScalingFactor: false)
}
