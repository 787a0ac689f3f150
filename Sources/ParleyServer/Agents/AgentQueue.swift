import Foundation

/// A node's copy of the live agents' queue, for its agent consoles (`docs/agents.md`, "The queue"): kept in order,
/// changed one conversation at a time, and read a page at a time.
///
/// The store holds the queue; this copy follows it (``set(_:to:)`` when one conversation changed,
/// ``replace(with:)`` after a full read) and says what changed, so that each console gets the change, never the whole
/// queue again. Each batch of changes has the next ``version``. A value: tested without sockets or a store.
struct AgentQueue: Sendable {
    /// A conversation of the queue, in the order the queue is shown: oldest hand-off first, then by channel and user.
    struct Entry: Sendable, Hashable {
        var key: ConversationKey
        var since: Date
        /// The agent who has it; nil while it waits.
        var agent: AgentSession?

        init(key: ConversationKey, since: Date, agent: AgentSession? = nil) {
            self.key = key
            self.since = since
            self.agent = agent
        }

        init(_ queued: QueuedConversation) {
            self.init(key: queued.key, since: queued.handOff.since, agent: queued.handOff.agent)
        }

        /// Whether the entry comes before `other` in the queue.
        func precedes(_ other: Position) -> Bool {
            (since, key.channelId, key.userId) < (other.since, other.key.channelId, other.key.userId)
        }

        var position: Position { Position(key: key, since: since) }

        /// The entry on the agent socket: `{"channelId","userId","since","agent"?}`.
        var jsonValue: JSONValue {
            var item: JSONObject = [
                "channelId": .string(key.channelId), "userId": .string(key.userId),
                "since": .string(since.formatted(.iso8601WithMilliseconds)),
            ]
            if let agent { item["agent"] = agent.jsonValue }
            return .object(item)
        }
    }

    /// Where an entry is (or was) in the queue's order: what a console sends to ask for the page after it.
    struct Position: Sendable, Hashable {
        var key: ConversationKey
        var since: Date
    }

    /// One change of the queue.
    enum Change: Sendable, Hashable {
        /// A conversation joined the queue.
        case added(Entry)
        /// A conversation of the queue changed hands (taken by an agent, or back to waiting).
        case updated(Entry)
        /// A conversation left the queue (handed back or ended).
        case removed(Entry)

        /// `{"change":"added"|"updated"|"removed","conversation":{…}}`; a removed conversation is given by
        /// `channelId`, `userId` and `since`.
        var jsonValue: JSONValue {
            switch self {
            case .added(let entry): ["change": "added", "conversation": entry.jsonValue]
            case .updated(let entry): ["change": "updated", "conversation": entry.jsonValue]
            case .removed(let entry):
                ["change": "removed", "conversation": Entry(key: entry.key, since: entry.since).jsonValue]
            }
        }
    }

    /// The entries, in order.
    private(set) var entries: [Entry] = []
    /// The entries by conversation, to find one without a scan.
    private var byKey: [ConversationKey: Entry] = [:]
    /// The number of batches of changes so far; the first full read is version 0.
    private(set) var version = 0

    /// A copy holding `queue` (any order), at version 0.
    init(_ queue: [QueuedConversation] = []) {
        for entry in queue.map(Entry.init) { byKey[entry.key] = entry }
        entries = byKey.values.sorted { $0.precedes($1.position) }
    }

    /// The number of conversations in the queue.
    var count: Int { entries.count }

    /// The conversation `key` is now `handOff` (nil: out of the queue). Returns what changed, empty when nothing did;
    /// the version moves on when something did.
    mutating func set(_ key: ConversationKey, to handOff: AgentHandOff?) -> [Change] {
        let new = handOff.map { Entry(key: key, since: $0.since, agent: $0.agent) }
        let changes = apply(key, old: byKey[key], new: new)
        if !changes.isEmpty { version += 1 }
        return changes
    }

    /// The queue is now `queue` (a full read of the store). Returns what changed, as one batch.
    mutating func replace(with queue: [QueuedConversation]) -> [Change] {
        var fresh: [ConversationKey: Entry] = [:]
        for entry in queue.map(Entry.init) { fresh[entry.key] = entry }
        var changes: [Change] = []
        for old in entries where fresh[old.key] == nil {
            changes += apply(old.key, old: old, new: nil)
        }
        for new in fresh.values.sorted(by: { $0.precedes($1.position) }) {
            changes += apply(new.key, old: byKey[new.key], new: new)
        }
        if !changes.isEmpty { version += 1 }
        return changes
    }

    /// Up to `limit` entries after `position` (from the start when nil), and whether more follow them.
    func page(after position: Position?, limit: Int) -> (entries: ArraySlice<Entry>, more: Bool) {
        var start = 0
        if let position {
            // The entry itself when the queue still has it (its time is exact here), else where it would be.
            let exact = byKey[position.key].map(\.position) ?? position
            start = index(of: exact)
            if start < entries.count, entries[start].key == exact.key { start += 1 }
        }
        let end = min(entries.count, start + max(0, limit))
        return (entries[start..<end], end < entries.count)
    }

    private mutating func apply(_ key: ConversationKey, old: Entry?, new: Entry?) -> [Change] {
        switch (old, new) {
        case (nil, nil):
            return []
        case (let old?, nil):
            remove(old)
            return [.removed(old)]
        case (nil, let new?):
            insert(new)
            return [.added(new)]
        case (let old?, let new?):
            guard old != new else { return [] }
            let index = index(of: old.position)
            if old.since == new.since, index < entries.count, entries[index].key == key {
                entries[index] = new
                byKey[key] = new
                return [.updated(new)]
            }
            // Handed over again with another time: it moves, which a console sees as leaving and joining.
            remove(old)
            insert(new)
            return [.removed(old), .added(new)]
        }
    }

    private mutating func insert(_ entry: Entry) {
        entries.insert(entry, at: index(of: entry.position))
        byKey[entry.key] = entry
    }

    private mutating func remove(_ entry: Entry) {
        let index = index(of: entry.position)
        if index < entries.count, entries[index].key == entry.key {
            entries.remove(at: index)
        } else {
            entries.removeAll { $0.key == entry.key }
        }
        byKey[entry.key] = nil
    }

    /// The first index whose entry does not precede `position` (binary search).
    private func index(of position: Position) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].precedes(position) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// What ``ChatHub`` keeps for its agent consoles' queue: its copy of the queue while a console is open here, and
/// what that copy has yet to catch up with.
struct AgentQueueFeed: Sendable {
    /// The entries of a first page, and of a page asked for without a `limit`.
    static let pageSize = 50
    /// The most entries a console may ask for in one page.
    static let maxPageSize = 500

    /// The copy; nil until read (and again once no console is open here).
    var queue: AgentQueue?
    /// Conversations whose place in the queue changed since the copy was made.
    var changedKeys: Set<ConversationKey> = []
    /// Whether the copy must be read again whole.
    var reloadAll = false
    /// Whether a refresh is running (only one at a time).
    var refreshing = false
    /// Consoles that signed in and get the first page once the copy is up to date.
    var awaitingFirstPage: Set<UUID> = []
}
