import Foundation

/// A clock whose time moves only when a test or a simulation says so: inject it where code sleeps (a chat client's
/// heartbeat and reconnect delays, a voice flow's no-input timeouts), wait until the code is parked, then move time
/// forward.
///
/// ```swift
/// let clock = VirtualClock()
/// let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
/// try await client.initialize()
/// await clock.waitForSleepers(1)          // the heartbeat task sleeps
/// await clock.advance(by: .seconds(30))   // …and wakes up to send its ping
/// ```
///
/// Time starts at ``Instant/offset`` zero and never goes back. A sleeper wakes when ``advance(by:)`` or
/// ``advance(to:)`` moves `now` to or past its deadline. One `advance` resumes the sleepers it wakes in deadline
/// order, those with the same deadline in the order they went to sleep; the woken tasks then run concurrently, in
/// whatever order the scheduler picks (even on one actor the runtime does not promise to run them in that order).
/// When the order matters, move one deadline at a time with `advance(to: clock.nextDeadline!)` and let each woken
/// task finish first. Time jumps: a task woken by `advance` sees the new ``now``.
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: how far it is from the clock's start.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock started.
        public var offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant the clock starts at.
        public static let zero = Instant(offset: .zero)

        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, such as `30.0 seconds`.
        public var description: String { "\(offset)" }
    }

    /// One call of `sleep(until:)` or `waitForSleepers(_:)`: registered before it suspends, so that cancellation
    /// arriving before the continuation exists is not lost.
    private enum Registration: Sendable {
        /// The task is about to suspend.
        case pending
        /// The task was cancelled before it suspended.
        case cancelled
        /// A sleeping task and its deadline.
        case sleeping(Instant, CheckedContinuation<Void, any Error>)
        /// A task waiting for `count` sleepers.
        case waiting(count: Int, CheckedContinuation<Void, Never>)
    }

    private struct State: Sendable {
        var now = Instant.zero
        var nextID: UInt64 = 0
        /// Every registration by id; ids increase, so they also order sleepers with the same deadline.
        var registrations: [UInt64: Registration] = [:]

        mutating func makeID() -> UInt64 {
            nextID += 1
            registrations[nextID] = .pending
            return nextID
        }

        var sleeperCount: Int {
            registrations.values.reduce(0) { count, registration in
                if case .sleeping = registration { count + 1 } else { count }
            }
        }

        /// Removes and returns the `waitForSleepers` calls the current number of sleepers satisfies.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let sleepers = sleeperCount
            var satisfied: [(UInt64, CheckedContinuation<Void, Never>)] = []
            for (id, registration) in registrations {
                if case .waiting(let count, let continuation) = registration, count <= sleepers {
                    satisfied.append((id, continuation))
                }
            }
            for (id, _) in satisfied { registrations[id] = nil }
            return satisfied.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private let state = LockedState(State())

    /// A clock at ``Instant/zero`` with no sleepers.
    public init() {}

    /// The current virtual time.
    public var now: Instant {
        state.withLockedValue { $0.now }
    }

    /// Zero: virtual time has no granularity.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int {
        state.withLockedValue { $0.sleeperCount }
    }

    /// The deadline of the sleeper that wakes first; `nil` when no task sleeps.
    public var nextDeadline: Instant? {
        state.withLockedValue { state in
            state.registrations.values.compactMap { registration -> Instant? in
                if case .sleeping(let deadline, _) = registration { deadline } else { nil }
            }.min()
        }
    }

    /// Suspends until ``advance(by:)`` or ``advance(to:)`` moves time to `deadline` or later. Returns at once when
    /// `deadline` is not after ``now``.
    /// - Parameters:
    ///   - deadline: When to wake.
    ///   - tolerance: Ignored: virtual time is exact.
    /// - Throws: `CancellationError` when the task is (or gets) cancelled; it then no longer counts as a sleeper.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Next { case wait, wake, cancel }
                let (next, waiters) = state.withLockedValue { state -> (Next, [CheckedContinuation<Void, Never>]) in
                    if case .cancelled = state.registrations[id] {
                        state.registrations[id] = nil
                        return (.cancel, [])
                    }
                    if deadline <= state.now {
                        state.registrations[id] = nil
                        return (.wake, [])
                    }
                    state.registrations[id] = .sleeping(deadline, continuation)
                    return (.wait, state.satisfiedWaiters())
                }
                switch next {
                case .wait: for waiter in waiters { waiter.resume() }
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                switch state.registrations[id] {
                case .pending:
                    state.registrations[id] = .cancelled
                    return nil
                case .sleeping(_, let continuation):
                    state.registrations[id] = nil
                    return continuation
                case .cancelled, .waiting, nil:
                    return nil
                }
            }
            sleeper?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and resumes every sleeper whose deadline has come, in deadline order.
    ///
    /// When it returns, the woken tasks have been resumed (scheduled); they may still be running, in any order. A
    /// negative `duration` does nothing.
    public func advance(by duration: Duration) async {
        let target = state.withLockedValue { $0.now.advanced(by: duration) }
        await advance(to: target)
    }

    /// Moves time forward to `instant` (nothing happens when it is not later than ``now``) and wakes every sleeper
    /// whose deadline is at or before it: earliest deadline first, and in the order they went to sleep for equal
    /// deadlines.
    ///
    /// When it returns, the woken tasks have been resumed (scheduled); they may still be running, in any order.
    public func advance(to instant: Instant) async {
        let due = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            guard instant > state.now else { return [] }
            state.now = instant
            var due: [(deadline: Instant, id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
            for (id, registration) in state.registrations {
                if case .sleeping(let deadline, let continuation) = registration, deadline <= instant {
                    due.append((deadline, id, continuation))
                }
            }
            for sleeper in due { state.registrations[sleeper.id] = nil }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on this clock, so that a test can let the code under test park
    /// before it moves time. Waits without polling; returns early when the calling task is cancelled.
    public func waitForSleepers(_ count: Int) async {
        let id = state.withLockedValue { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state -> Bool in
                    if case .cancelled = state.registrations[id] {
                        state.registrations[id] = nil
                        return true
                    }
                    if state.sleeperCount >= count {
                        state.registrations[id] = nil
                        return true
                    }
                    state.registrations[id] = .waiting(count: count, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                switch state.registrations[id] {
                case .pending:
                    state.registrations[id] = .cancelled
                    return nil
                case .waiting(_, let continuation):
                    state.registrations[id] = nil
                    return continuation
                case .cancelled, .sleeping, nil:
                    return nil
                }
            }
            waiter?.resume()
        }
    }
}

/// A value behind a lock, as swift-nio's `NIOLockedValueBox`: ParleyCore has no package dependencies, and
/// `Synchronization.Mutex` needs macOS 15 and iOS 18. Every access to `value` holds `lock`, which is what makes the
/// box safe to share.
private final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
