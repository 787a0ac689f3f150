import HTTPTypes
import NIOConcurrencyHelpers

/// Admits uploads within three limits: how many run at once on the whole server (`503 server.busy`), how many one
/// user runs at once (`429 server.rateLimited`), and how many one user starts per minute (`429`).
///
/// Each refusal carries `Retry-After`. Only admitted uploads count towards the per-minute limit; a refused attempt
/// costs nothing. Users are keyed by channel and user id.
final class UploadLimiter: Sendable {
    /// An admitted upload; hand it back to ``release(_:)`` when the upload ends, however it ends.
    struct Ticket: Sendable {
        fileprivate let user: String
    }

    private struct State {
        var running = 0
        var runningPerUser: [String: Int] = [:]
        /// When each user's uploads of the last window started (``ServerClock/elapsed``), oldest first.
        var starts: [String: [Duration]] = [:]
    }

    /// The most uploads at once on the server.
    let maxConcurrent: Int
    /// The most uploads at once per user.
    let maxConcurrentPerUser: Int
    /// The most uploads a user starts per ``window``.
    let perWindow: Int
    /// The rate window (a minute).
    let window: Duration
    /// How long a refused client is told to wait when the server is full.
    static let busyRetryAfter = 5
    private let clock: ServerClock
    private let state = NIOLockedValueBox(State())

    /// Creates a limiter.
    /// - Parameters:
    ///   - maxConcurrent: The most uploads at once on the server.
    ///   - maxConcurrentPerUser: The most uploads at once per user.
    ///   - perWindow: The most uploads a user starts per `window`.
    ///   - window: The rate window, a minute.
    ///   - clock: The server's clock, which times the window.
    init(
        maxConcurrent: Int, maxConcurrentPerUser: Int, perWindow: Int, window: Duration = .seconds(60),
        clock: ServerClock
    ) {
        self.maxConcurrent = maxConcurrent
        self.maxConcurrentPerUser = maxConcurrentPerUser
        self.perWindow = perWindow
        self.window = window
        self.clock = clock
    }

    /// Admits an upload by `user` (channel and user id), or throws the coded refusal.
    func admit(channelId: String, userId: String) throws(CodedHTTPError) -> Ticket {
        let user = "\(channelId)\u{0}\(userId)"
        let now = clock.elapsed
        let window = window
        let refusal = state.withLockedValue { state -> CodedHTTPError? in
            if state.starts.count > 10_000 {
                state.starts = state.starts.filter { _, starts in starts.last.map { now - $0 < window } ?? false }
            }
            var starts = state.starts[user, default: []]
            starts.removeAll { now - $0 >= window }
            state.starts[user] = starts.isEmpty ? nil : starts
            if state.running >= maxConcurrent {
                return CodedHTTPError(
                    .serviceUnavailable, .serverBusy,
                    "the server runs as many uploads as it allows (\(maxConcurrent)); try again shortly",
                    headers: [.retryAfter: String(Self.busyRetryAfter)])
            }
            if state.runningPerUser[user, default: 0] >= maxConcurrentPerUser {
                return CodedHTTPError(
                    .tooManyRequests, .rateLimited,
                    "this user already runs \(maxConcurrentPerUser) uploads; wait for one to finish",
                    headers: [.retryAfter: "1"])
            }
            if starts.count >= perWindow, let oldest = starts.first {
                let wait = window - (now - oldest)
                let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
                return CodedHTTPError(
                    .tooManyRequests, .rateLimited,
                    "this user started \(perWindow) uploads in the last minute; try again in \(seconds) s",
                    headers: [.retryAfter: String(seconds)])
            }
            state.running += 1
            state.runningPerUser[user, default: 0] += 1
            starts.append(now)
            state.starts[user] = starts
            return nil
        }
        if let refusal { throw refusal }
        return Ticket(user: user)
    }

    /// Ends an admitted upload.
    func release(_ ticket: Ticket) {
        state.withLockedValue { state in
            state.running -= 1
            let left = state.runningPerUser[ticket.user, default: 1] - 1
            state.runningPerUser[ticket.user] = left > 0 ? left : nil
        }
    }

    /// How many uploads run now (for tests).
    var running: Int { state.withLockedValue { $0.running } }
}
