import Foundation
import ParleyCore
import ParleyServer

/// How the raw echo stores each frame before it echoes it: the floors under Parley's numbers.
public protocol EchoStorage: Sendable {
    /// Stores `text`, a user's frame, and its echo in the conversation of `key`.
    func store(frame text: String, for key: ConversationKey) async throws
}

/// The least a server must do per message to keep Parley's guarantee with Parley's store: the frame decoded into a
/// typed user message, stored as pending, then its echo stored with the input marked answered (two transactions,
/// ``SQLiteConversationStore``), before the echo is written. No hub, no skill, no routing, no `sequence`: the floor
/// under Parley's own round trip and throughput (docs/performance.md, "The floor").
public struct DurableEcho: EchoStorage {
    let store: SQLiteConversationStore

    /// A store in the SQLite file at `url`, checkpointed four times a second as the server's is (the server runs
    /// ``SQLiteConversationStore/checkpointer(logger:)`` in its service group; here it runs as long as the process).
    public init(url: URL) throws {
        store = try SQLiteConversationStore(url: url)
        let checkpointer = store.checkpointer()
        Task { try? await checkpointer.run() }
    }

    /// Stores `input` and its echo for `key`, as the server stores a message and the echo skill's answer.
    public func store(_ input: UserMessage, for key: ConversationKey) async throws {
        _ = try await store.receive(.message(input), for: key, at: Date())
        guard let pending = try await store.pending(for: key), let first = pending.inputs.first else {
            throw ParleyError(.internalError, "the stored input is not pending")
        }
        let reply = SkillMessage(
            payload: input.payload, source: .bot, userId: key.userId, msgId: UUID.random().uuidString.lowercased(),
            endOfTurn: true)
        _ = try await store.answer(
            first.sequence, with: [reply], state: pending.conversation.state, in: pending.conversation, at: Date())
    }

    /// Decodes a text frame and stores it with its echo.
    public func store(frame text: String, for key: ConversationKey) async throws {
        try await store(UserMessage(decoding: text), for: key)
    }
}
