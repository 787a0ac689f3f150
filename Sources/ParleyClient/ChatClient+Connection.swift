import Foundation
import WSClient

extension ChatClient {
    /// Opens the socket if it is not open, and waits until the server has answered the opening `ping`.
    /// - Throws: When the attempt fails: the server refused the channel, the user or the token (with the server's
    ///   code, such as ``ParleyError/Code/tokenExpired``), or the network failed
    ///   (``ParleyError/Code/connectionFailed``). The client is then disconnected and does not retry by itself.
    public func connect() async throws(ParleyError) {
        try checkInitialized()
        let actions = connectionMachine.handle(.connectRequested)
        // Already connected, or an attempt is under way: nothing to wait for.
        guard !actions.isEmpty, case .connecting(let attempt, _, _) = connectionMachine.state else { return }
        await perform(actions)
        try await outcome(ofConnect: attempt).get()
    }

    /// Closes the socket and switches to another server, channel, user or token. Only the network properties
    /// (`url`, `channelId`, `userId`, `tokenProvider`, `tokenPresentation`, `clientType`) are taken from
    /// `newConfiguration`; the feature flags stay as they are, as in Oracle's SDK. The transcript and outbox of
    /// the new channel and user are loaded.
    public func connect(_ newConfiguration: Configuration) async throws(ParleyError) {
        try checkInitialized()
        await disconnect()
        configuration.url = newConfiguration.url
        configuration.channelId = newConfiguration.channelId
        configuration.userId = newConfiguration.userId
        configuration.tokenProvider = newConfiguration.tokenProvider
        configuration.tokenPresentation = newConfiguration.tokenPresentation
        configuration.clientType = newConfiguration.clientType
        identity = (newConfiguration.channelId, newConfiguration.userId)
        token = nil
        tokenRefreshTask?.cancel()
        if configuration.tokenProvider != nil { _ = try await currentToken() }
        try await loadConversation()
        try await connect()
    }

    /// Closes the socket and stops reconnecting. Messages sent meanwhile wait in the outbox until the next
    /// connection.
    public func disconnect() async {
        tokenRefreshTask?.cancel()
        await handle(.disconnectRequested)
    }

    // MARK: The app's life

    /// The app went to the background: the client closes the socket and does not reconnect until
    /// ``applicationWillEnterForeground()``. Undelivered messages stay in the outbox.
    public func applicationDidEnterBackground() async {
        await handle(.enteredBackground)
    }

    /// The app is back in the foreground: the client reconnects at once (when it was connected before) and
    /// delivers what waited.
    public func applicationWillEnterForeground() async {
        // Coming back starts an attempt or nothing: no action waits, so they are all performed before returning.
        for action in connectionMachine.handle(.enteredForeground) { performAtOnce(action) }
    }

    /// The network changed, as the app's path monitor reports it. Unreachable: the client stops trying to
    /// reconnect until it is reachable again (an open socket is left to the heartbeat). Reachable (again, or
    /// another network): a socket opened on the old path is likely dead without knowing it, so the client
    /// replaces it at once instead of waiting for the heartbeat.
    public func networkReachabilityChanged(isReachable: Bool) async {
        await handle(.networkChanged(isReachable: isReachable))
    }

    // MARK: Performing the lifecycle

    /// Feeds an event to the connection's state machine and performs what it returns.
    func handle(_ event: ConnectionStateMachine.Event) async {
        await perform(connectionMachine.handle(event))
    }

    /// Performs the state machine's actions, in order.
    func perform(_ actions: [ConnectionStateMachine.Action]) async {
        for action in actions {
            switch action {
            case .sendHandshake:
                await sendHandshake()
            case .sendPing:
                try? await connection?.send(StateFrame.ping.jsonString())
            case .closeSocket(let reason):
                await closeSocket(reason: reason)
            case .flushOutbox:
                outbox.requeueSent()
                // Before the caller of connect() goes on, so that nothing it sends overtakes what waited.
                await pumpOutbox()
            default:
                performAtOnce(action)
            }
        }
    }

    /// Performs an action that does not wait: every action except sending, closing and flushing.
    private func performAtOnce(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .prepareSocket(let attempt):
            prepareSocket(for: attempt)
        case .openSocket(let attempt):
            openSocket(for: attempt)
        case .startTimer(let id, let delay):
            lifecycleTimer?.cancel()
            let clock = self.clock
            lifecycleTimer = Task {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
                await self.handle(.timerFired(id))
            }
        case .cancelTimer:
            lifecycleTimer?.cancel()
            lifecycleTimer = nil
        case .finishConnect(let attempt, let error):
            let result: Result<Void, ParleyError> = error.map { .failure($0) } ?? .success(())
            if let waiter = connectWaiters.removeValue(forKey: attempt) {
                waiter.resume(returning: result)
            } else {
                connectOutcomes[attempt] = result
            }
        case .discardToken:
            token = nil
        case .reportError(let error):
            emit(.error(error))
        case .statusChanged(let status):
            emit(.statusChanged(status))
        case .sendHandshake, .sendPing, .closeSocket, .flushOutbox:
            Task { await perform([action]) }  // these wait; perform(_:) does them in order
        }
    }

    /// Waits until the attempt the app's ``connect()`` started is connected or failed.
    private func outcome(ofConnect attempt: Int) async -> Result<Void, ParleyError> {
        if let outcome = connectOutcomes.removeValue(forKey: attempt) { return outcome }
        return await withCheckedContinuation { connectWaiters[attempt] = $0 }
    }

    /// Forgets the current socket (closing it first with `reason`, if given) and cancels its attempt.
    private func closeSocket(reason: String?) async {
        let socket = connection
        let task = connectionTask
        connection = nil
        connectionTask = nil
        preparedSocket = nil
        gapTask?.cancel()
        outbox.requeueSent()
        // The close frame goes out before the task is cancelled. (The task may be the one performing this, after
        // its socket ended; cancelling a task that is finishing is harmless.)
        if let reason { await socket?.close(.normal, reason: reason) }
        task?.cancel()
    }

    // MARK: Opening

    /// The first step of an attempt: the token (the one in hand while valid, or a new one) and the socket's URL.
    private func prepareSocket(for attempt: Int) {
        connectionTask = Task {
            let prepared: (url: URL, token: String?)
            do throws(ParleyError) {
                let token = try await currentToken()
                prepared = (try configuration.socketURL(channelId: identity.channelId, userId: identity.userId), token)
            } catch {
                return await handle(.socketFailed(attempt: attempt, error))
            }
            let actions = connectionMachine.handle(.socketPrepared(attempt: attempt))
            guard !actions.isEmpty else { return }  // the attempt was abandoned meanwhile
            preparedSocket = prepared
            await perform(actions)
        }
    }

    /// Opens the socket of `attempt` with the prepared token and URL; what arrives on it goes to
    /// ``receive(_:attempt:)``.
    private func openSocket(for attempt: Int) {
        guard let prepared = preparedSocket else { return }
        serverCapabilities = []
        serverMaxFrameSize = nil
        var headers: [String: String] = [:]
        if let token = prepared.token, configuration.tokenPresentation == .header {
            headers["Authorization"] = "Bearer \(token)"
        }
        let transport = self.transport
        connectionTask = Task {
            let ending: Result<TransportClose?, any Error>
            do {
                ending = .success(
                    try await transport.connect(to: prepared.url, headers: headers) { connection in
                        await self.attach(connection, attempt: attempt)
                        for await text in connection.inbound {
                            await self.receive(text, attempt: attempt)
                        }
                    })
            } catch {
                ending = .failure(error)
            }
            switch ending {
            case .success(let close):
                await self.handle(.socketClosed(attempt: attempt, close))
            case .failure(let error):
                await self.handle(.socketFailed(attempt: attempt, transportError(error)))
            }
        }
    }

    private func attach(_ socket: TransportConnection, attempt: Int) async {
        let actions = connectionMachine.handle(.socketOpened(attempt: attempt, expectsWelcome: outbox.synced))
        guard !actions.isEmpty else {
            await socket.close(.normal, reason: nil)  // nobody waits for this socket any more
            return
        }
        connection = socket
        await perform(actions)
    }

    /// Sends `auth` (when the token goes in a frame), Parley's hello and the `ping` whose `pong` opens the
    /// connection.
    private func sendHandshake() async {
        guard let connection else { return }
        do {
            if configuration.tokenPresentation == .authFrame, let token = preparedSocket?.token {
                try await connection.send(StateFrame.auth(jwt: token).jsonString())
            }
            // Parley's extension: the server answers with a welcome before the pong (an Oracle server, which
            // does not know it, ignores it) and replays what followed the last message received in order.
            let resumeAfter = outbox.synced ? sequencer.lastSequence : nil
            try await connection.send(ParleyHello(resumeAfter: resumeAfter).stateFrame.jsonString())
            // The `pong` confirms the socket works (and, after `auth`, that the token was accepted). It also makes
            // a server that refuses the socket after its first frame say why.
            try await connection.send(StateFrame.ping.jsonString())
        } catch {
            await connection.close(.normal, reason: nil)
        }
    }

    /// What a transport failure means.
    private func transportError(_ error: any Error) -> ParleyError {
        switch error {
        case let error as ParleyError:
            return error
        case let error as WebSocketClientError where error == .webSocketUpgradeFailed:
            return token != nil
                ? ParleyError(.invalidToken, "the server refused the socket upgrade (a bad token)", underlying: error)
                : ParleyError(.connectionFailed, "the server refused the socket upgrade", underlying: error)
        default:
            return ParleyError(.connectionFailed, "\(error)", underlying: error)
        }
    }

    // MARK: Receiving

    func receive(_ text: String, attempt: Int) async {
        guard connectionMachine.currentAttempt == attempt else { return }  // from a socket that was replaced
        let frame: ServerFrame
        do {
            frame = try ServerFrame(decoding: text)
        } catch {
            emit(.error(ParleyError(error.code, "a frame from the server: \(error.message)", path: error.path)))
            return
        }
        switch frame {
        case .state(let state) where state.type == .pong:
            await handle(.pongReceived(attempt: attempt))
        case .state(let state) where state.type == .ping:
            try? await connection?.send(StateFrame.pong.jsonString())
        case .state(let state) where state.type == .parley:
            guard let welcome = ParleyWelcome(state) else { break }
            serverCapabilities = Set(welcome.capabilities)
            serverMaxFrameSize = welcome.maxFrameSize
            if !outbox.synced {
                // A conversation this client has no place in yet: it starts where the server is.
                sequencer = InboundSequencer(lastSequence: welcome.lastSequence)
                do {
                    try outbox.setLastSequence(welcome.lastSequence)
                } catch {
                    emit(.error(error))
                }
            }
            await handle(.welcomeReceived(attempt: attempt))
        case .state(let state) where state.type == .ack:
            if let ack = Acknowledgement(state) { await acknowledged(ack) }
        case .state(let state) where state.type == .userMessage:
            if let echoed = EchoedUserMessage(state) { sentElsewhere(echoed) }
        case .message(let message):
            if case .error(let error) = message.payload.content {
                // While connecting, a refusal: the close that follows carries the code; keep the server's words.
                let refusal = ParleyError(error.errorCode ?? .connectionFailed, error.errorMessage)
                await handle(.refusalReceived(attempt: attempt, refusal))
            }
            await arrived(message)
        case .state, .suggestions, .unknown:
            break
        }
    }

    /// A message from the server: in sequence order when it has a sequence number, once each.
    private func arrived(_ message: SkillMessage) async {
        guard serverCapabilities.contains(.sequence), let sequence = message.sequence else {
            // Sent before this socket's welcome by a server this conversation knows speaks Parley's extension:
            // it comes again, numbered, in the replay that follows the welcome.
            if serverCapabilities.isEmpty, outbox.synced, message.payload.type != .error { return }
            // Without sequence numbers (an Oracle server, or an error about a frame): drop a repeated msgId.
            if let id = message.msgId {
                guard !recentMessageIds.contains(id) else { return }
                recentMessageIds.append(id)
                if recentMessageIds.count > 500 { recentMessageIds.removeFirst(100) }
            }
            return await display(message)
        }
        for ready in sequencer.accept(message, sequence: sequence) {
            do {
                try outbox.setLastSequence(ready.sequence ?? sequencer.lastSequence)
            } catch {
                emit(.error(error))
            }
            await display(ready)
        }
        if sequencer.hasGap { startGapTimer() } else { gapTask?.cancel() }
    }

    /// A message is missing: if it has not come after `sequenceGapTimeout`, ask the server to replay.
    private func startGapTimer() {
        guard gapTask == nil else { return }
        let clock = self.clock
        let timeout = configuration.sequenceGapTimeout
        let attempt = connectionMachine.currentAttempt
        gapTask = Task {
            defer { self.gapTask = nil }
            do {
                try await clock.sleep(for: timeout)
            } catch {
                return
            }
            guard attempt == self.connectionMachine.currentAttempt, self.sequencer.hasGap,
                let connection = self.connection
            else { return }
            let hello = ParleyHello(resumeAfter: self.sequencer.lastSequence)
            try? await connection.send(hello.stateFrame.jsonString())
        }
    }
}
