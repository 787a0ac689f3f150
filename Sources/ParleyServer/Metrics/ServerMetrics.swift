public import CoreMetrics
import Foundation
import Metrics
import NIOConcurrencyHelpers

/// The server's metrics, on `swift-metrics` (docs/deploy.md, "Metrics").
///
/// The names are stable and prefixed `parley_`; they go to the ``ServerConfiguration/metricsFactory`` given, else to
/// `MetricsSystem.factory`, the backend the process bootstrapped (`parley serve` bootstraps Prometheus and serves
/// it at ``ServerConfiguration/metricsPath``; an app embedding the server bootstraps its own). Labels have bounded
/// values: a channel id the configuration names (any other is counted as `other`), an error code (past
/// ``maxErrorCodes`` distinct codes, `other`), a store operation, a socket kind. No user id is ever a label.
public struct ServerMetrics: Sendable {
    // MARK: Names

    /// Gauge: the chat and agent sockets open now (signed in and attached), by `kind` (`chat`, `agent`).
    public static let openSockets = "parley_open_sockets"
    /// Counter: the users' inputs stored (messages and profile updates; a repeated `clientMessageId` is not counted),
    /// by `channel`.
    public static let messagesReceived = "parley_messages_received_total"
    /// Counter: the messages the server stored and sent to users, by `channel` and `source` (`skill` for the
    /// skill's and the server's own, `agent` for a live agent's). Each message counts once, whatever the number of
    /// sockets it goes to.
    public static let messagesSent = "parley_messages_sent_total"
    /// Timer (a histogram in seconds with Prometheus): how long a channel's skill took to answer one input, by
    /// `channel`.
    public static let skillTurnDuration = "parley_skill_turn_duration_seconds"
    /// Timer: how long each call to the conversation store took, by `operation` (the ``ConversationStore`` method:
    /// `conversation`, `receive`, `pending`, `conversationsWithPendingInputs`, `answer`, `messages`,
    /// `checkReadiness`), failed calls included.
    public static let storeDuration = "parley_store_duration_seconds"
    /// Counter: the calls to the conversation store that threw, by `operation`.
    public static let storeErrors = "parley_store_errors_total"
    /// Counter: the chat sockets that said hello with a resume cursor (`ParleyHello.resumeAfter`): a client
    /// reconnecting, by `channel`.
    public static let reconnects = "parley_reconnects_total"
    /// Counter: the coded errors the server sent, by `code` (the ``ParleyError/Code``) and `via`: `socket` for an
    /// error payload or a close frame on a chat or agent socket (or an agent's error frame), `http` for a coded HTTP
    /// answer (attachments, sessions, the widget, a refused upgrade, `server.busy`).
    public static let errors = "parley_errors_total"

    /// The most distinct error codes counted under their own label; further codes are counted as `other`. A skill
    /// may send error payloads with codes of its own, and a label's values must stay few.
    public static let maxErrorCodes = 100

    // MARK: Label values

    /// The kind of a socket, the `kind` label of ``openSockets``.
    enum SocketKind: String {
        case chat
        case agent
    }

    /// How an error reached the client, the `via` label of ``errors``.
    enum ErrorPath: String {
        case socket
        case http
    }

    /// A store operation, the `operation` label of ``storeDuration`` and ``storeErrors``.
    enum StoreOperation: String, CaseIterable {
        case conversation
        case receive
        case pending
        case conversationsWithPendingInputs
        case answer
        case messages
        case checkReadiness
        case queueForAgents
        case agentQueue
        case assign
        case unassign
        case endHandOff
        case removeConversations
    }

    // MARK: Instruments

    let factory: any MetricsFactory
    private let channelIds: Set<String>
    private let sockets: [SocketKind: Meter]
    private let storeTimers: [StoreOperation: Timer]
    /// Each channel label's instruments, made once: making one per message looked it up in the backend's registry
    /// (a lock and a hash of its label and dimensions) several times a message.
    private let channels: [String: ChannelInstruments]
    private let errorCodes = NIOLockedValueBox(Set<String>())

    /// The instruments of one `channel` label.
    private struct ChannelInstruments {
        let received: Counter
        let sentBySkill: Counter
        let sentByAgent: Counter
        let reconnects: Counter
        let skillTurns: Timer

        init(channel: String, factory: any MetricsFactory) {
            received = Counter(
                label: ServerMetrics.messagesReceived, dimensions: [("channel", channel)], factory: factory)
            sentBySkill = Counter(
                label: ServerMetrics.messagesSent, dimensions: [("channel", channel), ("source", "skill")],
                factory: factory)
            sentByAgent = Counter(
                label: ServerMetrics.messagesSent, dimensions: [("channel", channel), ("source", "agent")],
                factory: factory)
            reconnects = Counter(label: ServerMetrics.reconnects, dimensions: [("channel", channel)], factory: factory)
            skillTurns = Timer(
                label: ServerMetrics.skillTurnDuration, dimensions: [("channel", channel)], factory: factory)
        }
    }

    /// Creates the server's metrics.
    /// - Parameters:
    ///   - factory: The backend; the process's bootstrapped one (`MetricsSystem.factory`) by default.
    ///   - channelIds: The channels that get a `channel` label of their own; others are counted as `other`.
    public init(factory: any MetricsFactory = MetricsSystem.factory, channelIds: [String] = []) {
        self.factory = factory
        self.channelIds = Set(channelIds)
        // Made at once, so that a scrape shows them (at 0) before the first socket or call.
        var sockets: [SocketKind: Meter] = [:]
        for kind in [SocketKind.chat, .agent] {
            sockets[kind] = Meter(label: Self.openSockets, dimensions: [("kind", kind.rawValue)], factory: factory)
        }
        self.sockets = sockets
        var timers: [StoreOperation: Timer] = [:]
        for operation in StoreOperation.allCases {
            timers[operation] = Timer(
                label: Self.storeDuration, dimensions: [("operation", operation.rawValue)], factory: factory)
        }
        storeTimers = timers
        var channels: [String: ChannelInstruments] = [:]
        for label in Set(channelIds + ["other"]) {
            channels[label] = ChannelInstruments(channel: label, factory: factory)
        }
        self.channels = channels
    }

    private func instruments(_ channelId: String) -> ChannelInstruments? {
        channels[channelLabel(channelId)]
    }

    /// The `channel` label of a channel id: the id when the configuration names it, `other` otherwise.
    func channelLabel(_ channelId: String) -> String {
        channelIds.contains(channelId) ? channelId : "other"
    }

    /// A socket was opened (signed in and attached).
    func socketOpened(_ kind: SocketKind) {
        sockets[kind]?.increment()
    }

    /// A socket that ``socketOpened(_:)`` counted closed.
    func socketClosed(_ kind: SocketKind) {
        sockets[kind]?.decrement()
    }

    /// A user's input was stored.
    func inputReceived(channel channelId: String) {
        instruments(channelId)?.received.increment()
    }

    /// Messages the server stored to send; error payloads among them are counted in ``errors`` too.
    func sent(_ messages: [StoredMessage], channel channelId: String) {
        let channel = instruments(channelId)
        for message in messages {
            guard case .skill(let frame) = message.frame else { continue }
            (frame.effectiveSource == .agent ? channel?.sentByAgent : channel?.sentBySkill)?.increment()
            if case .error(let error) = frame.payload.content {
                errorSent(error.errorCode ?? "uncoded")
            }
        }
    }

    /// A chat socket said hello with a resume cursor.
    func reconnected(channel channelId: String) {
        instruments(channelId)?.reconnects.increment()
    }

    /// A coded error was sent to a client.
    func errorSent(_ code: ParleyError.Code, via path: ErrorPath = .socket) {
        let label = errorCodes.withLockedValue { seen in
            if seen.contains(code.rawValue) { return code.rawValue }
            guard seen.count < Self.maxErrorCodes else { return "other" }
            seen.insert(code.rawValue)
            return code.rawValue
        }
        Counter(label: Self.errors, dimensions: [("code", label), ("via", path.rawValue)], factory: factory)
            .increment()
    }

    /// A skill answered one input of a channel in `duration`.
    func skillTurn(channel channelId: String, took duration: Duration) {
        instruments(channelId)?.skillTurns.record(duration: duration)
    }

    /// Runs a store call, recording how long it took and whether it threw.
    func measure<Result>(_ operation: StoreOperation, _ call: () async throws -> Result) async throws -> Result {
        let start = ContinuousClock.now
        do {
            let result = try await call()
            storeTimers[operation]?.record(duration: ContinuousClock.now - start)
            return result
        } catch {
            storeTimers[operation]?.record(duration: ContinuousClock.now - start)
            Counter(label: Self.storeErrors, dimensions: [("operation", operation.rawValue)], factory: factory)
                .increment()
            throw error
        }
    }
}
