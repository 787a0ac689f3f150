import Foundation
import ParleyServerTesting
import Subprocess
import SystemPackage
import Testing

/// Language-model channels of the real `parley serve` process, against an endpoint in Python: killed in the middle of
/// an answer (the input is answered again after the restart, and the client, connected throughout, ends with the
/// whole answer once, never the half one beside it), a socket dropped mid-answer, a new message cancelling a stream,
/// an endpoint that fails, the model offering choices and calling an operator's tool.
@Suite("Language-model channels of the parley serve process", .serialized, .timeLimit(.minutes(2)))
struct LanguageModelProcessTests {
    /// An OpenAI-compatible endpoint in Python. In mode `kill`, the first request streams "Half " and then nothing
    /// (until the server that asked is killed), and each later one streams "Whole "; in mode `drop`, every request
    /// streams "Half ". Then it waits until the file `gate` exists (the test makes it when it is ready), and streams
    /// "answer." and the end. Each request's last message is appended to the file `log`, and `asked N` printed.
    ///
    /// The other modes answer at once. `cancel`: the first request streams "Half " and then an event-stream comment
    /// every 20 ms until the connection is closed (logged as "(cancelled)"); later ones stream "Second answer." once
    /// that happened (or after 5 s).
    /// `fail`: the first request gets HTTP 500; later ones stream "Back again.". `choices`: "Which size? " and a call
    /// of the built-in `offerChoices` with Small and Large. `tool`: the first request calls the operator's tool
    /// `orderStatus` with order 42; later ones stream "Tool said: " and the tool's result. The tool's webhook is the
    /// endpoint's own `/tools/order-status`, which logs "(webhook) BODY" and answers `{"status": "shipped"}`.
    static let endpoint = #"""
        import json, os, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        log, gate, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        count = 0
        cancelled = threading.Event()
        def event(value):
            return ("data: " + json.dumps(value) + "\n\n").encode()
        def chunk(text):
            return event({"choices": [{"index": 0, "delta": {"content": text}}]})
        def call(name, arguments):
            return event({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
                "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]}}]})
        def end(reason="stop"):
            return event({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}) + b"data: [DONE]\n\n"
        def note(line):
            with open(log, "a") as f: f.write(line + "\n")
        class Endpoint(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def reply(self, status, content_type, body=None):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Connection", "close")
                if body is not None: self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if body is not None: self.wfile.write(body)
            def do_POST(self):
                global count
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/tools/order-status":
                    note("(webhook) " + raw.decode())
                    return self.reply(200, "application/json", b'{"status": "shipped"}')
                count += 1
                body = json.loads(raw)
                note(body["messages"][-1].get("content") or "")
                print("asked", count, flush=True)
                if mode == "fail" and count == 1:
                    return self.reply(500, "application/json", b'{"error": {"message": "the model is down"}}')
                self.reply(200, "text/event-stream")
                try:
                    if mode == "cancel" and count == 1:
                        self.wfile.write(chunk("Half ")); self.wfile.flush()
                        deadline = time.time() + 20
                        while time.time() < deadline:
                            time.sleep(0.02)
                            self.wfile.write(b": still thinking\n\n"); self.wfile.flush()
                        return
                    if mode == "cancel": cancelled.wait(5)
                    if mode in ("cancel", "fail"):
                        self.wfile.write(chunk("Second answer." if mode == "cancel" else "Back again.") + end())
                        return
                    if mode == "choices":
                        self.wfile.write(chunk("Which size? ") + call("offerChoices", {"choices": ["Small", "Large"]})
                            + end("tool_calls"))
                        return
                    if mode == "tool":
                        if count == 1:
                            self.wfile.write(call("orderStatus", {"order": "42"}) + end("tool_calls"))
                        else:
                            self.wfile.write(chunk("Tool said: " + body["messages"][-1]["content"]) + end())
                        return
                    if mode == "kill" and count == 1:
                        self.wfile.write(chunk("Half ")); self.wfile.flush()
                        time.sleep(60)
                        return
                    self.wfile.write(chunk("Whole " if mode == "kill" else "Half ")); self.wfile.flush()
                    deadline = time.time() + 20
                    while not os.path.exists(gate) and time.time() < deadline: time.sleep(0.02)
                    self.wfile.write(chunk("answer.") + end())
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    if mode == "cancel":
                        note("(cancelled)")
                        cancelled.set()
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

    /// Runs the Python endpoint in `mode` for `body`, which gets it and a wait for a line of its output (`asked 2`,
    /// `cancelled`); the endpoint is killed afterwards.
    static func withEndpoint(
        _ mode: String, in folder: URL,
        _ body: (Endpoint, _ printed: (String) async throws -> Void) async throws -> Void
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
            try await body(Endpoint(port: port, log: endpoint.log, gate: endpoint.gate)) { printed in
                while let line = try await lines.next(), !line.hasPrefix(printed) {}
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
                    guard message.sender != .user else { continue }
                    if let text = message.payload.text { await shown.add(text) }
                    if let code = message.payload.errorCode { await shown.add("error \(code)") }
                    if let actions = message.payload.actions, !actions.isEmpty {
                        await shown.add("actions " + actions.map { $0.label ?? "" }.joined(separator: ", "))
                    }
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
        try await Self.withEndpoint("kill", in: folder) { endpoint, printed in
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
            try await printed("asked 2")
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

    /// Runs `parley serve` with a channel `llm` on the endpoint of `mode` for `body`, which gets the endpoint and a
    /// client of the channel (initialized) with what it shows. With `tools`, the channel's configuration file offers
    /// the model the endpoint's `orderStatus` tool.
    static func withChannel(
        _ mode: String, _ name: String, tools: Bool = false,
        _ body: (Endpoint, ChatClient, Shown) async throws -> Void
    ) async throws {
        let folder = temporaryDataFolder(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withEndpoint(mode, in: folder) { endpoint, _ in
            let base = "http://127.0.0.1:\(endpoint.port)"
            var arguments = ["--port", "0", "--data", folder.appendingPathComponent("data").path]
            if tools {
                let tool: JSONValue = [
                    "name": "orderStatus", "description": "The status of an order",
                    "parameters": [
                        "type": "object", "properties": ["order": ["type": "string"]], "required": ["order"],
                    ],
                    "webhook": .string(base + "/tools/order-status"),
                ]
                let model: JSONValue = ["url": .string(base + "/v1"), "model": "tiny", "tools": [tool]]
                let channels: JSONValue = ["channels": [["id": "llm", "skill": ["llm": model]]]]
                let file = folder.appendingPathComponent("channels.json")
                try channels.jsonString().write(to: file, atomically: true, encoding: .utf8)
                arguments += ["--config", file.path]
            } else {
                arguments += ["--llm", base + "/v1", "--model", "tiny"]
            }
            let server = try await ServerProcess.start(arguments)
            let (client, shown, collector) = await Self.client(port: try await server.listeningPort())
            defer { collector.cancel() }
            try await client.initialize()
            try await body(endpoint, client, shown)
            await client.destroy()
            try await server.stop()
        }
    }

    /// The skill's answers the client has, in order.
    static func answers(of client: ChatClient) async -> [MessagePayload] {
        await client.messages().filter { $0.sender != .user }.map(\.payload)
    }

    @Test func aNewMessageCancelsTheStreamingAnswerWhichKeepsWhatItStreamed() async throws {
        try await Self.withChannel("cancel", "llm-cancel") { endpoint, client, shown in
            try await client.send(text: "Tell me a long story.")
            try await shown.wait(for: "Half ")
            try await client.send(text: "Something else.")
            try await shown.wait(for: "Second answer.")
            let answers = await Self.answers(of: client)
            #expect(answers.map(\.text) == ["Half ", "Second answer."], "\(answers)")
            // The first request's connection was closed (the endpoint answers the second only once it saw that).
            #expect(
                try endpoint.asked().sorted() == ["(cancelled)", "Something else.", "Tell me a long story."],
                "asked once for each message, the first request cancelled")
        }
    }

    @Test func anEndpointThatFailsIsACodedErrorAndTheConversationGoesOn() async throws {
        try await Self.withChannel("fail", "llm-fail") { endpoint, client, shown in
            try await client.send(text: "Hello?")
            try await shown.wait(for: "error llm.failed")
            try await client.send(text: "Hello again?")
            try await shown.wait(for: "Back again.")
            let answers = await Self.answers(of: client)
            #expect(answers.map(\.errorCode) == ["llm.failed", nil], "\(answers)")
            #expect(answers.last?.text == "Back again.")
            #expect(try endpoint.asked() == ["Hello?", "Hello again?"], "a 500 is not asked again")
        }
    }

    @Test func theModelsChoicesArePostbackActionsOnTheAnswer() async throws {
        try await Self.withChannel("choices", "llm-choices") { _, client, shown in
            try await client.send(text: "A pizza, please.")
            try await shown.wait(for: "actions Small, Large")
            let answer = try #require(await Self.answers(of: client).last)
            #expect(answer.text == "Which size? ")
            #expect(answer.actions?.map(\.label) == ["Small", "Large"])
            #expect(answer.actions?.map(\.type) == [.postback, .postback])
        }
    }

    @Test func theModelCallsTheOperatorsToolThroughItsWebhookAndAnswersWithTheResult() async throws {
        try await Self.withChannel("tool", "llm-tool", tools: true) { endpoint, client, shown in
            try await client.send(text: "Where is order 42?")
            try await shown.wait(for: #"Tool said: {"status": "shipped"}"#)
            let asked = try endpoint.asked()
            #expect(asked.count == 3, "\(asked)")
            #expect(asked.first == "Where is order 42?")
            let posted = try #require(asked.dropFirst().first)
            #expect(posted.hasPrefix("(webhook) "))
            let webhook = try JSONValue(parsing: String(posted.dropFirst("(webhook) ".count)))
            #expect(webhook["tool"] == "orderStatus")
            #expect(webhook["arguments"] == ["order": "42"])
            #expect(webhook["channelId"] == "llm")
            #expect(asked.last == #"{"status": "shipped"}"#, "the model read the webhook's answer")
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

extension MessagePayload {
    /// The code of an `error` payload.
    fileprivate var errorCode: String? {
        if case .error(let error) = content { return error.errorCode?.rawValue }
        return nil
    }
}
