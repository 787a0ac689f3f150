import NIOConcurrencyHelpers

/// Counts failed sign-ins (bad channel tokens, agent keys, session secrets) per client address and refuses an
/// address that failed ``limit`` times within a minute, until that minute has passed.
///
/// Only failures count: a user who signs in correctly is never slowed down. The table forgets addresses whose
/// minute has passed, so a flood of addresses cannot grow it without bound.
///
/// The same window counts other things per key with ``admit(_:)``: the messages of a conversation
/// (``ServerConfiguration/messagesPerMinute``), with `what` naming them in the refusal.
final class SignInLimiter: Sendable {
    private struct Window {
        /// When the window started (``ServerClock/elapsed``).
        var start: Duration
        var failures: Int
    }

    /// Failures allowed per address per window.
    let limit: Int
    /// The window's length.
    let window: Duration
    private let clock: ServerClock
    /// What is counted, for the refusal's message.
    private let what: String
    private let windows = NIOLockedValueBox<[String: Window]>([:])

    /// Creates a limiter.
    /// - Parameters:
    ///   - limit: Failures allowed per address per window.
    ///   - window: The window's length (a minute).
    ///   - clock: The server's clock, which times the window.
    ///   - what: What is counted, for the refusal's message.
    init(
        limit: Int, window: Duration = .seconds(60), clock: ServerClock,
        what: String = "failed sign-ins from this address"
    ) {
        self.what = what
        self.limit = limit
        self.window = window
        self.clock = clock
    }

    /// Throws ``ParleyError/Code/rateLimited`` when `address` has used up its failures for the current window.
    func check(_ address: String) throws(ParleyError) {
        if let seconds = refusal(address) {
            throw ParleyError(.rateLimited, "too many \(what); try again in \(seconds) s")
        }
    }

    /// The whole seconds until `address` may try again, or nil when it may now.
    func refusal(_ address: String) -> Int64? {
        let now = clock.elapsed
        let refused = windows.withLockedValue { windows -> Duration? in
            guard let entry = windows[address], now - entry.start < window, entry.failures >= limit else { return nil }
            return window - (now - entry.start)
        }
        return refused.map { max(1, $0.components.seconds) }
    }

    /// Refuses like ``check(_:)``, and otherwise counts the attempt at once: for attempts that cost the server
    /// whether or not they succeed, such as issuing a session (each one stores a row).
    func admit(_ address: String) throws(ParleyError) {
        try check(address)
        recordFailure(address)
    }

    /// Counts a failed sign-in from `address`.
    func recordFailure(_ address: String) {
        let now = clock.elapsed
        windows.withLockedValue { windows in
            if windows.count > 10_000 { windows = windows.filter { now - $0.value.start < window } }
            if let entry = windows[address], now - entry.start < window {
                windows[address]?.failures = entry.failures + 1
            } else {
                windows[address] = Window(start: now, failures: 1)
            }
        }
    }
}
