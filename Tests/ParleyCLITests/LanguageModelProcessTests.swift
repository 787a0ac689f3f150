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
    /// An OpenAI-compatible endpoint in Python: the first request streams "Half " and then nothing (until the server
    /// that asked is killed); each later one streams "Whole ", waits until the file `gate` exists (the test makes
    /// it once the restarted server asked), then "answer.". Each request's last user message is appended to the file
    /// `log`, and `asked N` printed.
    static let endpoint = #"""
        import json, os, sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        log, gate = sys.argv[1], sys.argv[2]
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
                    if count == 1:
                        self.wfile.write(chunk("Half ")); self.wfile.flush()
                        time.sleep(60)
                        return
                    self.wfile.write(chunk("Whole ")); self.wfile.flush()
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

    @Test func aServerKilledMidAnswerAnswersAgainAndTheClientShowsTheWholeAnswerOnce() async throws {
        let folder = temporaryDataFolder("llm-kill")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("endpoint.py")
        let log = folder.appendingPathComponent("requests.log")
        let gate = folder.appendingPathComponent("gate")
        try Self.endpoint.write(to: script, atomically: true, encoding: .utf8)

        _ = try await Subprocess.run(
            .name("python3"), arguments: [script.path, log.path, gate.path], input: .none, output: .sequence,
            error: .discarded
        ) { execution in
            defer { try? execution.send(signal: .kill) }
            var lines = execution.standardOutput.strings().makeAsyncIterator()
            let line = try await lines.next()
            let endpointPort = try #require(line.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            let data = folder.appendingPathComponent("data")
            let port = try freePort()
            let arguments = [
                "--port", "\(port)", "--data", data.path, "--llm", "http://127.0.0.1:\(endpointPort)/v1",
                "--model", "tiny",
            ]
            var server = try await ServerProcess.start(arguments)
            let client = ChatClient(
                configuration: .quickToReconnect(
                    port: port, channel: "llm", user: "ada", maximumDelay: .milliseconds(100)))
            let events = await client.events()
            try await client.initialize()
            try await client.send(text: "Tell me everything.")

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
            defer { collector.cancel() }
            try await shown.wait(for: "Half ")
            try await server.kill9()
            server = try await ServerProcess.start(arguments)
            // The restarted server asks again for the stored input, and the client comes back while that answer
            // streams (before or after its start): it shows the answer in the half answer's place, never the half
            // answer with the rest of the new one after it.
            while let line = try await lines.next(), !line.hasPrefix("asked 2") {}
            try await shown.wait(connections: 2)
            _ = FileManager.default.createFile(atPath: gate.path, contents: nil)
            try await shown.wait(for: "Whole answer.")

            let texts = await shown.texts
            #expect(Set(texts).isSubset(of: ["Half ", "Whole ", "Whole answer."]), "only texts of an answer: \(texts)")
            let answers = await client.messages().filter { $0.sender != .user }.map { $0.payload.text ?? "" }
            #expect(answers == ["Whole answer."], "the whole answer once, no half one beside it")
            let asked = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(asked == ["Tell me everything.", "Tell me everything."], "the input was asked again")
            await client.destroy()
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
