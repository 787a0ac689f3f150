import Foundation
import Logging
import ParleyServer
import PostgresNIO
import Synchronization

/// What a ``PostgresConversationStore`` shares with the cluster, the session bindings and the attachments on it: its
/// count of round trips to the database (``PostgresConversationStore/roundTrips``), the hints its statements send
/// to the cluster with their commits (enabled by ``PostgresCluster``), and the turns the cluster holds, with what the
/// receives of those conversations found (``TurnHolds``).
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

    /// The conversations whose turns the node's cluster holds, and the receives' snapshots of them.
    private let turns = Mutex(TurnHolds())

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

extension StoreShared {
    /// The token of the node's hold on the conversation's turns; nil when the node does not hold them.
    func turnToken(for key: ConversationKey) -> UInt64? {
        turns.withLock { $0.token(for: key) }
    }

    /// The cluster took the conversation's turns (a round trip: another node may have had them).
    func tookTurns(of key: ConversationKey) {
        turns.withLock { $0.took(key) }
    }

    /// The cluster let go of the conversation's turns.
    func releasedTurns(of key: ConversationKey) {
        turns.withLock { $0.released(key) }
    }

    /// The cluster's connection closed: its locks are gone.
    func releasedAllTurns() {
        turns.withLock { $0 = TurnHolds(next: $0.next) }
    }

    /// This node changed the conversation (an answer): what a receive found of it before is out of date.
    func changed(_ key: ConversationKey) {
        turns.withLock { $0.changed(key) }
    }

    /// This node changed conversations beside their turns (an agent's step, a removal).
    func changedAll() {
        turns.withLock { $0.changedAll() }
    }

    /// A receive's snapshot: its input, alone pending, with the conversation as the receive's statement left it,
    /// kept while the hold's token is still `token`.
    func remember(_ pending: PendingInputs, token: UInt64) {
        turns.withLock { $0.remember(pending, token: token) }
    }

    /// The receive's snapshot of the conversation, once, when the node held its turns throughout since the receive.
    func takeSnapshot(of key: ConversationKey) -> PendingInputs? {
        turns.withLock { $0.takeSnapshot(of: key) }
    }
}

/// The node's holds on conversations' turns and what its receives found of them: the turn after a receive needs no
/// read of the pending inputs when nothing but receives can have changed the conversation since (docs/performance.md,
/// "Third round").
///
/// Each hold has a token: a new one when the cluster takes the conversation's lock with a round trip, and again after
/// every change this node makes to the conversation; the hold goes when the lock is let go or the cluster's connection
/// closes. A receive reads the token before its statement. When the statement found no other input pending and
/// nothing changed the conversation between its snapshot and its numbering, and the token is the same when the turn
/// starts, the node held the turns throughout: no node answered meanwhile, and this one changed nothing. The
/// conversation as the receive's statement returned it, with that input as the oldest pending, is what a read would
/// give the turn (a read would add the inputs stored after it, which the turn comes to later).
///
/// Bounded by the locks the node holds: a snapshot goes with its hold, and with every new token of it.
struct TurnHolds {
    private var tokens: [ConversationKey: UInt64] = [:]
    /// Kept only under the token they were taken with: every change of a token drops its snapshot.
    private var snapshots: [ConversationKey: PendingInputs] = [:]
    /// The next token.
    private(set) var next: UInt64

    init(next: UInt64 = 1) {
        self.next = next
    }

    func token(for key: ConversationKey) -> UInt64? { tokens[key] }

    mutating func took(_ key: ConversationKey) {
        tokens[key] = next
        next += 1
        snapshots[key] = nil
    }

    mutating func released(_ key: ConversationKey) {
        tokens[key] = nil
        snapshots[key] = nil
    }

    mutating func changed(_ key: ConversationKey) {
        snapshots[key] = nil
        guard tokens[key] != nil else { return }
        tokens[key] = next
        next += 1
    }

    mutating func changedAll() {
        snapshots = [:]
        for key in tokens.keys {
            tokens[key] = next
            next += 1
        }
    }

    mutating func remember(_ pending: PendingInputs, token: UInt64) {
        let key = pending.conversation.key
        guard tokens[key] == token else { return }
        snapshots[key] = pending
    }

    mutating func takeSnapshot(of key: ConversationKey) -> PendingInputs? {
        snapshots.removeValue(forKey: key)
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
