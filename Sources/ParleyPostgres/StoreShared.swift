import Foundation
import Logging
import ParleyServer
import PostgresNIO
import Synchronization

/// What a ``PostgresConversationStore`` shares with the cluster, the session bindings and the attachments on it: its
/// count of round trips to the database (``PostgresConversationStore/roundTrips``), and the hints its statements send
/// to the cluster with their commits (enabled by ``PostgresCluster``).
final class StoreShared: Sendable {
    private let roundTrips = Atomic<Int>(0)
    private let answerHints = Atomic<Bool>(false)
    /// The node's name in the hub's hints (``ClusterEvent/userMessage(_:sequence:node:)``), once the cluster has seen
    /// it, and the user messages whose hint a receive sent, until the hub announces them (the cluster leaves those
    /// out).
    private let userMessageHints = Mutex<(node: String?, sent: Set<UserMessageHint>)>((nil, []))

    /// The store's own mark in the hints of its answers: the node that stored them delivers them to its own sockets,
    /// and its cluster does not pass its own hints of them back to it (they would only make it read them again).
    let origin = UUID().uuidString.lowercased()

    /// The round trips made so far.
    var roundTripCount: Int { roundTrips.load(ordering: .relaxed) }

    /// One more round trip.
    func countRoundTrip() {
        roundTrips.add(1, ordering: .relaxed)
    }

    /// Whether answers notify the cluster themselves.
    var answersSendHints: Bool { answerHints.load(ordering: .relaxed) }

    /// From now on, answers notify the cluster themselves (``PostgresCluster`` leaves those hints out).
    func sendHintsWithAnswers() {
        answerHints.store(true, ordering: .relaxed)
    }

    /// A user message's hint, sent by a receive.
    struct UserMessageHint: Hashable {
        var key: ConversationKey
        var sequence: Int
    }

    /// The start of the hint of a user message of `key` (its sequence number and `}}` follow), when the store sends
    /// it with the receive: the cluster runs and has told the node's name, and the hint fits in a notification.
    func userMessageHintPrefix(for key: ConversationKey) -> String? {
        guard let node = userMessageHints.withLock({ $0.node }) else { return nil }
        let prefix =
            #"{"userMessage":{"channelId":"# + JSONValue.string(key.channelId).jsonString() + #","userId":"#
            + JSONValue.string(key.userId).jsonString() + #","node":"# + JSONValue.string(node).jsonString()
            + #","sequence":"#
        return prefix.utf8.count < 7_850 ? prefix : nil
    }

    /// A receive sent the hint of user message `sequence` of `key`.
    func sentUserMessageHint(_ key: ConversationKey, sequence: Int) {
        _ = userMessageHints.withLock { $0.sent.insert(UserMessageHint(key: key, sequence: sequence)) }
    }

    /// Whether the hub's announcement of a user message was sent already by its receive (and so is left out); the
    /// first announcement tells the node's name, and from then on receives send the hint.
    func userMessageHintWasSent(_ key: ConversationKey, sequence: Int, node: String) -> Bool {
        userMessageHints.withLock { hints in
            if hints.node == nil { hints.node = node }
            return hints.sent.remove(UserMessageHint(key: key, sequence: sequence)) != nil
        }
    }
}

extension PostgresConnection {
    /// `query(_:logger:)`, counted in the store's ``PostgresConversationStore/roundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger, by shared: StoreShared) async throws -> PostgresRowSequence {
        shared.countRoundTrip()
        return try await self.query(query, logger: logger)
    }
}

extension PostgresClient {
    /// `query(_:logger:)` on a connection of the pool, counted in the store's ``PostgresConversationStore/roundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger, by shared: StoreShared) async throws -> PostgresRowSequence {
        shared.countRoundTrip()
        return try await self.query(query, logger: logger)
    }
}
