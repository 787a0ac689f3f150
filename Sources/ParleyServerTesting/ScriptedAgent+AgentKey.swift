public import Foundation
public import Logging
public import ParleyClientTesting
import ParleyServer

extension ScriptedAgent {
    /// Opens the agent socket of the server at `serverURL` as the agent named `agent.name`, with a token signed by
    /// the server's agent key `key`, as `parley token --agent NAME` mints one (``AgentToken``).
    ///
    /// ```swift
    /// let agent = try await ScriptedAgent.connect(to: server.url, key: "agent-key", agent: AgentSession(name: "Ava"))
    /// ```
    /// - Parameters:
    ///   - serverURL: The server's base URL.
    ///   - key: The server's agent key (``ServerConfiguration/agentKey``); a wrong one gets the token refused.
    ///   - agent: The agent: its name goes into the token, the rest (avatar, colours) into the sign-in frame.
    ///   - lifetime: How long the token lives, in seconds.
    ///   - logger: Where the socket logs.
    public static func connect(
        to serverURL: URL, key: String, agent: AgentSession, lifetime: TimeInterval = 3600,
        logger: Logger = Logger(label: "parley.test.agent")
    ) async throws -> ScriptedAgent {
        let token = AgentToken.mint(agent: agent.name ?? "", key: key, lifetime: lifetime)
        return try await connect(to: serverURL, token: token, agent: agent, logger: logger)
    }
}
