/// Puts transcript lines in order and drops repeats: the same line can arrive over Comet and in a `refresh`
/// answer, and again after a re-handshake.
///
/// Lines are released in position order. A line beyond the next expected position waits until the gap is
/// filled or ``flush()`` releases what waits (after a `refresh`, so a server whose positions skip numbers
/// cannot stall the chat). Lines at or below the high-water mark are repeats. Lines without a position are
/// released as they come.
public struct TranscriptTracker: Sendable, Hashable {
    /// The highest position released.
    public private(set) var highWater: Int
    /// Lines waiting for a gap before them to fill, by position.
    public private(set) var waiting: [Int: TranscriptEntry] = [:]

    /// A tracker that has seen everything up to `highWater`.
    public init(highWater: Int = 0) {
        self.highWater = highWater
    }

    /// Takes lines; returns those that can be shown now, in order.
    public mutating func accept(_ entries: [TranscriptEntry]) -> [TranscriptEntry] {
        var released: [TranscriptEntry] = []
        for entry in entries {
            guard let position = entry.position else {
                released.append(entry)
                continue
            }
            if position > highWater { waiting[position] = waiting[position] ?? entry }
        }
        while let next = waiting.removeValue(forKey: highWater + 1) {
            highWater += 1
            released.append(next)
        }
        return released
    }

    /// Whether lines wait for a gap.
    public var hasGap: Bool { !waiting.isEmpty }

    /// Releases every waiting line, in order, skipping the gaps.
    public mutating func flush() -> [TranscriptEntry] {
        let released = waiting.sorted { $0.key < $1.key }.map(\.value)
        if let last = released.last?.position { highWater = max(highWater, last) }
        waiting.removeAll()
        return released
    }
}
