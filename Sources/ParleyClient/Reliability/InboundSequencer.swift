/// Puts the server's messages in order by their `sequence` numbers (Parley's extension): each is surfaced once,
/// in order, whatever order and however often they arrive. A message after a gap waits until the gap is filled
/// (by a late frame or a replay).
struct InboundSequencer: Sendable {
    /// The sequence number of the last message surfaced.
    private(set) var lastSequence: Int
    private var waiting: [Int: SkillMessage] = [:]

    init(lastSequence: Int) {
        self.lastSequence = lastSequence
    }

    /// The messages that can be surfaced now, in order, after `message` arrived (none for a repeat).
    mutating func accept(_ message: SkillMessage, sequence: Int) -> [SkillMessage] {
        guard sequence > lastSequence, waiting[sequence] == nil else { return [] }
        waiting[sequence] = message
        var ready: [SkillMessage] = []
        while let next = waiting.removeValue(forKey: lastSequence + 1) {
            ready.append(next)
            lastSequence += 1
        }
        return ready
    }

    /// Whether a message is waiting for an earlier one.
    var hasGap: Bool { !waiting.isEmpty }
}
