import ParleyCore
import Testing

/// Sleeps on a clock and writes down who woke and when.
private actor WakeLog {
    private(set) var woken: [String] = []
    private(set) var wokenAt: [String: VirtualClock.Instant] = [:]

    func sleep(_ name: String, until offset: Duration, on clock: VirtualClock) async throws {
        try await clock.sleep(until: .init(offset: offset), tolerance: nil)
        woken.append(name)
        wokenAt[name] = clock.now
    }
}

/// A flag a task raises when it gets somewhere.
private actor Flag {
    private(set) var isRaised = false
    func raise() { isRaised = true }
}

@Suite("Virtual clock", .timeLimit(.minutes(1)))
struct VirtualClockTests {
    @Test func instantsAreOffsets() {
        let start = VirtualClock.Instant.zero
        let later = start.advanced(by: .seconds(5))
        #expect(later.offset == .seconds(5))
        #expect(start.duration(to: later) == .seconds(5))
        #expect(later.duration(to: start) == .seconds(-5))
        #expect(start < later)
        #expect(later == VirtualClock.Instant(offset: .milliseconds(5000)))
        let clock = VirtualClock()
        #expect(clock.now == .zero)
        #expect(clock.minimumResolution == .zero)
    }

    @Test func sleepersWakeOnlyWhenTheirDeadlineComes() async throws {
        let clock = VirtualClock()
        let log = WakeLog()
        let a = Task { try await log.sleep("a", until: .seconds(30), on: clock) }
        let b = Task { try await log.sleep("b", until: .seconds(10), on: clock) }
        let c = Task { try await log.sleep("c", until: .seconds(20), on: clock) }
        let d = Task { try await log.sleep("d", until: .seconds(20), on: clock) }
        await clock.waitForSleepers(4)
        #expect(clock.nextDeadline == .init(offset: .seconds(10)))

        await clock.advance(by: .seconds(9))
        #expect(clock.now == .init(offset: .seconds(9)))
        #expect(clock.sleeperCount == 4)
        #expect(clock.nextDeadline == .init(offset: .seconds(10)))

        await clock.advance(by: .seconds(11))  // to 20 s: b, c and d, all seeing the new time
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextDeadline == .init(offset: .seconds(30)))
        try await b.value
        try await c.value
        try await d.value
        #expect(Set(await log.woken) == ["b", "c", "d"])
        #expect(
            await log.wokenAt == [
                "b": .init(offset: .seconds(20)), "c": .init(offset: .seconds(20)), "d": .init(offset: .seconds(20)),
            ])

        await clock.advance(to: .init(offset: .seconds(29)))
        #expect(clock.sleeperCount == 1)
        await clock.advance(to: .init(offset: .seconds(31)))
        try await a.value
        #expect(await log.woken.last == "a")
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
        #expect(clock.now == .init(offset: .seconds(31)))
    }

    @Test func movingOneDeadlineAtATimeWakesSleepersInDeadlineOrder() async throws {
        let clock = VirtualClock()
        let log = WakeLog()
        var tasks: [String: Task<Void, any Error>] = [:]
        for seconds in [50, 10, 40, 20, 30] {
            tasks["\(seconds)"] = Task { try await log.sleep("\(seconds)", until: .seconds(seconds), on: clock) }
        }
        await clock.waitForSleepers(5)
        while let next = clock.nextDeadline {
            await clock.advance(to: next)
            try await tasks["\(next.offset.components.seconds)"]?.value
        }
        #expect(await log.woken == ["10", "20", "30", "40", "50"])
    }

    @Test func timeDoesNotGoBack() async {
        let clock = VirtualClock()
        await clock.advance(by: .seconds(10))
        await clock.advance(to: .init(offset: .seconds(3)))
        await clock.advance(by: .seconds(-5))
        #expect(clock.now == .init(offset: .seconds(10)))
    }

    @Test func aCancelledSleeperThrowsAndNoLongerCounts() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(10)), tolerance: nil) }
        let other = Task { try await clock.sleep(until: .init(offset: .seconds(20)), tolerance: nil) }
        await clock.waitForSleepers(2)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextDeadline == .init(offset: .seconds(20)))
        // Advancing past the cancelled deadline resumes nothing twice, and the other sleeper still wakes.
        await clock.advance(by: .seconds(20))
        try await other.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async {
        let clock = VirtualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(offset: .seconds(1)), tolerance: nil)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitForSleepersReturnsOnceEnoughTasksSleep() async throws {
        let clock = VirtualClock()
        await clock.waitForSleepers(0)  // nobody needed: at once
        let returned = Flag()
        let waiter = Task {
            await clock.waitForSleepers(2)
            let count = clock.sleeperCount
            await returned.raise()
            return count
        }
        let first = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        for _ in 0..<100 { await Task.yield() }
        #expect(await returned.isRaised == false)
        let second = Task { try await clock.sleep(for: .seconds(1)) }
        #expect(await waiter.value == 2)
        await clock.advance(by: .seconds(1))
        try await first.value
        try await second.value
    }

    @Test func waitingForSleepersEndsWhenTheWaiterIsCancelled() async {
        let clock = VirtualClock()
        let waiter = Task { await clock.waitForSleepers(1) }
        waiter.cancel()
        await waiter.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineThatHasPassedReturnsAtOnce() async throws {
        let clock = VirtualClock()
        await clock.advance(by: .seconds(10))
        try await clock.sleep(until: .init(offset: .seconds(5)), tolerance: nil)
        try await clock.sleep(until: clock.now, tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .init(offset: .seconds(10)))
    }

    @Test func sleepForCountsFromNow() async throws {
        let clock = VirtualClock()
        await clock.advance(by: .seconds(100))
        let sleeper = Task { try await clock.sleep(for: .seconds(3)) }
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == .init(offset: .seconds(103)))
        await clock.advance(by: .seconds(2))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func itWorksAsAnyClockOfDuration() async throws {
        let clock = VirtualClock()
        let any: any Clock<Duration> = clock
        let sleeper = Task { try await any.sleep(for: .milliseconds(250), tolerance: nil) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(250))
        try await sleeper.value
    }
}
