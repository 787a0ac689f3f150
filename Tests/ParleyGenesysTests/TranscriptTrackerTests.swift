import ParleyGenesys
import Testing

@Suite("Transcript tracker")
struct TranscriptTrackerTests {
    static func entry(_ position: Int?, _ text: String = "") -> TranscriptEntry {
        TranscriptEntry(kind: .text, nickname: "A", text: text, partyID: "1", partyType: .agent, position: position)
    }

    @Test func releasesInOrderAndDropsRepeats() {
        var tracker = TranscriptTracker()
        #expect(tracker.accept([Self.entry(1), Self.entry(2)]).map(\.position) == [1, 2])
        #expect(tracker.accept([Self.entry(2), Self.entry(1)]).isEmpty)
        #expect(tracker.accept([Self.entry(4)]).isEmpty)
        #expect(tracker.hasGap)
        #expect(tracker.accept([Self.entry(3), Self.entry(4)]).map(\.position) == [3, 4])
        #expect(!tracker.hasGap)
        #expect(tracker.highWater == 4)
    }

    @Test func flushGivesUpOnGaps() {
        var tracker = TranscriptTracker(highWater: 2)
        #expect(tracker.accept([Self.entry(6), Self.entry(5)]).isEmpty)
        #expect(tracker.flush().map(\.position) == [5, 6])
        #expect(tracker.highWater == 6)
        #expect(tracker.accept([Self.entry(6)]).isEmpty)
    }

    @Test func entriesWithoutPositionPassThrough() {
        var tracker = TranscriptTracker()
        #expect(tracker.accept([Self.entry(nil, "a"), Self.entry(nil, "a")]).count == 2)
    }

    @Test func theFirstWaitingLineKeepsItsPlace() {
        var tracker = TranscriptTracker()
        _ = tracker.accept([Self.entry(2, "first")])
        _ = tracker.accept([Self.entry(2, "second copy")])
        #expect(tracker.accept([Self.entry(1)]).map(\.text) == ["", "first"])
    }
}
