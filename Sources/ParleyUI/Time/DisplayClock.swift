public import Foundation

/// Where a chat screen reads the time: a monotonic clock to wait on (when a relative timestamp changes next) and
/// the date to compare message dates with. Like the server's `ServerClock`, the two are apart in
/// ``system`` and tied together for tests and previews.
///
/// ```swift
/// let clock = VirtualClock()
/// let time = DisplayClock(clock: clock, startingAt: Date(timeIntervalSince1970: 1_700_000_000))
/// await clock.advance(by: .seconds(90))        // time.now() is 90 s after the start date
/// ```
public struct DisplayClock: Sendable {
    /// Waits for a duration (on the monotonic clock).
    public let sleep: @Sendable (Duration) async throws -> Void
    /// The current date.
    public let now: @Sendable () -> Date
    /// Waits until a date: a wait that starts late still ends when that date comes (at once when it has passed).
    public let sleepUntil: @Sendable (Date) async throws -> Void

    /// A clock from its two parts; waiting until a date sleeps for the time from ``now`` to it.
    public init(sleep: @escaping @Sendable (Duration) async throws -> Void, now: @escaping @Sendable () -> Date) {
        self.sleep = sleep
        self.now = now
        sleepUntil = { date in
            let seconds = date.timeIntervalSince(now())
            guard seconds > 0 else { return }
            try await sleep(.milliseconds(Int64((min(seconds, 1e9) * 1000).rounded(.up))))
        }
    }

    private init(
        sleep: @escaping @Sendable (Duration) async throws -> Void, now: @escaping @Sendable () -> Date,
        sleepUntil: @escaping @Sendable (Date) async throws -> Void
    ) {
        self.sleep = sleep
        self.now = now
        self.sleepUntil = sleepUntil
    }

    /// `ContinuousClock` to wait, `Date()` for dates.
    public static var system: DisplayClock {
        DisplayClock(sleep: { try await ContinuousClock().sleep(for: $0) }, now: { Date() })
    }

    /// A clock whose dates move with `clock`: `start` plus the time `clock` moved since this call. With a
    /// ``VirtualClock``, advancing it moves the dates and wakes the waits together.
    public init<C: Clock<Duration>>(clock: C, startingAt start: Date) where C: Sendable, C.Instant: Sendable {
        let origin = clock.now
        self.init(
            sleep: { try await clock.sleep(for: $0) },
            now: {
                let elapsed = origin.duration(to: clock.now)
                let seconds =
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return start.addingTimeInterval(seconds)
            },
            sleepUntil: { date in
                let seconds = min(max(date.timeIntervalSince(start), 0), 1e9)
                let deadline = origin.advanced(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
                try await clock.sleep(until: deadline, tolerance: nil)
            })
    }
}
