import Foundation
import ParleyCore
import Testing

@testable import ParleyClient

/// The connection lifecycle as a value: every transition, every event that makes no sense in a state, stale
/// attempts and the back-off delays, without sockets, tasks or clocks.
@Suite("Connection state machine")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    typealias Action = ConnectionStateMachine.Action
    typealias Event = ConnectionStateMachine.Event

    /// Exact delays (no jitter): 1 s doubling to 30 s; a 15 s opening deadline; a ping every 30 s, 10 s for its pong.
    static let configuration = Machine.Configuration(
        reconnect: .init(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: false),
        connectionTimeout: .seconds(15), heartbeatInterval: .seconds(30), pongTimeout: .seconds(10),
        canReplaceExpiredToken: true)

    static func machine(_ configuration: Machine.Configuration = configuration) -> Machine {
        Machine(configuration: configuration, random: SeededRandomNumberGenerator(seed: 1))
    }

    /// A state to start a test in, reached through the events that lead there.
    enum Start: String, CaseIterable, CustomTestStringConvertible {
        /// Nothing wanted.
        case idle
        /// The app's connect(): attempt 1 gets its token.
        case preparing
        /// Attempt 1's socket is opening (opening deadline: timer 1).
        case opening
        /// Attempt 1's socket is open, the handshake sent.
        case handshaking
        /// Attempt 1 is connected (heartbeat: timer 2).
        case connected
        /// Attempt 1 dropped; retry 1 waits (timer 3).
        case waiting
        /// Retry 1 is attempt 2, getting its token.
        case retrying

        var testDescription: String { rawValue }

        /// The machine in this state.
        var machine: Machine {
            var machine = ConnectionStateMachineTests.machine()
            for event in events { _ = machine.handle(event) }
            return machine
        }

        var events: [Event] {
            switch self {
            case .idle: []
            case .preparing: [.connectRequested]
            case .opening: Start.preparing.events + [.socketPrepared(attempt: 1)]
            case .handshaking: Start.opening.events + [.socketOpened(attempt: 1, expectsWelcome: false)]
            case .connected: Start.handshaking.events + [.pongReceived(attempt: 1)]
            case .waiting: Start.connected.events + [.socketClosed(attempt: 1, .init(code: .goingAway, reason: nil))]
            case .retrying: Start.waiting.events + [.timerFired(3)]
            }
        }

        var state: Machine.State {
            switch self {
            case .idle: .idle
            case .preparing: .connecting(attempt: 1, retry: 0, phase: .preparing)
            case .opening: .connecting(attempt: 1, retry: 0, phase: .opening)
            case .handshaking: .connecting(attempt: 1, retry: 0, phase: .handshaking)
            case .connected: .connected(attempt: 1)
            case .waiting: .waitingToReconnect(retry: 1)
            case .retrying: .connecting(attempt: 2, retry: 1, phase: .preparing)
            }
        }

        var status: ConnectionStatus {
            switch self {
            case .idle: .disconnected
            case .connected: .connected
            default: .connecting
            }
        }

        /// The attempt the state's socket events are about, if any.
        var attempt: Int? {
            switch self {
            case .idle, .waiting: nil
            case .retrying: 2
            default: 1
            }
        }

        /// The pending timer's id, if any.
        var timer: Int? {
            switch self {
            case .opening, .handshaking: 1
            case .connected: 2
            case .waiting: 3
            default: nil
            }
        }
    }

    static let abnormalClose = TransportClose(code: .goingAway, reason: nil)
    static let closedInTheBackground = ParleyError(
        .connectionFailed, "closed while connecting: the app is in the background")
    static let refused = ParleyError(.connectionFailed, "refused")

    /// Every event about attempt `attempt`.
    static func socketEvents(_ attempt: Int) -> [Event] {
        [
            .socketPrepared(attempt: attempt), .socketOpened(attempt: attempt, expectsWelcome: false),
            .socketOpened(attempt: attempt, expectsWelcome: true), .pongReceived(attempt: attempt),
            .welcomeReceived(attempt: attempt), .refusalReceived(attempt: attempt, refused),
            .socketClosed(attempt: attempt, nil), .socketClosed(attempt: attempt, abnormalClose),
            .socketClosed(attempt: attempt, .init(code: .normal, reason: nil)),
            .socketFailed(attempt: attempt, refused),
        ]
    }

    // MARK: Reaching every state

    @Test(arguments: Start.allCases)
    func everyStartIsReachedWithItsStatus(start: Start) {
        let machine = start.machine
        #expect(machine.state == start.state)
        #expect(machine.status == start.status)
        #expect(machine.currentAttempt == start.attempt)
        #expect(machine.wantsConnection == (start != .idle))
    }

    @Test func aFreshMachineIsIdleAndDisconnected() {
        let machine = Self.machine()
        #expect(machine.state == .idle)
        #expect(machine.status == .disconnected)
        #expect(machine.currentAttempt == nil)
        #expect(!machine.isInBackground)
        #expect(machine.isNetworkReachable)
    }

    // MARK: Opening

    @Test func theAppsConnectGoesThroughTokenSocketAndHandshake() {
        var machine = Self.machine()
        #expect(machine.handle(.connectRequested) == [.statusChanged(.connecting), .prepareSocket(attempt: 1)])
        #expect(machine.state == .connecting(attempt: 1, retry: 0, phase: .preparing))
        #expect(
            machine.handle(.socketPrepared(attempt: 1)) == [
                .startTimer(id: 1, delay: .seconds(15)), .openSocket(attempt: 1),
            ])
        #expect(machine.state == .connecting(attempt: 1, retry: 0, phase: .opening))
        #expect(machine.handle(.socketOpened(attempt: 1, expectsWelcome: false)) == [.sendHandshake])
        #expect(machine.state == .connecting(attempt: 1, retry: 0, phase: .handshaking))
        #expect(
            machine.handle(.pongReceived(attempt: 1)) == [
                .statusChanged(.connected), .startTimer(id: 2, delay: .seconds(30)), .flushOutbox,
                .finishConnect(attempt: 1, nil),
            ])
        #expect(machine.state == .connected(attempt: 1))
        #expect(machine.status == .connected)
    }

    @Test func aConversationThatSpokeParleyWaitsForTheWelcomeAfterThePong() {
        var machine = Start.opening.machine
        #expect(machine.handle(.socketOpened(attempt: 1, expectsWelcome: true)) == [.sendHandshake])
        #expect(machine.handle(.pongReceived(attempt: 1)) == [], "the pong overtook the welcome")
        #expect(machine.state == .connecting(attempt: 1, retry: 0, phase: .handshaking))
        #expect(
            machine.handle(.welcomeReceived(attempt: 1)) == [
                .statusChanged(.connected), .startTimer(id: 2, delay: .seconds(30)), .flushOutbox,
                .finishConnect(attempt: 1, nil),
            ])
    }

    @Test(arguments: [true, false])
    func aWelcomeBeforeThePongOpensAtThePong(expectsWelcome: Bool) {
        var machine = Start.opening.machine
        _ = machine.handle(.socketOpened(attempt: 1, expectsWelcome: expectsWelcome))
        #expect(machine.handle(.welcomeReceived(attempt: 1)) == [])
        #expect(machine.handle(.pongReceived(attempt: 1)).contains(.statusChanged(.connected)))
        #expect(machine.state == .connected(attempt: 1))
    }

    @Test func aRetryThatConnectsFinishesNoCaller() {
        var machine = Start.retrying.machine
        _ = machine.handle(.socketPrepared(attempt: 2))
        _ = machine.handle(.socketOpened(attempt: 2, expectsWelcome: false))
        #expect(
            machine.handle(.pongReceived(attempt: 2)) == [
                .statusChanged(.connected), .startTimer(id: 5, delay: .seconds(30)), .flushOutbox,
            ])
    }

    // MARK: Failing to open

    /// How the app's own attempt fails in each phase, and with what error.
    @Test(arguments: [
        (Start.preparing, Event.socketFailed(attempt: 1, refused), refused),
        (Start.opening, Event.socketFailed(attempt: 1, refused), refused),
        (Start.handshaking, Event.socketFailed(attempt: 1, refused), refused),
        (
            Start.opening, Event.socketClosed(attempt: 1, nil),
            ParleyError(.connectionFailed, "the server closed the socket")
        ),
        (
            Start.handshaking, Event.socketClosed(attempt: 1, .init(code: .normal, reason: "bye")),
            ParleyError(.connectionFailed, "the server closed the socket")
        ),
        (
            Start.handshaking,
            Event.socketClosed(attempt: 1, .init(code: .unknownChannel, reason: "channel.unknown: no such channel")),
            ParleyError(.unknownChannel, "no such channel")
        ),
        (
            Start.handshaking, Event.socketClosed(attempt: 1, .init(code: .internalError, reason: "oops")),
            ParleyError(.connectionFailed, "the server closed the socket with 1011 oops")
        ),
        (
            Start.handshaking, Event.socketClosed(attempt: 1, .init(code: .goingAway, reason: nil)),
            ParleyError(.connectionFailed, "the server closed the socket with 1001 ")
        ),
        (
            Start.opening, Event.timerFired(1),
            ParleyError(.connectionFailed, "the server did not answer within 15.0 seconds")
        ),
        (
            Start.handshaking, Event.timerFired(1),
            ParleyError(.connectionFailed, "the server did not answer within 15.0 seconds")
        ),
    ])
    func theAppsAttemptFailsToItsCallerAndStops(start: Start, event: Event, error: ParleyError) {
        var machine = start.machine
        let actions = machine.handle(event)
        let timer: [Action] = start.timer != nil && event != .timerFired(1) ? [.cancelTimer] : []
        #expect(
            actions == timer + [
                .closeSocket(reason: nil), .statusChanged(.disconnected), .finishConnect(attempt: 1, error),
            ])
        #expect(machine.state == .idle)
        #expect(machine.status == .disconnected)
    }

    @Test func aRefusalBeforeTheCloseIsTheReason() {
        var machine = Start.handshaking.machine
        let refusal = ParleyError(.unknownChannel, "the channel nope does not exist")
        #expect(machine.handle(.refusalReceived(attempt: 1, refusal)) == [])
        let actions = machine.handle(
            .socketClosed(attempt: 1, .init(code: .unknownChannel, reason: "channel.unknown: x")))
        #expect(actions.last == .finishConnect(attempt: 1, refusal))
    }

    @Test func aRefusalDoesNotOverrideANormalClose() {
        var machine = Start.handshaking.machine
        _ = machine.handle(.refusalReceived(attempt: 1, ParleyError(.unknownChannel, "no")))
        let actions = machine.handle(.socketClosed(attempt: 1, .init(code: .normal, reason: nil)))
        #expect(
            actions.last == .finishConnect(attempt: 1, ParleyError(.connectionFailed, "the server closed the socket")))
    }

    @Test func aRefusalFromAnEarlierAttemptIsForgotten() {
        var machine = Start.handshaking.machine
        _ = machine.handle(.refusalReceived(attempt: 1, ParleyError(.unknownChannel, "no")))
        _ = machine.handle(.pongReceived(attempt: 1))  // connected after all
        let actions = machine.handle(.socketClosed(attempt: 1, .init(code: .internalError, reason: "restart")))
        #expect(!actions.contains(.reportError(ParleyError(.unknownChannel, "no"))))
        #expect(machine.state == .waitingToReconnect(retry: 1), "not final: the refusal belonged to the opening")
    }

    @Test func connectWhileWaitingIsTheAppsOwnAttemptAndStopsOnFailure() {
        var machine = Start.waiting.machine
        #expect(machine.handle(.connectRequested) == [.cancelTimer, .prepareSocket(attempt: 2)])
        #expect(machine.state == .connecting(attempt: 2, retry: 0, phase: .preparing))
        #expect(
            machine.handle(.socketFailed(attempt: 2, Self.refused)) == [
                .closeSocket(reason: nil), .statusChanged(.disconnected), .finishConnect(attempt: 2, Self.refused),
            ])
        #expect(machine.state == .idle)
    }

    // MARK: Drops and back-off

    @Test(arguments: [
        nil, TransportClose(code: .normal, reason: nil), abnormalClose,
        TransportClose(code: .internalError, reason: "x"),
    ])
    func aDropReconnectsAfterTheFirstDelay(close: TransportClose?) {
        var machine = Start.connected.machine
        #expect(
            machine.handle(.socketClosed(attempt: 1, close)) == [
                .cancelTimer, .closeSocket(reason: nil), .statusChanged(.connecting),
                .startTimer(id: 3, delay: .seconds(1)),
            ])
        #expect(machine.state == .waitingToReconnect(retry: 1))
        #expect(machine.handle(.timerFired(3)) == [.prepareSocket(attempt: 2)])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
    }

    @Test func aFailedSocketReconnectsLikeAClosedOne() {
        var machine = Start.connected.machine
        #expect(
            machine.handle(.socketFailed(attempt: 1, Self.refused)) == [
                .cancelTimer, .closeSocket(reason: nil), .statusChanged(.connecting),
                .startTimer(id: 3, delay: .seconds(1)),
            ])
    }

    /// The delay before retry n is the policy's: 1, 2, 4, 8, 16 s, then 30 s at most.
    @Test func failedRetriesBackOffExponentially() {
        var machine = Start.waiting.machine
        var timer = 3
        let expected: [Duration] = [2, 4, 8, 16, 30, 30, 30].map { .seconds($0) }
        for (index, delay) in expected.enumerated() {
            let retry = index + 1
            let attempt = retry + 1
            #expect(machine.handle(.timerFired(timer)) == [.prepareSocket(attempt: attempt)])
            #expect(machine.state == .connecting(attempt: attempt, retry: retry, phase: .preparing))
            _ = machine.handle(.socketPrepared(attempt: attempt))  // opening deadline: timer + 1
            #expect(
                machine.handle(.socketFailed(attempt: attempt, Self.refused)) == [
                    .cancelTimer, .closeSocket(reason: nil), .startTimer(id: timer + 2, delay: delay),
                ])
            #expect(machine.state == .waitingToReconnect(retry: retry + 1))
            #expect(machine.status == .connecting)
            timer += 2
        }
    }

    @Test(arguments: [1, 2, 3, 7])
    func jitteredDelaysAreThePolicysDrawsFromTheInjectedSource(seed: UInt64) {
        let policy = ChatClient.ReconnectPolicy()
        var configuration = Self.configuration
        configuration.reconnect = policy
        var machine = Machine(configuration: configuration, random: SeededRandomNumberGenerator(seed: seed))
        var expected = SeededRandomNumberGenerator(seed: seed)
        for event in Start.connected.events { _ = machine.handle(event) }
        var actions = machine.handle(.socketClosed(attempt: 1, Self.abnormalClose))
        for retry in 1...5 {
            guard case .startTimer(let id, let delay) = actions.last else {
                Issue.record("no retry timer: \(actions)")
                return
            }
            #expect(delay == policy.delay(beforeAttempt: retry, using: &expected))
            #expect(delay <= policy.bound(beforeAttempt: retry))
            _ = machine.handle(.timerFired(id))
            actions = machine.handle(.socketFailed(attempt: retry + 1, Self.refused))
        }
    }

    @Test func theMachineGivesUpAfterMaxAttempts() {
        var configuration = Self.configuration
        configuration.reconnect.maxAttempts = 2
        var machine = Self.machine(configuration)
        for event in Start.retrying.events { _ = machine.handle(event) }
        #expect(
            machine.handle(.socketFailed(attempt: 2, Self.refused)) == [
                .closeSocket(reason: nil), .startTimer(id: 4, delay: .seconds(2)),
            ])
        _ = machine.handle(.timerFired(4))
        #expect(
            machine.handle(.socketFailed(attempt: 3, Self.refused)) == [
                .closeSocket(reason: nil),
                .reportError(ParleyError(.connectionFailed, "gave up reconnecting after 2 attempts")),
                .statusChanged(.disconnected),
            ])
        #expect(machine.state == .idle)
    }

    @Test func aNeverPolicyReportsTheDropAndStops() {
        var configuration = Self.configuration
        configuration.reconnect = .never
        var machine = Self.machine(configuration)
        for event in Start.connected.events { _ = machine.handle(event) }
        #expect(
            machine.handle(.socketClosed(attempt: 1, Self.abnormalClose)) == [
                .cancelTimer, .closeSocket(reason: nil), .statusChanged(.connecting),
                .reportError(ParleyError(.connectionFailed, "gave up reconnecting after 0 attempts")),
                .statusChanged(.disconnected),
            ])
        #expect(machine.state == .idle)
    }

    @Test func aSuccessfulRetryStartsTheBackOffAgain() {
        var machine = Start.retrying.machine
        _ = machine.handle(.socketPrepared(attempt: 2))
        _ = machine.handle(.socketOpened(attempt: 2, expectsWelcome: false))
        _ = machine.handle(.pongReceived(attempt: 2))
        #expect(
            machine.handle(.socketClosed(attempt: 2, Self.abnormalClose)).last == .startTimer(id: 6, delay: .seconds(1))
        )
    }

    // MARK: Final errors and tokens

    @Test(arguments: [
        ("auth.invalidToken", true), ("auth.expired", true), ("auth.required", true), ("channel.unknown", true),
        ("channel.disabled", true), ("client.tokenUnavailable", true), ("client.invalidConfiguration", true),
        ("client.connectionFailed", false), ("server.busy", false), ("socket.tooSlow", false),
        ("server.rateLimited", false),
    ])
    func finalErrorsAreTheCredentialsAndChannelOnes(code: String, final: Bool) {
        #expect(Machine.isFinal(ParleyError(ParleyError.Code(rawValue: code), "")) == final)
    }

    @Test func aFinalCloseIsReportedOnceAndNotRetried() {
        var machine = Start.connected.machine
        let close = TransportClose(code: .invalidToken, reason: "auth.invalidToken: the signature does not verify")
        #expect(
            machine.handle(.socketClosed(attempt: 1, close)) == [
                .cancelTimer, .closeSocket(reason: nil),
                .reportError(ParleyError(.invalidToken, "the signature does not verify")),
                .statusChanged(.disconnected),
            ])
        #expect(machine.state == .idle)
    }

    @Test func aRetryThatFailsFinallyIsReportedAndStops() {
        var machine = Start.retrying.machine
        let error = ParleyError(.unknownChannel, "gone")
        #expect(
            machine.handle(.socketFailed(attempt: 2, error)) == [
                .closeSocket(reason: nil), .reportError(error), .statusChanged(.disconnected),
            ])
        #expect(machine.state == .idle)
    }

    @Test func anExpiredTokenIsReplacedOnceInARow() {
        var machine = Start.connected.machine
        let expired = TransportClose(code: .tokenExpired, reason: "auth.expired: the token expired")
        let error = ParleyError(.tokenExpired, "the token expired")
        #expect(
            machine.handle(.socketClosed(attempt: 1, expired)) == [
                .cancelTimer, .closeSocket(reason: nil), .discardToken, .statusChanged(.connecting),
                .prepareSocket(attempt: 2),
            ])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
        #expect(machine.replacedExpiredToken)
        #expect(
            machine.handle(.socketFailed(attempt: 2, error)) == [
                .closeSocket(reason: nil), .reportError(error), .statusChanged(.disconnected),
            ])
        #expect(machine.state == .idle)
    }

    @Test func anExpiredTokenCanBeReplacedAgainAfterAConnection() {
        var machine = Start.connected.machine
        let expired = TransportClose(code: .tokenExpired, reason: "auth.expired: the token expired")
        _ = machine.handle(.socketClosed(attempt: 1, expired))
        _ = machine.handle(.socketPrepared(attempt: 2))
        _ = machine.handle(.socketOpened(attempt: 2, expectsWelcome: false))
        _ = machine.handle(.pongReceived(attempt: 2))
        #expect(!machine.replacedExpiredToken)
        #expect(machine.handle(.socketClosed(attempt: 2, expired)).contains(.discardToken))
    }

    @Test func withoutATokenProviderAnExpiredTokenIsFinal() {
        var configuration = Self.configuration
        configuration.canReplaceExpiredToken = false
        var machine = Self.machine(configuration)
        for event in Start.connected.events { _ = machine.handle(event) }
        let expired = TransportClose(code: .tokenExpired, reason: "auth.expired: the token expired")
        #expect(
            machine.handle(.socketClosed(attempt: 1, expired)) == [
                .cancelTimer, .closeSocket(reason: nil), .reportError(ParleyError(.tokenExpired, "the token expired")),
                .statusChanged(.disconnected),
            ])
    }

    @Test func theAppsOwnAttemptIsNotRetriedWithANewToken() {
        var machine = Start.handshaking.machine
        let error = ParleyError(.tokenExpired, "the token expired")
        #expect(machine.handle(.socketFailed(attempt: 1, error)).last == .finishConnect(attempt: 1, error))
        #expect(machine.state == .idle)
    }

    // MARK: Heartbeat

    @Test func theHeartbeatPingsAndGoesOnWhenThePongComes() {
        var machine = Start.connected.machine
        #expect(machine.handle(.timerFired(2)) == [.sendPing, .startTimer(id: 3, delay: .seconds(10))])
        #expect(machine.handle(.pongReceived(attempt: 1)) == [])
        #expect(machine.handle(.timerFired(3)) == [.startTimer(id: 4, delay: .seconds(30))])
        #expect(machine.handle(.timerFired(4)) == [.sendPing, .startTimer(id: 5, delay: .seconds(10))])
        #expect(machine.state == .connected(attempt: 1))
    }

    @Test func aPongBeforeThePingDoesNotCount() {
        var machine = Start.connected.machine
        _ = machine.handle(.pongReceived(attempt: 1))
        _ = machine.handle(.timerFired(2))
        #expect(
            machine.handle(.timerFired(3)).contains(
                .reportError(ParleyError(.heartbeatTimeout, "no pong within 10.0 seconds; reconnecting"))))
    }

    @Test func aMissedPongDropsTheSocketAndReconnectsAtOnce() {
        var machine = Start.connected.machine
        _ = machine.handle(.timerFired(2))
        #expect(
            machine.handle(.timerFired(3)) == [
                .closeSocket(reason: nil),
                .reportError(ParleyError(.heartbeatTimeout, "no pong within 10.0 seconds; reconnecting")),
                .statusChanged(.connecting), .prepareSocket(attempt: 2),
            ])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
    }

    // MARK: Disconnecting

    @Test(arguments: [
        (Start.idle, [Action]()),
        (
            Start.preparing,
            [
                .closeSocket(reason: "the app disconnected"), .statusChanged(.disconnected),
                .finishConnect(
                    attempt: 1, ParleyError(.connectionFailed, "closed while connecting: the app disconnected")),
            ]
        ),
        (
            Start.opening,
            [
                .cancelTimer, .closeSocket(reason: "the app disconnected"), .statusChanged(.disconnected),
                .finishConnect(
                    attempt: 1, ParleyError(.connectionFailed, "closed while connecting: the app disconnected")),
            ]
        ),
        (
            Start.handshaking,
            [
                .cancelTimer, .closeSocket(reason: "the app disconnected"), .statusChanged(.disconnected),
                .finishConnect(
                    attempt: 1, ParleyError(.connectionFailed, "closed while connecting: the app disconnected")),
            ]
        ),
        (Start.connected, [.cancelTimer, .closeSocket(reason: "the app disconnected"), .statusChanged(.disconnected)]),
        (Start.waiting, [.cancelTimer, .statusChanged(.disconnected)]),
        (Start.retrying, [.closeSocket(reason: "the app disconnected"), .statusChanged(.disconnected)]),
    ])
    func disconnectClosesWhatIsOpenAndStops(start: Start, expected: [Action]) {
        var machine = start.machine
        #expect(machine.handle(.disconnectRequested) == expected)
        #expect(machine.state == .idle)
        #expect(machine.status == .disconnected)
        for event in Self.socketEvents(1) + Self.socketEvents(2) + [.timerFired(1), .timerFired(2), .timerFired(3)] {
            #expect(machine.handle(event) == [], "after disconnecting, \(event) is stale")
        }
    }

    @Test func connectAfterDisconnectStartsANewAttempt() {
        var machine = Start.connected.machine
        _ = machine.handle(.disconnectRequested)
        #expect(machine.handle(.connectRequested) == [.statusChanged(.connecting), .prepareSocket(attempt: 2)])
        #expect(machine.handle(.pongReceived(attempt: 1)) == [], "the old socket's pong")
    }

    // MARK: The app's life

    @Test(arguments: [
        (Start.idle, [Action](), Machine.State.idle),
        (
            Start.preparing,
            [
                .closeSocket(reason: "the app is in the background"), .statusChanged(.disconnected),
                .finishConnect(attempt: 1, closedInTheBackground),
            ],
            Machine.State.idle
        ),
        (
            Start.handshaking,
            [
                .cancelTimer, .closeSocket(reason: "the app is in the background"), .statusChanged(.disconnected),
                .finishConnect(attempt: 1, closedInTheBackground),
            ],
            Machine.State.idle
        ),
        (
            Start.connected,
            [.cancelTimer, .closeSocket(reason: "the app is in the background"), .statusChanged(.disconnected)],
            Machine.State.waitingToReconnect(retry: 1)
        ),
        (Start.waiting, [.cancelTimer, .statusChanged(.disconnected)], Machine.State.waitingToReconnect(retry: 1)),
        (
            Start.retrying, [.closeSocket(reason: "the app is in the background"), .statusChanged(.disconnected)],
            Machine.State.waitingToReconnect(retry: 1)
        ),
    ])
    func theBackgroundClosesTheSocketAndPausesReconnecting(start: Start, expected: [Action], state: Machine.State) {
        var machine = start.machine
        #expect(machine.handle(.enteredBackground) == expected)
        #expect(machine.state == state)
        #expect(machine.status == .disconnected)
        #expect(machine.isInBackground)
        #expect(machine.handle(.enteredBackground) == [], "twice is once")
        #expect(machine.handle(.networkChanged(isReachable: false)) == [])
        #expect(machine.handle(.networkChanged(isReachable: true)) == [], "no reconnecting in the background")
        for event in Self.socketEvents(1) + Self.socketEvents(2) + [.timerFired(1), .timerFired(2), .timerFired(3)] {
            #expect(machine.handle(event) == [], "in the background, \(event) is stale")
        }
    }

    @Test func theForegroundReconnectsAtOnceWithTheBackOffReset() {
        var machine = Start.connected.machine
        _ = machine.handle(.enteredBackground)
        #expect(machine.handle(.enteredForeground) == [.statusChanged(.connecting), .prepareSocket(attempt: 2)])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
        #expect(!machine.isInBackground)
    }

    @Test func theForegroundWhileOfflineWaitsForTheNetwork() {
        var machine = Start.connected.machine
        _ = machine.handle(.enteredBackground)
        _ = machine.handle(.networkChanged(isReachable: false))
        #expect(machine.handle(.enteredForeground) == [.statusChanged(.connecting)])
        #expect(machine.state == .waitingToReconnect(retry: 1))
        #expect(machine.handle(.networkChanged(isReachable: true)) == [.prepareSocket(attempt: 2)])
    }

    @Test func theForegroundWhileWaitingRetriesAtOnce() {
        var machine = Start.waiting.machine
        #expect(machine.handle(.enteredForeground) == [.cancelTimer, .prepareSocket(attempt: 2)])
    }

    @Test(arguments: [Start.idle, .preparing, .opening, .handshaking, .connected, .retrying])
    func theForegroundChangesNothingElsewhere(start: Start) {
        var machine = start.machine
        #expect(machine.handle(.enteredForeground) == [])
        #expect(machine.state == start.state)
    }

    @Test func connectInTheBackgroundConnectsAndADropThenWaitsForTheForeground() {
        var machine = Self.machine()
        _ = machine.handle(.enteredBackground)
        #expect(machine.handle(.connectRequested) == [.statusChanged(.connecting), .prepareSocket(attempt: 1)])
        for event in Start.connected.events.dropFirst() { _ = machine.handle(event) }
        #expect(machine.state == .connected(attempt: 1))
        #expect(
            machine.handle(.socketClosed(attempt: 1, Self.abnormalClose)) == [
                .cancelTimer, .closeSocket(reason: nil), .statusChanged(.disconnected),
            ])
        #expect(machine.state == .waitingToReconnect(retry: 1))
        #expect(machine.handle(.enteredForeground) == [.statusChanged(.connecting), .prepareSocket(attempt: 2)])
    }

    @Test func anUnreachableNetworkPausesReconnectingUntilItIsBack() {
        var machine = Start.waiting.machine
        #expect(machine.handle(.networkChanged(isReachable: false)) == [.cancelTimer])
        #expect(machine.state == .waitingToReconnect(retry: 1))
        #expect(machine.status == .connecting)
        #expect(machine.handle(.timerFired(3)) == [], "the cancelled timer")
        #expect(machine.handle(.networkChanged(isReachable: true)) == [.prepareSocket(attempt: 2)])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
    }

    @Test func aDropWhileUnreachableWaitsWithoutATimer() {
        var machine = Start.connected.machine
        #expect(machine.handle(.networkChanged(isReachable: false)) == [], "the heartbeat finds out")
        #expect(
            machine.handle(.socketClosed(attempt: 1, Self.abnormalClose)) == [
                .cancelTimer, .closeSocket(reason: nil), .statusChanged(.connecting),
            ])
        #expect(machine.handle(.networkChanged(isReachable: true)) == [.prepareSocket(attempt: 2)])
    }

    @Test(arguments: [Start.opening, .handshaking, .retrying])
    func anUnreachableNetworkLeavesAnAttemptToItsDeadline(start: Start) {
        var machine = start.machine
        #expect(machine.handle(.networkChanged(isReachable: false)) == [])
        #expect(machine.state == start.state)
        #expect(!machine.isNetworkReachable)
    }

    @Test func aNewNetworkReplacesAnOpenSocketAtOnce() {
        var machine = Start.connected.machine
        #expect(
            machine.handle(.networkChanged(isReachable: true)) == [
                .cancelTimer, .closeSocket(reason: "the network changed"), .statusChanged(.connecting),
                .prepareSocket(attempt: 2),
            ])
        #expect(machine.state == .connecting(attempt: 2, retry: 1, phase: .preparing))
    }

    @Test func aNewNetworkRestartsARetryAtOnce() {
        var machine = Start.retrying.machine
        #expect(
            machine.handle(.networkChanged(isReachable: true)) == [
                .closeSocket(reason: "the network changed"), .prepareSocket(attempt: 3),
            ])
        #expect(machine.state == .connecting(attempt: 3, retry: 1, phase: .preparing))
    }

    @Test func aNewNetworkFailsTheAppsOwnAttempt() {
        var machine = Start.handshaking.machine
        #expect(
            machine.handle(.networkChanged(isReachable: true)) == [
                .cancelTimer, .closeSocket(reason: "the network changed"), .statusChanged(.disconnected),
                .finishConnect(
                    attempt: 1, ParleyError(.connectionFailed, "closed while connecting: the network changed")),
            ])
        #expect(machine.state == .idle)
    }

    @Test func aNetworkReportWhileIdleOnlyNotesIt() {
        var machine = Self.machine()
        #expect(machine.handle(.networkChanged(isReachable: false)) == [])
        #expect(!machine.isNetworkReachable)
        #expect(machine.handle(.networkChanged(isReachable: true)) == [])
        #expect(machine.state == .idle)
    }

    // MARK: Illegal and stale events

    /// Events that make no sense in each state: no actions, nothing changes.
    static let ignored: [(Start, [Event])] = [
        (.idle, [.disconnectRequested, .enteredForeground] + socketEvents(1) + [.timerFired(1), .timerFired(0)]),
        (
            .preparing,
            [
                .connectRequested, .enteredForeground, .socketOpened(attempt: 1, expectsWelcome: false),
                .pongReceived(attempt: 1), .welcomeReceived(attempt: 1), .refusalReceived(attempt: 1, refused),
                .timerFired(1),
            ] + socketEvents(0) + socketEvents(2)
        ),
        (
            .opening,
            [
                .connectRequested, .enteredForeground, .networkChanged(isReachable: false), .socketPrepared(attempt: 1),
                .pongReceived(attempt: 1), .welcomeReceived(attempt: 1), .refusalReceived(attempt: 1, refused),
                .timerFired(2),
            ] + socketEvents(0) + socketEvents(2)
        ),
        (
            .handshaking,
            [
                .connectRequested, .enteredForeground, .networkChanged(isReachable: false), .socketPrepared(attempt: 1),
                .socketOpened(attempt: 1, expectsWelcome: true), .refusalReceived(attempt: 1, refused), .timerFired(2),
            ] + socketEvents(0) + socketEvents(2)
        ),
        (
            .connected,
            [
                .connectRequested, .enteredForeground, .networkChanged(isReachable: false), .socketPrepared(attempt: 1),
                .socketOpened(attempt: 1, expectsWelcome: false), .pongReceived(attempt: 1),
                .welcomeReceived(attempt: 1),
                .refusalReceived(attempt: 1, refused), .timerFired(1), .timerFired(3),
            ] + socketEvents(0) + socketEvents(2)
        ),
        (.waiting, socketEvents(1) + socketEvents(2) + [.timerFired(1), .timerFired(2), .timerFired(4)]),
        (
            .retrying,
            [
                .connectRequested, .enteredForeground, .networkChanged(isReachable: false),
                .socketOpened(attempt: 2, expectsWelcome: false), .pongReceived(attempt: 2),
                .welcomeReceived(attempt: 2),
                .refusalReceived(attempt: 2, refused), .timerFired(3), .timerFired(4),
            ] + socketEvents(1) + socketEvents(3)
        ),
    ]

    @Test(arguments: ignored)
    func illegalAndStaleEventsAreIgnored(start: Start, events: [Event]) {
        for event in events {
            var machine = start.machine
            #expect(machine.handle(event) == [], "\(event) in \(start)")
            #expect(machine.state == start.state, "\(event) in \(start)")
            #expect(machine.status == start.status, "\(event) in \(start)")
        }
    }

    @Test(arguments: Start.allCases)
    func eventsOfAnEarlierAttemptAreStaleAfterANewOne(start: Start) {
        var machine = start.machine
        guard let attempt = start.attempt else { return }
        // A new network replaces the socket (or fails the app's own attempt, and the app connects again).
        _ = machine.handle(.networkChanged(isReachable: true))
        if machine.state == .idle { _ = machine.handle(.connectRequested) }
        #expect(machine.currentAttempt == attempt + 1)
        for old in 0...attempt {
            for event in Self.socketEvents(old) {
                var copy = machine
                #expect(copy.handle(event) == [], "\(event) after a new attempt from \(start)")
                #expect(copy.state == machine.state)
            }
        }
    }

    @Test func aReplacedTimerIsStale() {
        var machine = Start.opening.machine
        _ = machine.handle(.socketOpened(attempt: 1, expectsWelcome: false))
        _ = machine.handle(.pongReceived(attempt: 1))  // the heartbeat (2) replaces the opening deadline (1)
        #expect(machine.handle(.timerFired(1)) == [])
        #expect(machine.state == .connected(attempt: 1))
    }

    @Test func aFiredTimerFiresOnce() {
        var machine = Start.connected.machine
        _ = machine.handle(.timerFired(2))
        #expect(machine.handle(.timerFired(2)) == [])
    }

    // MARK: Status

    /// A whole life: each status is reported once when it changes, and matches ``ConnectionStateMachine/status``.
    @Test func theStatusIsReportedOnceForEachChange() {
        var machine = Self.machine()
        var reported: [ConnectionStatus] = []
        let events: [Event] =
            Start.connected.events + [
                .socketClosed(attempt: 1, Self.abnormalClose), .timerFired(3), .socketFailed(attempt: 2, Self.refused),
                .timerFired(4), .socketPrepared(attempt: 3), .socketOpened(attempt: 3, expectsWelcome: false),
                .pongReceived(attempt: 3), .enteredBackground, .enteredForeground, .socketPrepared(attempt: 4),
                .socketOpened(attempt: 4, expectsWelcome: false), .pongReceived(attempt: 4), .disconnectRequested,
            ]
        for event in events {
            for case .statusChanged(let status) in machine.handle(event) {
                reported.append(status)
                #expect(machine.status == status)
            }
        }
        #expect(
            reported == [
                .connecting, .connected, .connecting, .connected, .disconnected, .connecting, .connected, .disconnected,
            ])
    }

    @Test func theConfigurationComesFromTheClients() {
        var configuration = ChatClient.Configuration(
            url: URL(string: "http://parley.test")!, channelId: "c", userId: "u")
        configuration.connectionTimeout = .seconds(3)
        configuration.heartbeatInterval = .seconds(5)
        configuration.pongTimeout = .seconds(2)
        configuration.reconnect = .never
        #expect(
            Machine.Configuration(configuration)
                == .init(
                    reconnect: .never, connectionTimeout: .seconds(3), heartbeatInterval: .seconds(5),
                    pongTimeout: .seconds(2), canReplaceExpiredToken: false))
        configuration.tokenProvider = { "token" }
        #expect(Machine.Configuration(configuration).canReplaceExpiredToken)
    }
}
