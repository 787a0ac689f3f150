public import Foundation

/// The server's one source of time (``ServerConfiguration/clock``): a monotonic `Clock` for everything that waits
/// or measures a duration, and a wall clock for the dates the server stores and sends.
///
/// - The monotonic clock (``clock``, read through ``elapsed`` and ``sleep(for:)``) times the authentication and
///   refusal timeouts of the sockets and the windows of the failed-sign-in and upload rate limits. It never goes
///   back, whatever happens to the computer's date.
/// - The wall clock (``now()``) dates what is kept and shown: a conversation's `updatedAt` (and so the channel's
///   session expiry), the `createdOn` of the server's messages, the dates of session secrets, a skill's
///   `SkillContext/now`, and the time a channel token is checked against.
///
/// How the two relate: a monotonic clock has no calendar date, so a wall clock is either read from the system or
/// derived from an anchor. ``system`` reads both from the operating system (`ContinuousClock` and `Date()`) and
/// does not tie them together: an anchored date would drift from the corrected system time over the months a
/// server runs. ``init(clock:startingAt:)`` anchors the date instead: `now()` is the start date plus the time the
/// clock has moved since, so that moving a `VirtualClock` moves the dates with it, and a test can run a minute's
/// rate window or a session's expiry without waiting:
///
/// ```swift
/// let clock = VirtualClock()
/// var configuration = ServerConfiguration(dataDirectory: folder)
/// configuration.clock = ServerClock(clock: clock, startingAt: Date(timeIntervalSince1970: 1_700_000_000))
/// // … five failed sign-ins, then:
/// await clock.advance(by: .seconds(60))  // the window has passed, and every date is a minute later
/// ```
///
/// Timers that live on a connection's event loop are not on this clock: the request-head timeout, Hummingbird's
/// idle timeout and WebSocket pings, and the write deadline of a socket's outbox are scheduled with swift-nio,
/// whose event loop is their clock. So is the drain of a graceful stop (``ServerConfiguration/drainTimeout``), which
/// waits in real time for connections to close.
public struct ServerClock: Sendable {
    /// The clock the server waits on and measures durations with.
    public let clock: any Clock<Duration>
    private let elapsedTime: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let deadlineSleeper: @Sendable (Duration) async throws -> Void
    private let wallClock: @Sendable () -> Date

    /// A server clock that waits on `clock` and reads dates from `wallClock`, the two independent.
    /// - Parameters:
    ///   - clock: The monotonic clock for timeouts and rate windows.
    ///   - wallClock: The date now.
    public init(clock: some Clock<Duration>, wallClock: @escaping @Sendable () -> Date) {
        let start = clock.now
        self.clock = clock
        self.elapsedTime = { start.duration(to: clock.now) }
        self.sleeper = { duration in try await clock.sleep(for: duration) }
        self.deadlineSleeper = { elapsed in try await clock.sleep(until: start.advanced(by: elapsed), tolerance: nil) }
        self.wallClock = wallClock
    }

    /// A server clock whose dates follow `clock`: ``now()`` is `startDate` plus the time `clock` has moved since
    /// this call. For simulations and tests, with ParleyCore's `VirtualClock`.
    /// - Parameters:
    ///   - clock: The monotonic clock for timeouts and rate windows, and for the dates.
    ///   - startDate: The date at the moment of this call.
    public init(clock: some Clock<Duration>, startingAt startDate: Date) {
        let start = clock.now
        self.init(clock: clock) {
            let elapsed = start.duration(to: clock.now).components
            return startDate.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
        }
    }

    /// The operating system's clocks: `ContinuousClock` for durations and `Date()` for dates.
    public static let system = ServerClock(clock: ContinuousClock(), wallClock: Date.init)

    /// The date now, for what is stored or sent.
    public func now() -> Date {
        wallClock()
    }

    /// The time ``clock`` has moved since this server clock was made: a monotonic reading for measuring durations
    /// (subtract two readings), never a date.
    public var elapsed: Duration {
        elapsedTime()
    }

    /// Waits `duration` on ``clock``.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }

    /// Waits until ``elapsed`` reads `deadline` or more; returns at once when it already does. Unlike reading
    /// ``elapsed`` and sleeping for the difference, a clock that moves between the two cannot make it wake late.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Duration) async throws {
        try await deadlineSleeper(deadline)
    }
}
