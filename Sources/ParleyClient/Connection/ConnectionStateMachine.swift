import Foundation

/// The lifecycle of ``ChatClient``'s connection as a value: ``handle(_:)`` takes what happened (the app's wish,
/// the socket's news, a timer, the app's background and network reports) and returns what to do (fetch a token,
/// open or close the socket, start a timer, flush the outbox, report a status or an error). No sockets, no clocks,
/// no tasks: ``ChatClient`` performs the actions, in order, and feeds back what came of them; tests drive the
/// machine directly.
///
/// Every attempt to open a socket has an id, carried by the events about it; an event about an attempt that is
/// no longer current (a socket closed by the app, an attempt abandoned after a timeout) returns no actions. So
/// does every event that makes no sense in the current state: the machine never traps.
///
/// - ``State/idle`` (status `disconnected`): leaves on connect requested.
/// - ``State/connecting(attempt:retry:phase:)`` (`connecting`): leaves when the handshake is done, the socket
///   closes or fails, the opening times out, or on disconnect, background or network change.
/// - ``State/connected(attempt:)`` (`connected`): leaves when the socket closes or fails, a pong is missed, or on
///   disconnect, background or network change.
/// - ``State/waitingToReconnect(retry:)`` (`connecting`; `disconnected` in the background): leaves when the retry
///   timer fires, on connect or disconnect requested, foreground, or the network coming back.
///
/// The shape follows `BayeuxSession` in ParleyGenesys: one timer at a time (each state needs at most one: the
/// opening deadline, the retry delay, the heartbeat or the pong deadline); starting a timer replaces the last.
struct ConnectionStateMachine: Sendable {
    /// What the machine needs from ``ChatClient/Configuration``.
    struct Configuration: Sendable, Hashable {
        /// How the client reconnects after a drop.
        var reconnect: ChatClient.ReconnectPolicy
        /// How long opening a socket may take, from opening it (with the token in hand) to the server's answer
        /// to the handshake.
        var connectionTimeout: Duration
        /// The time between heartbeat pings on an open socket.
        var heartbeatInterval: Duration
        /// How long a heartbeat ping may wait for its pong.
        var pongTimeout: Duration
        /// Whether the client has a token provider, so that an expired token can be replaced once.
        var canReplaceExpiredToken: Bool

        /// A configuration; the defaults are ``ChatClient/Configuration``'s.
        init(
            reconnect: ChatClient.ReconnectPolicy = .init(), connectionTimeout: Duration = .seconds(15),
            heartbeatInterval: Duration = .seconds(30), pongTimeout: Duration = .seconds(10),
            canReplaceExpiredToken: Bool = false
        ) {
            self.reconnect = reconnect
            self.connectionTimeout = connectionTimeout
            self.heartbeatInterval = heartbeatInterval
            self.pongTimeout = pongTimeout
            self.canReplaceExpiredToken = canReplaceExpiredToken
        }

        /// The part of a client's configuration that concerns the connection's lifecycle.
        init(_ configuration: ChatClient.Configuration) {
            self.init(
                reconnect: configuration.reconnect, connectionTimeout: configuration.connectionTimeout,
                heartbeatInterval: configuration.heartbeatInterval, pongTimeout: configuration.pongTimeout,
                canReplaceExpiredToken: configuration.tokenProvider != nil)
        }
    }

    /// Where the connection is.
    enum State: Sendable, Hashable {
        /// No connection, and none wanted: before the first ``Event/connectRequested``, after
        /// ``Event/disconnectRequested``, after a final error or after giving up.
        case idle
        /// An attempt is under way. `retry` is 0 for the app's own ``ChatClient/connect()``, whose caller waits
        /// for ``Action/finishConnect(attempt:_:)`` (a failure ends in ``idle``); otherwise the number of the
        /// retry (a failure schedules the next).
        case connecting(attempt: Int, retry: Int, phase: Phase)
        /// The socket is open and the handshake done; heartbeats run.
        case connected(attempt: Int)
        /// The app wants a connection and none is open: the timer of retry `retry` runs, unless the app is in
        /// the background or the network is unreachable (then the app's report starts retry 1).
        case waitingToReconnect(retry: Int)
    }

    /// How far an attempt got.
    enum Phase: Sendable, Hashable {
        /// Getting the token and the socket's URL (``Action/prepareSocket(attempt:)``).
        case preparing
        /// The transport is opening the socket (``Action/openSocket(attempt:)``).
        case opening
        /// The socket is open; waiting for the `pong` to the handshake's `ping` (and, from a server that spoke
        /// Parley's extension in this conversation before, its welcome).
        case handshaking
    }

    /// What happened.
    enum Event: Sendable, Hashable {
        /// The app called ``ChatClient/connect()``.
        case connectRequested
        /// The app called ``ChatClient/disconnect()``.
        case disconnectRequested
        /// The token and the URL for `attempt` are ready.
        case socketPrepared(attempt: Int)
        /// The transport opened the socket of `attempt`. `expectsWelcome`: the conversation was synced with a
        /// server speaking Parley's extension, so the handshake also waits for the welcome.
        case socketOpened(attempt: Int, expectsWelcome: Bool)
        /// A `pong` arrived on the socket of `attempt`.
        case pongReceived(attempt: Int)
        /// Parley's welcome arrived on the socket of `attempt`.
        case welcomeReceived(attempt: Int)
        /// An error payload arrived on the socket of `attempt`: while connecting, the reason the server is about
        /// to close it.
        case refusalReceived(attempt: Int, ParleyError)
        /// The peer closed the socket of `attempt` (with a close frame, or `nil` without one).
        case socketClosed(attempt: Int, TransportClose?)
        /// The attempt could not get a token or a URL, or its socket could not be opened or failed.
        case socketFailed(attempt: Int, ParleyError)
        /// The timer with this id fired.
        case timerFired(Int)
        /// The app went to the background.
        case enteredBackground
        /// The app came back to the foreground.
        case enteredForeground
        /// The app's path monitor reported the network (reachable again may mean another network).
        case networkChanged(isReachable: Bool)
    }

    /// What the caller must do, in order.
    enum Action: Sendable, Hashable {
        /// Get the token for `attempt` (the one in hand while it stays valid, or a new one) and the socket's URL;
        /// report ``Event/socketPrepared(attempt:)`` or ``Event/socketFailed(attempt:_:)``.
        case prepareSocket(attempt: Int)
        /// Open the socket of `attempt`; report ``Event/socketOpened(attempt:expectsWelcome:)``, then what arrives
        /// on it, then ``Event/socketClosed(attempt:_:)`` or ``Event/socketFailed(attempt:_:)``.
        case openSocket(attempt: Int)
        /// Send the handshake on the socket just opened: `auth` (when the token goes in a frame), Parley's hello,
        /// a `ping`.
        case sendHandshake
        /// Send a heartbeat `ping`.
        case sendPing
        /// Forget the current socket and its attempt: send a normal close frame with `reason` first when there
        /// is one (nil: the socket is dead or already closed), then cancel the attempt. What was written and
        /// not acknowledged becomes pending again.
        case closeSocket(reason: String?)
        /// Report ``Event/timerFired(_:)`` with `id` after `delay`. Starting a timer cancels the previous one.
        case startTimer(id: Int, delay: Duration)
        /// Forget the pending timer.
        case cancelTimer
        /// The socket is open: put what was written on an older socket back to pending and send the outbox.
        case flushOutbox
        /// Return from the app's ``ChatClient/connect()`` that started `attempt`: with this error, or `nil` when
        /// connected.
        case finishConnect(attempt: Int, ParleyError?)
        /// Forget the token in hand (it expired): the next attempt fetches a new one.
        case discardToken
        /// Report an error that no call returns (``ChatEvent/error(_:)``).
        case reportError(ParleyError)
        /// The status changed (``ChatEvent/statusChanged(_:)``).
        case statusChanged(ConnectionStatus)
    }

    /// The configuration in use; ``ChatClient`` replaces it when its own changes.
    var configuration: Configuration
    /// Where the connection is.
    private(set) var state = State.idle
    /// The status the last ``Action/statusChanged(_:)`` reported.
    private(set) var status = ConnectionStatus.disconnected
    /// Whether the app is in the background (no connection, no reconnecting).
    private(set) var isInBackground = false
    /// Whether the network is reachable, as the app last reported.
    private(set) var isNetworkReachable = true
    /// Whether an expired token was already replaced once in this run of failures.
    private(set) var replacedExpiredToken = false

    private var random: RandomSource
    private var lastAttempt = 0
    private var timer: (id: Int, purpose: TimerPurpose)?
    private var lastTimer = 0
    private var handshake = Handshake()
    /// Whether a `pong` came since the last heartbeat `ping`.
    private var pongSincePing = false

    private enum TimerPurpose: Hashable { case opening, retry, heartbeat, pongDeadline }

    /// What the current attempt's handshake has seen.
    private struct Handshake {
        var expectsWelcome = false
        var pong = false
        var welcome = false
        var refusal: ParleyError?
    }

    /// A machine in ``State/idle``; `random` draws the jitter of the reconnect delays.
    init(configuration: Configuration = Configuration(), random: any RandomNumberGenerator & Sendable) {
        self.configuration = configuration
        self.random = RandomSource(base: random)
    }

    /// The attempt whose socket is current (connecting or connected); frames from any other are stale.
    var currentAttempt: Int? {
        switch state {
        case .connecting(let attempt, _, _), .connected(let attempt): attempt
        case .idle, .waitingToReconnect: nil
        }
    }

    /// Whether the app wants a connection (so that a drop is followed by reconnecting).
    var wantsConnection: Bool { state != .idle }

    // MARK: Events

    /// Takes an event, returns the actions (none for an event that is stale or makes no sense now).
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connectRequested:
            switch state {
            case .idle, .waitingToReconnect: return cancelTimer() + startAttempt(retry: 0)
            case .connecting, .connected: return []
            }
        case .disconnectRequested:
            guard state != .idle else { return [] }
            return stop(reason: "the app disconnected")
        case .socketPrepared(let attempt):
            guard case .connecting(attempt, let retry, .preparing) = state else { return [] }
            state = .connecting(attempt: attempt, retry: retry, phase: .opening)
            return startTimer(.opening, after: configuration.connectionTimeout) + [.openSocket(attempt: attempt)]
        case .socketOpened(let attempt, let expectsWelcome):
            guard case .connecting(attempt, let retry, .opening) = state else { return [] }
            state = .connecting(attempt: attempt, retry: retry, phase: .handshaking)
            handshake.expectsWelcome = expectsWelcome
            return [.sendHandshake]
        case .pongReceived(let attempt):
            return pongReceived(attempt: attempt)
        case .welcomeReceived(let attempt):
            guard case .connecting(attempt, let retry, .handshaking) = state else { return [] }
            handshake.welcome = true
            return handshake.pong ? opened(attempt: attempt, retry: retry) : []
        case .refusalReceived(let attempt, let error):
            guard case .connecting(attempt, _, .handshaking) = state else { return [] }
            handshake.refusal = error
            return []
        case .socketClosed(let attempt, let close):
            guard currentAttempt == attempt else { return [] }
            return socketEnded(error: closeError(close))
        case .socketFailed(let attempt, let error):
            guard currentAttempt == attempt else { return [] }
            return socketEnded(error: error)
        case .timerFired(let id):
            guard let timer, timer.id == id else { return [] }
            self.timer = nil
            return timerFired(timer.purpose)
        case .enteredBackground:
            return enteredBackground()
        case .enteredForeground:
            isInBackground = false
            guard case .waitingToReconnect = state else { return [] }
            return scheduleRetry(1, immediately: true)
        case .networkChanged(let isReachable):
            return networkChanged(isReachable: isReachable)
        }
    }

    private mutating func pongReceived(attempt: Int) -> [Action] {
        switch state {
        case .connecting(attempt, let retry, .handshaking):
            handshake.pong = true
            // A server that spoke Parley's extension in this conversation before answers the hello before the
            // pong; if the pong overtook the welcome, wait for it rather than fall back to the base protocol.
            guard handshake.welcome || !handshake.expectsWelcome else { return [] }
            return opened(attempt: attempt, retry: retry)
        case .connected(attempt):
            pongSincePing = true
            return []
        default:
            return []
        }
    }

    private mutating func timerFired(_ purpose: TimerPurpose) -> [Action] {
        switch (purpose, state) {
        case (.opening, .connecting(_, let retry, _)):
            let timeout = configuration.connectionTimeout
            let error = ParleyError(.connectionFailed, "the server did not answer within \(timeout)")
            return attemptFailed(retry: retry, error)
        case (.retry, .waitingToReconnect(let retry)):
            return startAttempt(retry: retry)
        case (.heartbeat, .connected):
            pongSincePing = false
            return [.sendPing] + startTimer(.pongDeadline, after: configuration.pongTimeout)
        case (.pongDeadline, .connected):
            guard !pongSincePing else { return startTimer(.heartbeat, after: configuration.heartbeatInterval) }
            let error = ParleyError(.heartbeatTimeout, "no pong within \(configuration.pongTimeout); reconnecting")
            return [.closeSocket(reason: nil), .reportError(error)] + scheduleRetry(1, immediately: true)
        default:
            return []  // cannot happen: leaving a state cancels its timer
        }
    }

    private mutating func enteredBackground() -> [Action] {
        isInBackground = true
        switch state {
        case .idle:
            return []
        case .connecting(_, 0, _):
            return stop(reason: "the app is in the background")  // the app's connect() fails
        case .connecting, .connected:
            var actions = cancelTimer() + [.closeSocket(reason: "the app is in the background")]
            state = .waitingToReconnect(retry: 1)
            actions += updateStatus()
            return actions
        case .waitingToReconnect:
            state = .waitingToReconnect(retry: 1)
            return cancelTimer() + updateStatus()
        }
    }

    private mutating func networkChanged(isReachable: Bool) -> [Action] {
        isNetworkReachable = isReachable
        guard !isInBackground else { return [] }
        switch (state, isReachable) {
        case (.idle, _):
            return []
        case (.waitingToReconnect, false):
            return cancelTimer()
        case (_, false):
            return []  // an open socket may survive a brief loss; the heartbeat or the timeout finds out
        case (.waitingToReconnect, true):
            return scheduleRetry(1, immediately: true)
        case (.connecting(_, 0, _), true):
            return stop(reason: "the network changed")  // the app's connect() fails
        case (.connecting, true), (.connected, true):
            // A socket opened on the old path is likely dead without knowing it: replace it at once.
            return cancelTimer() + [.closeSocket(reason: "the network changed")] + scheduleRetry(1, immediately: true)
        }
    }

    // MARK: Transitions

    private mutating func startAttempt(retry: Int) -> [Action] {
        lastAttempt += 1
        handshake = Handshake()
        state = .connecting(attempt: lastAttempt, retry: retry, phase: .preparing)
        return updateStatus() + [.prepareSocket(attempt: lastAttempt)]
    }

    /// The handshake is done.
    private mutating func opened(attempt: Int, retry: Int) -> [Action] {
        state = .connected(attempt: attempt)
        replacedExpiredToken = false
        var actions = updateStatus() + startTimer(.heartbeat, after: configuration.heartbeatInterval)
        actions.append(.flushOutbox)
        if retry == 0 { actions.append(.finishConnect(attempt: attempt, nil)) }
        return actions
    }

    /// The current socket closed or failed (`error` is `nil` for a normal close).
    private mutating func socketEnded(error: ParleyError?) -> [Action] {
        switch state {
        case .connecting(_, let retry, _):
            return attemptFailed(retry: retry, error ?? ParleyError(.connectionFailed, "the server closed the socket"))
        case .connected:
            let actions = cancelTimer() + [.closeSocket(reason: nil)]
            if let error, Self.isFinal(error) { return actions + stopAfter(error, orRetry: 1) }
            return actions + scheduleRetry(1, immediately: false)
        case .idle, .waitingToReconnect:
            return []
        }
    }

    /// The current attempt failed: the app's own ends the wish for a connection; a retry schedules the next.
    private mutating func attemptFailed(retry: Int, _ error: ParleyError) -> [Action] {
        guard case .connecting(let attempt, _, _) = state else { return [] }
        let actions = cancelTimer() + [.closeSocket(reason: nil)]
        guard retry > 0 else {
            state = .idle
            return actions + updateStatus() + [.finishConnect(attempt: attempt, error)]
        }
        if Self.isFinal(error) { return actions + stopAfter(error, orRetry: retry + 1) }
        return actions + scheduleRetry(retry + 1, immediately: false)
    }

    /// The app no longer wants a connection (or cannot have one now, for its own connect()): close what is open.
    private mutating func stop(reason: String) -> [Action] {
        var actions = cancelTimer()
        var waiting: [Action] = []
        switch state {
        case .connecting(let attempt, let retry, _):
            actions.append(.closeSocket(reason: reason))
            if retry == 0 {
                let error = ParleyError(.connectionFailed, "closed while connecting: \(reason)")
                waiting.append(.finishConnect(attempt: attempt, error))
            }
        case .connected:
            actions.append(.closeSocket(reason: reason))
        case .idle, .waitingToReconnect:
            break
        }
        state = .idle
        return actions + updateStatus() + waiting
    }

    /// After a final error: one more attempt with a new token when the token expired (once in a row); otherwise
    /// the error is reported once and the machine goes idle.
    private mutating func stopAfter(_ error: ParleyError, orRetry retry: Int) -> [Action] {
        if error.code == .tokenExpired, !replacedExpiredToken, configuration.canReplaceExpiredToken {
            replacedExpiredToken = true
            return [.discardToken] + scheduleRetry(retry, immediately: true)
        }
        state = .idle
        return cancelTimer() + [.reportError(error)] + updateStatus()
    }

    /// Waits the policy's (jittered) delay before retry `retry`, or starts it at once. Not while the app is in the
    /// background or the network is unreachable: the app's reports restart it. Gives up after `maxAttempts`.
    private mutating func scheduleRetry(_ retry: Int, immediately: Bool) -> [Action] {
        var actions = cancelTimer()
        state = .waitingToReconnect(retry: retry)
        actions += updateStatus()
        guard !isInBackground, isNetworkReachable else { return actions }
        let policy = configuration.reconnect
        if let maxAttempts = policy.maxAttempts, retry > maxAttempts {
            state = .idle
            let error = ParleyError(.connectionFailed, "gave up reconnecting after \(maxAttempts) attempts")
            actions.append(.reportError(error))
            return actions + updateStatus()
        }
        if immediately { return actions + startAttempt(retry: retry) }
        return actions + startTimer(.retry, after: policy.delay(beforeAttempt: retry, using: &random))
    }

    // MARK: Status and timers

    /// Reports the status that goes with the state, when it changed.
    private mutating func updateStatus() -> [Action] {
        let new: ConnectionStatus =
            switch state {
            case .idle: .disconnected
            case .connecting: .connecting
            case .connected: .connected
            case .waitingToReconnect: isInBackground ? .disconnected : .connecting
            }
        guard new != status else { return [] }
        status = new
        return [.statusChanged(new)]
    }

    private mutating func startTimer(_ purpose: TimerPurpose, after delay: Duration) -> [Action] {
        lastTimer += 1
        timer = (lastTimer, purpose)
        return [.startTimer(id: lastTimer, delay: delay)]
    }

    private mutating func cancelTimer() -> [Action] {
        guard timer != nil else { return [] }
        timer = nil
        return [.cancelTimer]
    }

    // MARK: Errors

    /// What a close means; `nil` for a normal close (or one without a code).
    private func closeError(_ close: TransportClose?) -> ParleyError? {
        guard let close, let code = close.code, code != .normal else { return nil }
        if case .connecting = state, let refusal = handshake.refusal { return refusal }
        // Parley's reasons read "<error code>: <message>".
        if let reason = close.reason, let colon = reason.firstIndex(of: ":"), reason[..<colon].contains(".") {
            let message = reason[reason.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return ParleyError(ParleyError.Code(rawValue: String(reason[..<colon])), message)
        }
        return ParleyError(
            .connectionFailed, "the server closed the socket with \(code.rawValue) \(close.reason ?? "")")
    }

    /// Whether reconnecting with the same credentials cannot help.
    static func isFinal(_ error: ParleyError) -> Bool {
        let domain = error.code.rawValue.split(separator: ".").first
        return domain == "auth" || domain == "channel" || error.code == .tokenUnavailable
            || error.code == .invalidConfiguration
    }
}
