import HTTPTypes
import NIOConcurrencyHelpers

/// Admits uploads within three limits: how many run at once on the whole server (`503 server.busy`), how many one
/// user runs at once (`429 server.rateLimited`), and how many one user starts per minute (`429`); and keeps the
/// server's upload slots for uploads that are moving.
///
/// Each refusal carries `Retry-After`. Only admitted uploads count towards the per-minute limit; a refused attempt
/// costs nothing. Users are keyed by channel and user id.
///
/// An admitted upload runs under ``supervise(_:_:)``: it must end within ``deadline`` (`408 attachment.timedOut`)
/// and receive at least ``minimumRate`` bytes a second over every ``rateWindow`` (`408 attachment.tooSlow`), the
/// rate being the client's: bytes over the time the server waited for them (``UploadProgress``); a window in which
/// the server waited for the client less than half the time is not judged and runs on into the next. When
/// every slot is taken, a new upload takes the slot of the slowest running one that is below the minimum rate over
/// its last windows and at least ``evictionGrace`` old; that one ends at once with `408 attachment.tooSlow`. So
/// clients that send a few bytes a second (`curl --limit-rate 100`) cannot keep everyone else's uploads out.
final class UploadLimiter: Sendable {
    /// An admitted upload; hand it back to ``release(_:)`` when the upload ends, however it ends.
    struct Ticket: Sendable {
        fileprivate let user: String
        /// What the upload has received, for the minimum rate; the receiver reports each chunk to it.
        let progress: UploadProgress
    }

    private struct State {
        var running = 0
        var runningPerUser: [String: Int] = [:]
        /// When each user's uploads of the last window started (``ServerClock/elapsed``), oldest first.
        var starts: [String: [Duration]] = [:]
        /// The uploads that hold a slot now.
        var active: [ObjectIdentifier: UploadProgress] = [:]
    }

    /// The most uploads at once on the server.
    let maxConcurrent: Int
    /// The most uploads at once per user.
    let maxConcurrentPerUser: Int
    /// The most uploads a user starts per ``window``.
    let perWindow: Int
    /// The rate window (a minute).
    let window: Duration
    /// How long an upload may take from admission to its last byte.
    let deadline: Duration
    /// The fewest bytes a second an upload must receive, measured over each ``rateWindow``.
    let minimumRate: Int
    /// The period over which ``minimumRate`` is measured.
    let rateWindow: Duration
    /// How long a new upload keeps its slot whatever its rate, so that a slot it just took is not taken from it
    /// before its first bytes could arrive: a second, or ``rateWindow`` when shorter.
    var evictionGrace: Duration { min(.seconds(1), rateWindow) }
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
    ///   - deadline: How long an upload may take in all.
    ///   - minimumRate: The fewest bytes a second an upload must receive over each `rateWindow`.
    ///   - rateWindow: The period of the minimum rate.
    ///   - clock: The server's clock, which times the windows and the deadline.
    init(
        maxConcurrent: Int, maxConcurrentPerUser: Int, perWindow: Int, window: Duration = .seconds(60),
        deadline: Duration = .seconds(600), minimumRate: Int = 2048, rateWindow: Duration = .seconds(10),
        clock: ServerClock
    ) {
        self.maxConcurrent = maxConcurrent
        self.maxConcurrentPerUser = maxConcurrentPerUser
        self.perWindow = perWindow
        self.window = window
        self.deadline = deadline
        self.minimumRate = minimumRate
        self.rateWindow = rateWindow
        self.clock = clock
    }

    /// Admits an upload by `user` (channel and user id), or throws the coded refusal. When the server is full, the
    /// slot of a running upload below the minimum rate is given to this one (``UploadProgress/stop(_:)``).
    func admit(channelId: String, userId: String) throws(CodedHTTPError) -> Ticket {
        let user = "\(channelId)\u{0}\(userId)"
        let now = clock.elapsed
        let window = window
        let progress = UploadProgress(clock: clock)
        let outcome = state.withLockedValue { state -> (CodedHTTPError?, evicted: UploadProgress?) in
            if state.starts.count > 10_000 {
                state.starts = state.starts.filter { _, starts in starts.last.map { now - $0 < window } ?? false }
            }
            var starts = state.starts[user, default: []]
            starts.removeAll { now - $0 >= window }
            state.starts[user] = starts.isEmpty ? nil : starts
            if state.runningPerUser[user, default: 0] >= maxConcurrentPerUser {
                return (
                    CodedHTTPError(
                        .tooManyRequests, .rateLimited,
                        "this user already runs \(maxConcurrentPerUser) uploads; wait for one to finish",
                        headers: [.retryAfter: "1"]), nil
                )
            }
            if starts.count >= perWindow, let oldest = starts.first {
                let wait = window - (now - oldest)
                let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
                return (
                    CodedHTTPError(
                        .tooManyRequests, .rateLimited,
                        "this user started \(perWindow) uploads in the last minute; try again in \(seconds) s",
                        headers: [.retryAfter: String(seconds)]), nil
                )
            }
            var evicted: UploadProgress?
            if state.running >= maxConcurrent {
                guard let slowest = slowestStalled(in: state.active.values, now: now) else {
                    return (
                        CodedHTTPError(
                            .serviceUnavailable, .serverBusy,
                            "the server runs as many uploads as it allows (\(maxConcurrent)); try again shortly",
                            headers: [.retryAfter: String(Self.busyRetryAfter)]), nil
                    )
                }
                // Its slot is this upload's from now on; its own release gives back nothing more.
                state.active[ObjectIdentifier(slowest)] = nil
                slowest.evicted = true
                state.running -= 1
                evicted = slowest
            }
            state.running += 1
            state.runningPerUser[user, default: 0] += 1
            state.active[ObjectIdentifier(progress)] = progress
            starts.append(now)
            state.starts[user] = starts
            return (nil, evicted)
        }
        if let refusal = outcome.0 { throw refusal }
        outcome.evicted?.stop(
            CodedHTTPError(
                .requestTimeout, .attachmentTooSlow,
                "the upload received fewer than \(minimumRate) bytes a second while other uploads waited; "
                    + "its slot went to another",
                headers: [.connection: "close"]))
        return Ticket(user: user, progress: progress)
    }

    /// The running upload that is slowest below the minimum rate over its recent windows, among those older than
    /// ``evictionGrace``; nil when every one is moving.
    private func slowestStalled(in uploads: some Sequence<UploadProgress>, now: Duration) -> UploadProgress? {
        var slowest: (UploadProgress, Double)?
        for upload in uploads where now - upload.started >= evictionGrace {
            let rate = upload.recentRate(now: now, minimumWait: evictionGrace / 2)
            guard rate < Double(minimumRate) else { continue }
            if slowest.map({ rate < $0.1 }) ?? true { slowest = (upload, rate) }
        }
        return slowest?.0
    }

    /// Ends an admitted upload.
    func release(_ ticket: Ticket) {
        state.withLockedValue { state in
            if !ticket.progress.evicted {
                state.running -= 1
                state.active[ObjectIdentifier(ticket.progress)] = nil
            }
            let left = state.runningPerUser[ticket.user, default: 1] - 1
            state.runningPerUser[ticket.user] = left > 0 ? left : nil
        }
    }

    /// Runs `operation` (the reading of an admitted upload's body) under the upload's deadline and minimum rate: it
    /// is cancelled, and the coded refusal thrown, when the deadline passes, when a ``rateWindow`` brings fewer than
    /// ``minimumRate`` bytes a second, or when a new upload takes its slot.
    func supervise<Value: Sendable>(
        _ ticket: Ticket, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let progress = ticket.progress
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await self.watch(progress)
                return nil
            }
            group.addTask {
                for await refusal in progress.stops { throw refusal }
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let value = result { return value }
            }
            throw CancellationError()
        }
    }

    /// Waits on the server's clock, window by window, until the upload is too slow or out of time.
    private func watch(_ progress: UploadProgress) async throws {
        let end = progress.started + deadline
        while true {
            let now = clock.elapsed
            if now >= end {
                throw CodedHTTPError(
                    .requestTimeout, .attachmentTimedOut,
                    "an upload may take at most \(deadline.described)",
                    headers: [.connection: "close"])
            }
            let step = min(rateWindow, end - now)
            try await clock.sleep(until: now + step)
            guard step == rateWindow,
                let window = progress.closeWindow(at: clock.elapsed, judgedAfter: rateWindow / 2),
                Double(window.bytes) < Double(minimumRate) * window.waited.inSeconds
            else { continue }
            throw CodedHTTPError(
                .requestTimeout, .attachmentTooSlow,
                "the upload received fewer than \(minimumRate) bytes a second over "
                    + "\(rateWindow.described)",
                headers: [.connection: "close"])
        }
    }

    /// How many uploads run now (for tests).
    var running: Int { state.withLockedValue { $0.running } }
}

/// What one admitted upload has received, for the minimum rate (``UploadLimiter``), and the way to stop it.
///
/// The rate is the client's, not the server's: it counts the bytes of the body over the time the receiver spent
/// waiting for them (``waitingForClient()`` to ``received(_:)``). The time the server spends on its own work —
/// parsing, writing the file, waiting its turn on the upload thread, storing the finished file — counts for no one,
/// so that a body that arrived whole in an instant is never "too slow" because the server was busy with it.
final class UploadProgress: Sendable {
    private struct Window {
        var bytes = 0
        /// Finished waits for the client in this window.
        var waited: Duration = .zero
    }

    private struct State {
        var current = Window()
        var previous = Window()
        /// When the wait for the client that is going on now started.
        var waitingSince: Duration?
        var evicted = false

        func waited(now: Duration) -> Duration {
            current.waited + (waitingSince.map { now - $0 } ?? .zero)
        }
    }

    /// When it was admitted (``ServerClock/elapsed``).
    let started: Duration
    private let clock: ServerClock
    private let state = NIOLockedValueBox(State())
    /// The refusal that stops the upload, once (``stop(_:)``).
    let stops: AsyncStream<CodedHTTPError>
    private let continuation: AsyncStream<CodedHTTPError>.Continuation

    init(clock: ServerClock) {
        self.clock = clock
        started = clock.elapsed
        (stops, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The receiver waits for the next bytes of the body from now.
    func waitingForClient() {
        let now = clock.elapsed
        state.withLockedValue { state in
            if state.waitingSince == nil { state.waitingSince = now }
        }
    }

    /// The wait ended with `count` bytes of the body (0 at its end).
    func received(_ count: Int) {
        let now = clock.elapsed
        state.withLockedValue { state in
            if let since = state.waitingSince {
                state.current.waited += now - since
                state.waitingSince = nil
            }
            state.current.bytes += count
        }
    }

    /// Whether its slot was given to another upload (the limiter's count no longer includes it).
    var evicted: Bool {
        get { state.withLockedValue { $0.evicted } }
        set { state.withLockedValue { $0.evicted = newValue } }
    }

    /// Ends the current rate window at `now` if the receiver waited for the client at least `judgedAfter` in it, and
    /// returns its bytes and that wait; otherwise returns nil and the window goes on (the server was busy, not the
    /// client).
    func closeWindow(at now: Duration, judgedAfter: Duration) -> (bytes: Int, waited: Duration)? {
        state.withLockedValue { state in
            let waited = state.waited(now: now)
            guard waited >= judgedAfter else { return nil }
            let closed = (bytes: state.current.bytes, waited: waited)
            state.previous = Window(bytes: closed.bytes, waited: waited)
            state.current = Window()
            if state.waitingSince != nil { state.waitingSince = now }
            return closed
        }
    }

    /// Bytes a second over the previous window and the current one so far, counting only the time spent waiting for
    /// the client; infinite while that time is under `minimumWait` (too little to judge).
    func recentRate(now: Duration, minimumWait: Duration) -> Double {
        state.withLockedValue { state in
            let waited = state.previous.waited + state.waited(now: now)
            guard waited >= minimumWait, waited > .zero else { return .infinity }
            return Double(state.previous.bytes + state.current.bytes) / waited.inSeconds
        }
    }

    /// Stops the upload with `refusal` (the supervising task throws it).
    func stop(_ refusal: CodedHTTPError) {
        continuation.yield(refusal)
        continuation.finish()
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// `90 s`, `0.5 s`: for messages.
    fileprivate var described: String {
        components.attoseconds == 0 ? "\(components.seconds) s" : "\(inSeconds) s"
    }
}
