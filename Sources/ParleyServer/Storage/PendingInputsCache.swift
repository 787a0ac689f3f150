import NIOConcurrencyHelpers

/// The pending inputs of recently active conversations, with their conversation rows, kept in step with the
/// database so that the hub's read before each answer needs no query.
///
/// Only what has been committed gets in, in commit order (``GroupCommit``'s `committed` calls): an entry, once there,
/// is exactly what a read of the database would give. An entry starts from a read made inside a write transaction
/// (nothing can commit between the read and its entry) or from the receive that created its conversation; every
/// later commit touching the conversation updates it. A conversation without an entry is read from the database.
/// Entries without pending inputs are dropped when there are more than `capacity`: the next read fills them again.
///
/// An entry holds at most `inputLimit` inputs (``PendingInputs/limit``, what a read of the database gives): a read
/// that may have left some out starts none, and an input that would go past the limit drops the entry, so that a
/// user who sends faster than the skill answers costs the cache no more than a page, and the conversation is read
/// from the database until it has fewer inputs waiting.
final class PendingInputsCache: Sendable {
    private let capacity: Int
    private let inputLimit: Int
    private let entries = NIOLockedValueBox<[ConversationKey: PendingInputs]>([:])

    init(capacity: Int, inputLimit: Int = PendingInputs.limit) {
        self.capacity = capacity
        self.inputLimit = inputLimit
    }

    /// How many inputs the entries hold, all together.
    var inputCount: Int {
        entries.withLockedValue { $0.values.reduce(0) { $0 + $1.inputs.count } }
    }

    /// The conversation's entry, if it has one.
    func pending(for key: ConversationKey) -> PendingInputs? {
        entries.withLockedValue { $0[key] }
    }

    /// A read of the database, made in a write transaction, has committed: it starts the entry unless one exists
    /// (which, being kept in step, is the same or newer).
    func read(_ pending: PendingInputs) {
        // A full page may have left inputs out: the entry would not be what the database holds.
        guard pending.inputs.count < inputLimit else { return }
        entries.withLockedValue { entries in
            if entries[pending.conversation.key] == nil { insert(pending, into: &entries) }
        }
    }

    /// An input of `key` was stored; `created` is the conversation when the same receive created it (so nothing
    /// else is pending).
    func received(_ input: StoredMessage, for key: ConversationKey, created: StoredConversation?) {
        entries.withLockedValue { entries in
            if let created {
                insert(PendingInputs(conversation: created, inputs: [input]), into: &entries)
            } else if var entry = entries[key] {
                guard entry.inputs.count < inputLimit else {
                    entries[key] = nil  // read from the database again, a page at a time
                    return
                }
                entry.conversation.lastSequence = input.sequence
                entry.inputs.append(input)
                entries[key] = entry
            }
        }
    }

    /// An answer to input `sequence` (nil: messages the server sent on its own) was stored; the conversation is as it
    /// is after.
    func answered(_ sequence: Int?, in conversation: StoredConversation) {
        entries.withLockedValue { entries in
            guard var entry = entries[conversation.key] else { return }
            entry.conversation = conversation
            entry.inputs.removeAll { $0.sequence == sequence }
            entries[conversation.key] = entry
        }
    }

    /// The conversation changed in a way the entry does not follow (its agents' hand-off): the next read fills it
    /// again.
    func forget(_ key: ConversationKey) {
        entries.withLockedValue { _ = $0.removeValue(forKey: key) }
    }

    /// Adds an entry; when full, drops those without pending inputs first, and keeps none if all have some.
    private func insert(_ pending: PendingInputs, into entries: inout [ConversationKey: PendingInputs]) {
        if entries.count >= capacity {
            entries = entries.filter { !$0.value.inputs.isEmpty }
            guard entries.count < capacity else { return }
        }
        entries[pending.conversation.key] = pending
    }
}
