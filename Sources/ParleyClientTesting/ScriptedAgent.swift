public import Foundation
public import Logging
import NIOWebSocket
import WSClient
import WSCore

/// A live agent a test plays: it opens the agent console's socket of a Parley server (`docs/agents.md`), signs in
/// with an agent token, reads what the server sends, and sends the agent's commands.
///
/// Like the console page, it keeps a copy of the queue: it applies the server's `queueChanged` frames (and the
/// pages it gets) to it, and after each one it gives a `queue` frame of its own holding the copy
/// (`{"type":"queue","conversations":[…],"version","total","more"}`), so a test reads the queue as it is now with
/// `next("queue")`. The server's `queueChanged` frames come too.
///
/// ```swift
/// let token = AgentToken.mint(agent: "Ava", key: "agent-key", lifetime: 3600)  // parley token --agent Ava
/// let agent = try await ScriptedAgent.connect(to: server.url, token: token, agent: AgentSession())
/// let queue = try await agent.next("queue")
/// try await agent.join(channelId: "demo", userId: "alice")
/// try await agent.say(.text("Hi, I'm Ava."), channelId: "demo", userId: "alice")
/// ```
public actor ScriptedAgent {
    /// Shares its stream with every copy, so the copy a call iterates reads on from where the last one stopped.
    private let frames: AsyncStream<JSONValue>.AsyncIterator
    private let commands: AsyncStream<String>.Continuation
    private let connection: Task<Void, any Error>

    private init(
        frames: AsyncStream<JSONValue>, commands: AsyncStream<String>.Continuation,
        connection: Task<Void, any Error>
    ) {
        self.frames = frames.makeAsyncIterator()
        self.commands = commands
        self.connection = connection
    }

    /// Opens the agent socket of the server at `serverURL` and signs in with `token` (an agent token, minted by
    /// `parley token --agent NAME`). Read ``next(_:)`` for the `welcome` (or the `error` of a refused token).
    /// - Parameters:
    ///   - serverURL: The server's base URL.
    ///   - token: The agent token; the agent's name is the token's.
    ///   - agent: The avatar and colours the agent shows; its name, if any, is replaced by the token's.
    ///   - logger: Where the socket logs.
    public static func connect(
        to serverURL: URL, token: String, agent: AgentSession = AgentSession(),
        logger: Logger = Logger(label: "parley.test.agent")
    ) async throws -> ScriptedAgent {
        guard var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false) else {
            throw ParleyError(.invalidValue, "\(serverURL) is not a URL")
        }
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = "/agent/socket"
        let url = components.string ?? ""
        let (frames, frameSink) = AsyncStream.makeStream(of: JSONValue.self)
        let (commandStream, commands) = AsyncStream.makeStream(of: String.self)
        let connection = Task {
            defer { frameSink.finish() }
            _ = try await WebSocketClient.connect(url: url, configuration: .init(), logger: logger) {
                inbound, outbound, _ in
                let writer = Task {
                    for await command in commandStream { try await outbound.write(.text(command)) }
                    try await outbound.close(.normalClosure, reason: "the agent left")
                }
                defer { writer.cancel() }
                var queue = QueueCopy()
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    guard case .text(let text) = message, let frame = try? JSONValue(parsing: text) else { continue }
                    switch frame["type"]?.stringValue {
                    case "queue":
                        queue.apply(page: frame)
                        frameSink.yield(queue.frame)
                    case "queueChanged":
                        frameSink.yield(frame)
                        queue.apply(changes: frame)
                        frameSink.yield(queue.frame)
                    default:
                        frameSink.yield(frame)
                    }
                }
            }
        }
        let scripted = ScriptedAgent(frames: frames, commands: commands, connection: connection)
        await scripted.send(["type": "auth", "token": .string(token), "agent": agent.jsonValue])
        return scripted
    }

    /// Asks for the page of the queue after the conversation `after` (an entry of a `queue` frame, or nil for the
    /// first page); the copy grows by it and a `queue` frame follows.
    public func requestQueuePage(after: JSONValue? = nil, limit: Int? = nil) {
        var frame: JSONObject = ["type": "queuePage"]
        if let after {
            frame["after"] = [
                "channelId": after["channelId"] ?? .null, "userId": after["userId"] ?? .null,
                "since": after["since"] ?? .null,
            ]
        }
        if let limit { frame["limit"] = .number(Double(limit)) }
        send(.object(frame))
    }

    /// The next frame of `type` from the server (`welcome`, `queue` (the copy of the queue), `queueChanged`,
    /// `joined`, `message`, `typing`, `ended`, `error`, `pong`); frames of other types before it are skipped.
    /// - Throws: ``ParleyError/Code/connectionFailed`` when the socket closes first.
    public func next(_ type: String) async throws(ParleyError) -> JSONValue {
        var frames = self.frames
        while let frame = await frames.next(isolation: self) {
            if frame["type"]?.stringValue == type { return frame }
        }
        throw ParleyError(.connectionFailed, "the agent socket closed before a \"\(type)\" frame")
    }

    /// Sends a raw frame (for tests of bad input).
    public func send(_ frame: JSONValue) {
        commands.yield(frame.jsonString())
    }

    /// Takes the conversation of `userId` on `channelId`.
    public func join(channelId: String, userId: String) {
        send(["type": "join", "channelId": .string(channelId), "userId": .string(userId)])
    }

    /// Sends the user a message as the agent.
    public func say(_ payload: MessagePayload, channelId: String, userId: String) {
        send([
            "type": "message", "channelId": .string(channelId), "userId": .string(userId),
            "messagePayload": payload.jsonValue,
        ])
    }

    /// Shows the user that the agent is typing (`RESPONDING`) or stopped (`LISTENING`).
    public func typing(_ status: TypingStatus, channelId: String, userId: String) {
        send([
            "type": "typing", "channelId": .string(channelId), "userId": .string(userId),
            "status": .string(status.rawValue),
        ])
    }

    /// Gives the conversation back to the skill, with a text for the user from the skill's side (or the server's).
    public func handBack(channelId: String, userId: String, text: String? = nil) {
        var frame: JSONObject = ["type": "handBack", "channelId": .string(channelId), "userId": .string(userId)]
        if let text { frame["text"] = .string(text) }
        send(.object(frame))
    }

    /// Closes the socket.
    public func close() async {
        commands.finish()
        _ = await connection.result
    }
}

/// The scripted agent's copy of the queue, kept as the console page keeps its own (`docs/agents.md`, "The queue"):
/// the pages it got, in order, changed by each `queueChanged` frame. A conversation added beyond the pages it has is
/// left for the page that holds it.
struct QueueCopy {
    private var entries: [JSONValue] = []
    /// Whether the copy holds the whole queue (the last page had no `more`).
    private var complete = false
    private var version = 0
    private var total = 0

    /// A `queue` frame: the first page (no `after`) replaces the copy, a later one adds to it.
    mutating func apply(page frame: JSONValue) {
        let conversations = frame["conversations"]?.arrayValue ?? []
        if frame["after"] == nil { entries = [] }
        for entry in conversations {
            entries.removeAll { Self.sameConversation($0, entry) }
            entries.append(entry)
        }
        complete = frame["more"]?.boolValue != true
        version = frame["version"]?.intValue ?? version
        total = frame["total"]?.intValue ?? entries.count
    }

    /// A `queueChanged` frame.
    mutating func apply(changes frame: JSONValue) {
        for change in frame["changes"]?.arrayValue ?? [] {
            guard let entry = change["conversation"] else { continue }
            let wasHere = entries.contains { Self.sameConversation($0, entry) }
            entries.removeAll { Self.sameConversation($0, entry) }
            guard change["change"]?.stringValue != "removed" else { continue }
            let index = entries.firstIndex { Self.order(entry).lexicographicallyPrecedes(Self.order($0)) }
            if let index {
                entries.insert(entry, at: index)
            } else if complete || wasHere {
                entries.append(entry)
            }
        }
        version = frame["version"]?.intValue ?? version
        total = frame["total"]?.intValue ?? entries.count
    }

    /// The copy as a `queue` frame.
    var frame: JSONValue {
        [
            "type": "queue", "conversations": .array(entries), "version": .number(Double(version)),
            "total": .number(Double(total)), "more": .bool(!complete),
        ]
    }

    private static func sameConversation(_ a: JSONValue, _ b: JSONValue) -> Bool {
        a["channelId"] == b["channelId"] && a["userId"] == b["userId"]
    }

    /// The queue's order: the time of the hand-off (ISO 8601 texts of one format sort as times), channel, user.
    private static func order(_ entry: JSONValue) -> [String] {
        ["since", "channelId", "userId"].map { entry[$0]?.stringValue ?? "" }
    }
}
