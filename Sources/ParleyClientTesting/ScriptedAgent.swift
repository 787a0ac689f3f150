public import Foundation
public import Logging
import NIOWebSocket
import WSClient
import WSCore

/// A live agent a test plays: it opens the agent console's socket of a Parley server (`docs/agents.md`), reads
/// what the server sends, and sends the agent's commands.
///
/// ```swift
/// let agent = try await ScriptedAgent.connect(to: server.url, key: "agent-key", agent: AgentSession(name: "Ava"))
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

    /// Opens the agent socket of the server at `serverURL` and sends the `auth` frame. Read ``next(_:)`` for the
    /// `welcome` (or the `error` of a refused key).
    public static func connect(
        to serverURL: URL, key: String, agent: AgentSession, logger: Logger = Logger(label: "parley.test.agent")
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
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    if case .text(let text) = message, let frame = try? JSONValue(parsing: text) {
                        frameSink.yield(frame)
                    }
                }
            }
        }
        let scripted = ScriptedAgent(frames: frames, commands: commands, connection: connection)
        await scripted.send(["type": "auth", "key": .string(key), "agent": agent.jsonValue])
        return scripted
    }

    /// The next frame of `type` from the server (`welcome`, `queue`, `joined`, `message`, `typing`, `ended`,
    /// `error`, `pong`); frames of other types before it are skipped.
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
