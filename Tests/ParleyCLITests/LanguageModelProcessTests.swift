import Foundation
import ParleyServerTesting
import Subprocess
import SystemPackage
import Testing

/// A language-model channel of the real `parley serve` process, killed in the middle of an answer: the input is
/// answered again after the restart, and the client, connected throughout, ends with the whole answer once, never
/// the half one beside it.
@Suite("Language-model channels of the parley serve process", .serialized, .timeLimit(.minutes(2)))
struct LanguageModelProcessTests {
    /// An OpenAI-compatible endpoint in Python. In mode `kill`, the first request streams "Half " and then nothing
    /// (until the server that asked is killed), and each later one streams "Whole "; in mode `drop`, every request
    /// streams "Half ". Then it waits until the file `gate` exists (the test makes it when it is ready), and streams
    /// "answer." and the end. Each request's last user message is appended to the file `log`, and `asked N` printed.
    static let endpoint = #"""
        import json, os, sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        log, gate, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        count = 0
        def chunk(text):
            return ("data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]}) + "\n\n").encode()
        class Endpoint(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def do_POST(self):
                global count
                count += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with open(log, "a") as f: f.write(body["messages"][-1]["content"] + "\n")
                print("asked", count, flush=True)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    if mode == "kill" and count == 1:
                        self.wfile.write(chunk("Half ")); self.wfile.flush()
                        time.sleep(60)
                        return
                    self.wfile.write(chunk("Whole " if mode == "kill" else "Half ")); self.wfile.flush()
                    deadline = time.time() + 20
                    while not os.path.exists(gate) and time.time() < deadline: time.sleep(0.02)
                    self.wfile.write(chunk("answer."))
                    end = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                    self.wfile.write(("data: " + json.dumps(end) + "\n\ndata: [DONE]\n\n").encode())
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
        server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// What a test has of the endpoint: its port, its request log, the gate it waits for, and a wait for its `n`th
    /// request.
    struct Endpoint {
        let port: Int
        let log: URL
        let gate: URL

        /// Lets the endpoint's held answers go on.
        func open() { _ = FileManager.default.createFile(atPath: gate.path, contents: nil) }

        /// The user messages the endpoint was asked, in order.
        func asked() throws -> [Substring] { try String(contentsOf: log, encoding: .utf8).split(separator: "\n") }
    }

    /// Runs the Python endpoint in `mode` for `body`, which gets it and a wait for its `n`th request (told by its
    /// output); the endpoint is killed afterwards.
    static func withEndpoint(
        _ mode: String, in folder: URL,
        _ body: (Endpoint, _ askedTimes: (Int) async throws -> Void) async throws -> Void
    ) async throws {
        let script = folder.appendingPathComponent("endpoint.py")
        let endpoint = Endpoint(
            port: 0, log: folder.appendingPathComponent("requests.log"), gate: folder.appendingPathComponent("gate"))
        try Self.endpoint.write(to: script, atomically: true, encoding: .utf8)
        _ = try await Subprocess.run(
            .name("python3"), arguments: [script.path, endpoint.log.path, endpoint.gate.path, mode], input: .none,
            output: .sequence, error: .discarded
        ) { execution in
            defer { try? execution.send(signal: .kill) }
            var lines = execution.standardOutput.strings().makeAsyncIterator()
            let line = try await lines.next()
            let port = try #require(line.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            try await body(Endpoint(port: port, log: endpoint.log, gate: endpoint.gate)) { count in
                while let line = try await lines.next(), !line.hasPrefix("asked \(count)") {}
            }
        }
    }

    /// A client of the channel `llm` at `port` that reconnects at once, and what it shows.
    static func client(port: Int) async -> (ChatClient, Shown, Task<Void, Never>) {
        let client = ChatClient(
            configuration: .quickToReconnect(port: port, channel: "llm", user: "ada", maximumDelay: .milliseconds(100)))
        let events = await client.events()
        let shown = Shown()
        let collector = Task {
            for await event in events {
                switch event {
                case .messageReceived(let message), .messageUpdated(let message):
                    if message.sender != .user, let text = message.payload.text { await shown.add(text) }
                case .statusChanged(.connected):
                    await shown.connected()
                default: continue
                }
            }
        }
        return (client, shown, collector)
    }

    @Test func aServerKilledMidAnswerAnswersAgainAndTheClientShowsTheWholeAnswerOnce() async throws {
        let folder = temporaryDataFolder("llm-kill")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withEndpoint("kill", in: folder) { endpoint, askedTimes in
            let port = try freePort()
            let arguments = [
                "--port", "\(port)", "--data", folder.appendingPathComponent("data").path, "--llm",
                "http://127.0.0.1:\(endpoint.port)/v1", "--model", "tiny",
            ]
            var server = try await ServerProcess.start(arguments)
            let (client, shown, collector) = await Self.client(port: port)
            defer { collector.cancel() }
            try await client.initialize()
            try await client.send(text: "Tell me everything.")
            try await shown.wait(for: "Half ")
            try await server.kill9()
            server = try await ServerProcess.start(arguments)
            // The restarted server asks again for the stored input, and the client comes back while that answer
            // streams (before or after its start): it shows the answer in the half answer's place, never the half
            // answer with the rest of the new one after it.
            try await askedTimes(2)
            try await shown.wait(connections: 2)
            endpoint.open()
            try await shown.wait(for: "Whole answer.")

            let texts = await shown.texts
            #expect(Set(texts).isSubset(of: ["Half ", "Whole ", "Whole answer."]), "only texts of an answer: \(texts)")
            let answers = await client.messages().filter { $0.sender != .user }.map { $0.payload.text ?? "" }
            #expect(answers == ["Whole answer."], "the whole answer once, no half one beside it")
            #expect(
                try endpoint.asked() == ["Tell me everything.", "Tell me everything."], "the input was asked again")
            await client.destroy()
            try await server.stop()
        }
    }

    @Test func aSocketDroppedMidAnswerComesBackToTheRestAndTheStoredAnswerOnce() async throws {
        let folder = temporaryDataFolder("llm-drop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withEndpoint("drop", in: folder) { endpoint, _ in
            let server = try await ServerProcess.start([
                "--port", "0", "--data", folder.appendingPathComponent("data").path, "--llm",
                "http://127.0.0.1:\(endpoint.port)/v1", "--model", "tiny",
            ])
            let proxy = try await FaultProxy.start(
                upstreamPort: try await server.listeningPort(), faults: FaultProxy.Faults(seed: 1))
            let (client, shown, collector) = await Self.client(port: proxy.port)
            defer { collector.cancel() }
            try await client.initialize()
            try await client.send(text: "Tell me everything.")
            try await shown.wait(for: "Half ")
            // The socket dies without a close frame while the answer streams; the server goes on answering.
            await proxy.dropAllConnections()
            try await shown.wait(connections: 2)
            endpoint.open()
            try await shown.wait(for: "Half answer.")

            let texts = await shown.texts
            #expect(Set(texts).isSubset(of: ["Half ", "Half answer."]), "only texts of the answer: \(texts)")
            let answers = await client.messages().filter { $0.sender != .user }.map { $0.payload.text ?? "" }
            #expect(answers == ["Half answer."], "the answer once, whole")
            #expect(try endpoint.asked() == ["Tell me everything."], "asked once: the turn went on without the socket")
            await client.destroy()
            await proxy.stop()
            try await server.stop()
        }
    }

    /// The texts of the skill messages the client showed (received or updated) and how often it connected, and
    /// waits for either.
    actor Shown {
        private(set) var texts: [String] = []
        private(set) var connections = 0
        private var waiters:
            [UUID: (condition: @Sendable ([String], Int) -> Bool, resume: CheckedContinuation<Void, any Error>)] = [:]

        func add(_ text: String) {
            texts.append(text)
            wake()
        }

        func connected() {
            connections += 1
            wake()
        }

        private func wake() {
            for (id, waiter) in waiters where waiter.condition(texts, connections) {
                waiters[id] = nil
                waiter.resume.resume()
            }
        }

        /// Returns once the client showed `text`; throws when the test is cancelled first (its time limit).
        func wait(for text: String) async throws {
            try await wait { texts, _ in texts.contains(text) }
        }

        /// Returns once the client connected `count` times.
        func wait(connections count: Int) async throws {
            try await wait { _, connections in connections >= count }
        }

        private func wait(until condition: @escaping @Sendable ([String], Int) -> Bool) async throws {
            guard !condition(texts, connections) else { return }
            let id = UUID()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters[id] = (condition, continuation)
                    }
                }
            } onCancel: {
                Task { await self.cancel(id) }
            }
        }

        private func cancel(_ id: UUID) {
            waiters.removeValue(forKey: id)?.resume.resume(throwing: CancellationError())
        }
    }
}
