import Foundation
import NIOConcurrencyHelpers

/// When the credential a socket was opened with stops being valid: its token's `exp`, or its session secret's end.
/// A token presented again on the open socket (an `auth` frame) moves it. The socket is closed with a coded close
/// once the date passes (``watch(clock:onExpiry:)``), so that a credential bounds what its holder can do, not only
/// whether a socket opens (docs/security.md, "Tokens").
final class CredentialExpiry: Sendable {
    private let date: NIOLockedValueBox<Date>
    /// The timer that watches it, once watched: told when the date moves earlier.
    private let watcher = NIOLockedValueBox<ExpiryTimer?>(nil)

    init(_ date: Date) {
        self.date = NIOLockedValueBox(date)
    }

    /// The date the credential expires at.
    var expiresAt: Date { date.withLockedValue { $0 } }

    /// A fresh credential: the socket lives until its expiry.
    func renew(until newDate: Date) {
        date.withLockedValue { $0 = newDate }
        watcher.withLockedValue { $0 }?.reschedule(for: newDate)
    }

    /// Runs `onExpiry` once the (possibly renewed) expiry has passed on `clock`; cancel the watch when the socket
    /// ends. Every watch of one server clock shares one task (``ExpiryTimer``): a sleeping task per socket cost an
    /// idle connection 1.3 KiB (docs/performance.md).
    func watch(clock: ServerClock, onExpiry: @escaping @Sendable () async -> Void) -> ExpiryTimer.Watch {
        watcher.withLockedValue { $0 = clock.expiryTimer }
        return clock.expiryTimer.watch(self, onExpiry: onExpiry)
    }
}

/// The credential expiries of a server's sockets, watched by one task on the server's clock that sleeps until the
/// earliest of them (a day at most, then it looks again), runs what is due, and sleeps again; no task while nothing
/// is watched. A watch whose date is earlier than the one slept on, or moves earlier, starts the task afresh.
final class ExpiryTimer: Sendable {
    /// A watch's handle: ``cancel()`` it when its socket ends.
    struct Watch: Sendable {
        fileprivate let id: Int
        fileprivate let timer: ExpiryTimer

        /// Stops watching; `onExpiry` does not run after this returns unless it was already running.
        func cancel() { timer.cancel(id) }
    }

    private struct Entry {
        let expiry: CredentialExpiry
        let onExpiry: @Sendable () async -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextId = 0
        /// The task that sleeps, its generation, and the date it wakes at.
        var sleeper: Task<Void, Never>?
        var generation = 0
        var wakeAt: Date?
    }

    private let state = NIOLockedValueBox(State())
    /// The server clock's readings and its wait (``ServerClock`` holds the timer, so not the clock itself).
    private let elapsed: @Sendable () -> Duration
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A timer on a server clock's monotonic reading `elapsed`, its date `now`, and its wait until an `elapsed`
    /// reading (``ServerClock/sleep(until:)``).
    init(
        elapsed: @escaping @Sendable () -> Duration, now: @escaping @Sendable () -> Date,
        sleepUntil: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.elapsed = elapsed
        self.now = now
        self.sleep = sleepUntil
    }

    func watch(_ expiry: CredentialExpiry, onExpiry: @escaping @Sendable () async -> Void) -> Watch {
        let id = state.withLockedValue { state in
            let id = state.nextId
            state.nextId += 1
            state.entries[id] = Entry(expiry: expiry, onExpiry: onExpiry)
            return id
        }
        reschedule(for: expiry.expiresAt)
        return Watch(id: id, timer: self)
    }

    fileprivate func cancel(_ id: Int) {
        state.withLockedValue { state in
            state.entries[id] = nil
            if state.entries.isEmpty {
                state.sleeper?.cancel()
                state.sleeper = nil
                state.wakeAt = nil
                state.generation += 1
            }
        }
    }

    /// Makes sure the task wakes by `date`.
    fileprivate func reschedule(for date: Date) {
        state.withLockedValue { state in
            if state.sleeper != nil, let wakeAt = state.wakeAt, wakeAt <= date { return }
            state.sleeper?.cancel()
            state.generation += 1
            state.wakeAt = date
            let generation = state.generation
            state.sleeper = Task { await self.run(generation) }
        }
    }

    private func run(_ generation: Int) async {
        while !Task.isCancelled {
            // The monotonic reading comes first and the wait is until a deadline: a clock that moves after the
            // reading can only wake the task early (it then reads the dates again), never late.
            let start = elapsed()
            let now = now()
            let (due, next) = state.withLockedValue { state -> ([Entry], Date?) in
                guard state.generation == generation else { return ([], nil) }
                var due: [Entry] = []
                var next: Date?
                for (id, entry) in state.entries {
                    let date = entry.expiry.expiresAt
                    if date <= now {
                        due.append(entry)
                        state.entries[id] = nil
                    } else if next.map({ date < $0 }) ?? true {
                        next = date
                    }
                }
                state.wakeAt = next
                if next == nil { state.sleeper = nil }
                return (due, next)
            }
            for entry in due { await entry.onExpiry() }
            guard let next else { return }
            do {
                // At most a day at a time, then the dates are read again: no conversion of a far date can trap.
                let remaining = min(next.timeIntervalSince(now), 86_400)
                try await sleep(start + .milliseconds(Int64((remaining * 1000).rounded(.up))))
            } catch {
                return
            }
        }
    }
}
