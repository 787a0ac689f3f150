import Foundation
import WSClient

extension ChatClient {
    /// Opens the socket if it is not open, and waits until the server has answered the opening `ping`.
    /// - Throws: When the attempt fails: the server refused the channel, the user or the token (with the server's
    ///   code, such as ``ParleyError/Code/tokenExpired``), or the network failed
    ///   (``ParleyError/Code/connectionFailed``). The client is then disconnected and does not retry by itself.
    public func connect() async throws(ParleyError) {
        try checkInitialized()
        guard status != .connected, opening == nil else { return }
        wantsConnection = true
        reconnectTask?.cancel()
        do {
            try await open()
        } catch {
            wantsConnection = false
            setStatus(.disconnected)
            throw error
        }
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
        wantsConnection = false
        tokenRefreshTask?.cancel()
        await closeConnection(reason: "the app disconnected")
        setStatus(.disconnected)
    }

    // MARK: The app's life

    /// The app went to the background: the client closes the socket and does not reconnect until
    /// ``applicationWillEnterForeground()``. Undelivered messages stay in the outbox.
    public func applicationDidEnterBackground() async {
        suspended = true
        await closeConnection(reason: "the app is in the background")
        if wantsConnection { setStatus(.disconnected) }
    }

    /// The app is back in the foreground: the client reconnects at once (when it was connected before) and
    /// delivers what waited.
    public func applicationWillEnterForeground() {
        suspended = false
        guard wantsConnection, connection == nil, opening == nil else { return }
        scheduleReconnect(attempt: 1, immediately: true)
    }

    /// The network changed, as the app's path monitor reports it. Unreachable: the client stops trying to
    /// reconnect until it is reachable again (an open socket is left to the heartbeat). Reachable (again, or another network): a socket opened on the old path is likely
    /// dead without knowing it, so the client replaces it at once instead of waiting for the heartbeat.
    public func networkReachabilityChanged(isReachable: Bool) async {
        networkReachable = isReachable
        guard wantsConnection, !suspended else { return }
        if isReachable {
            await closeConnection(reason: "the network changed")
            scheduleReconnect(attempt: 1, immediately: true)
        } else {
            // An open socket may survive a brief loss; the heartbeat finds out if it does not.
            reconnectTask?.cancel()
            reconnectTask = nil
        }
    }

    /// Closes the current socket (or abandons the attempt to open one) without reconnecting.
    private func closeConnection(reason: String) async {
        reconnectTask?.cancel()
        reconnectTask = nil
        let connection = self.connection
        generation += 1  // its callbacks are ignored from now on
        await connection?.close(.normal, reason: reason)  // the close frame goes out before the task is cancelled
        abandonConnection()
        opening?.resume(throwing: ParleyError(.connectionFailed, "closed while connecting: \(reason)"))
        opening = nil
    }

    // MARK: Opening

    /// One attempt: fetch the token, open the socket, send `auth` (if the token goes in a frame), Parley's
    /// `parley` hello and a `ping`, wait for the `pong`.
    func open() async throws(ParleyError) {
        setStatus(.connecting)
        let token = try await currentToken()
        let url = try configuration.socketURL(channelId: identity.channelId, userId: identity.userId)
        var headers: [String: String] = [:]
        if let token, configuration.tokenPresentation == .header { headers["Authorization"] = "Bearer \(token)" }
        generation += 1
        let generation = self.generation
        openingError = nil
        awaitingWelcome = false
        capabilities = []
        serverMaxFrameSize = nil
        let transport = self.transport
        let authFrame = configuration.tokenPresentation == .authFrame ? token : nil
        let clock = self.clock
        let timeout = configuration.connectionTimeout
        let timer = Task {
            do {
                try await clock.sleep(for: timeout)
            } catch {
                return
            }
            self.openingTimedOut(generation: generation, after: timeout)
        }
        defer { timer.cancel() }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                opening = continuation
                connectionTask = Task {
                    let ending: Result<TransportClose?, any Error>
                    do {
                        ending = .success(
                            try await transport.connect(to: url, headers: headers) { connection in
                                await self.attach(connection, generation: generation, authToken: authFrame)
                                for await text in connection.inbound {
                                    await self.receive(text, generation: generation)
                                }
                            })
                    } catch {
                        ending = .failure(error)
                    }
                    await self.connectionEnded(ending, generation: generation)
                }
            }
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError(.connectionFailed, "\(error)", underlying: error)
        }
    }

    /// The server did not answer the handshake in time: the attempt is abandoned.
    private func openingTimedOut(generation: Int, after timeout: Duration) {
        guard generation == self.generation, let opening else { return }
        self.opening = nil
        abandonConnection()
        opening.resume(throwing: ParleyError(.connectionFailed, "the server did not answer within \(timeout)"))
    }

    private func attach(_ connection: TransportConnection, generation: Int, authToken: String?) async {
        guard generation == self.generation else {
            await connection.close(.normal, reason: nil)
            return
        }
        self.connection = connection
        do {
            if let authToken { try await connection.send(StateFrame.auth(jwt: authToken).jsonString()) }
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

    /// The handshake's `pong` arrived: the socket is open.
    private func opened(generation: Int) async {
        setStatus(.connected)
        refreshedExpiredToken = false
        reconnectAttempt = 0
        startHeartbeat(generation: generation)
        outbox.requeueSent()
        // Before the caller of connect() goes on, so that nothing it sends overtakes what waited.
        await pumpOutbox()
        opening?.resume()
        opening = nil
    }

    // MARK: Receiving

    func receive(_ text: String, generation: Int) async {
        guard generation == self.generation else { return }
        let frame: ServerFrame
        do {
            frame = try ServerFrame(decoding: text)
        } catch {
            emit(.error(ParleyError(error.code, "a frame from the server: \(error.message)", path: error.path)))
            return
        }
        switch frame {
        case .state(let state) where state.type == .pong:
            pongs += 1
            // A server that spoke Parley's extension in this conversation before answers the hello before the
            // pong; if the pong overtook the welcome, wait for it rather than fall back to the base protocol.
            if opening != nil, capabilities.isEmpty, outbox.synced, !awaitingWelcome {
                awaitingWelcome = true
            } else if opening != nil, !awaitingWelcome {
                await opened(generation: generation)
            }
        case .state(let state) where state.type == .ping:
            try? await connection?.send(StateFrame.pong.jsonString())
        case .state(let state) where state.type == .parley:
            guard let welcome = ParleyWelcome(state) else { break }
            capabilities = Set(welcome.capabilities)
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
            if awaitingWelcome, opening != nil {
                awaitingWelcome = false
                await opened(generation: generation)
            }
        case .state(let state) where state.type == .ack:
            if let ack = Acknowledgement(state) { await acknowledged(ack) }
        case .message(let message):
            if opening != nil, case .error(let error) = message.payload.content {
                // A refusal: the close that follows carries the code; keep the server's words.
                openingError = ParleyError(error.errorCode ?? .connectionFailed, error.errorMessage)
            }
            await arrived(message)
        case .state, .suggestions, .unknown:
            break
        }
    }

    /// A message from the server: in sequence order when it has a sequence number, once each.
    private func arrived(_ message: SkillMessage) async {
        guard capabilities.contains(.sequence), let sequence = message.sequence else {
            // Sent before this socket's welcome by a server this conversation knows speaks Parley's extension:
            // it comes again, numbered, in the replay that follows the welcome.
            if capabilities.isEmpty, outbox.synced, message.payload.type != .error { return }
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
        let generation = self.generation
        gapTask = Task {
            defer { self.gapTask = nil }
            do {
                try await clock.sleep(for: timeout)
            } catch {
                return
            }
            guard generation == self.generation, self.sequencer.hasGap, let connection = self.connection else { return }
            let hello = ParleyHello(resumeAfter: self.sequencer.lastSequence)
            try? await connection.send(hello.stateFrame.jsonString())
        }
    }

    // MARK: Ending

    private func connectionEnded(_ ending: Result<TransportClose?, any Error>, generation: Int) async {
        guard generation == self.generation else { return }
        connection = nil
        heartbeatTask?.cancel()
        gapTask?.cancel()
        outbox.requeueSent()
        let error = Self.error(for: ending, openingError: openingError, authenticated: token != nil)
        if let opening {
            self.opening = nil
            opening.resume(throwing: error ?? ParleyError(.connectionFailed, "the server closed the socket"))
            return
        }
        guard wantsConnection else { return setStatus(.disconnected) }
        if let error, Self.isFinal(error) { return stopAfter(error, orRetryAttempt: 1) }
        scheduleReconnect(attempt: 1, immediately: false)
    }

    /// After a final error: one more attempt with a new token when the token expired (once in a row); otherwise
    /// the error is reported once and the client stays disconnected.
    private func stopAfter(_ error: ParleyError, orRetryAttempt attempt: Int) {
        if error.code == .tokenExpired, !refreshedExpiredToken, configuration.tokenProvider != nil {
            refreshedExpiredToken = true
            token = nil
            return scheduleReconnect(attempt: attempt, immediately: true)
        }
        wantsConnection = false
        emit(.error(error))
        setStatus(.disconnected)
    }

    /// What went wrong, from how the connection ended; `nil` for a normal close.
    static func error(
        for ending: Result<TransportClose?, any Error>, openingError: ParleyError?, authenticated: Bool
    ) -> ParleyError? {
        switch ending {
        case .failure(let error as ParleyError):
            return error
        case .failure(let error as WebSocketClientError) where error == .webSocketUpgradeFailed:
            return authenticated
                ? ParleyError(.invalidToken, "the server refused the socket upgrade (a bad token)", underlying: error)
                : ParleyError(.connectionFailed, "the server refused the socket upgrade", underlying: error)
        case .failure(let error):
            return ParleyError(.connectionFailed, "\(error)", underlying: error)
        case .success(let close):
            guard let close, let code = close.code, code != .normal else { return nil }
            if let openingError { return openingError }
            // Parley's reasons read "<error code>: <message>".
            if let reason = close.reason, let colon = reason.firstIndex(of: ":"), reason[..<colon].contains(".") {
                let message = reason[reason.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                return ParleyError(ParleyError.Code(rawValue: String(reason[..<colon])), message)
            }
            return ParleyError(
                .connectionFailed, "the server closed the socket with \(code.rawValue) \(close.reason ?? "")")
        }
    }

    /// Whether reconnecting with the same credentials cannot help.
    static func isFinal(_ error: ParleyError) -> Bool {
        let domain = error.code.rawValue.split(separator: ".").first
        return domain == "auth" || domain == "channel" || error.code == .tokenUnavailable
            || error.code == .invalidConfiguration
    }

    /// Forgets the current connection: its callbacks are ignored from now on and its task is cancelled.
    func abandonConnection() {
        generation += 1
        connection = nil
        connectionTask?.cancel()
        connectionTask = nil
        heartbeatTask?.cancel()
        heartbeatTask = nil
        gapTask?.cancel()
        outbox.requeueSent()
    }

    // MARK: Reconnecting

    /// Waits the policy's (jittered) delay, then tries again. Not while the app is in the background or the
    /// network is unreachable: the app's reports restart it.
    func scheduleReconnect(attempt: Int, immediately: Bool) {
        reconnectTask?.cancel()
        setStatus(.connecting)
        guard !suspended, networkReachable else { return }
        let policy = configuration.reconnect
        if let maxAttempts = policy.maxAttempts, attempt > maxAttempts {
            wantsConnection = false
            emit(.error(ParleyError(.connectionFailed, "gave up reconnecting after \(maxAttempts) attempts")))
            return setStatus(.disconnected)
        }
        reconnectAttempt = attempt
        let delay = immediately ? .zero : policy.delay(beforeAttempt: attempt, using: &random)
        let clock = self.clock
        reconnectTask = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            await self.reconnect(attempt: attempt)
        }
    }

    private func reconnect(attempt: Int) async {
        guard wantsConnection, !suspended, lifecycle == .initialized, connection == nil, opening == nil else { return }
        do {
            try await open()
        } catch {
            guard wantsConnection, reconnectAttempt == attempt else { return }
            if Self.isFinal(error) { return stopAfter(error, orRetryAttempt: attempt + 1) }
            scheduleReconnect(attempt: attempt + 1, immediately: false)
        }
    }

    // MARK: Heartbeat

    /// Every `heartbeatInterval` a JSON `ping`; no `pong` within `pongTimeout` means a dead (zombie) socket:
    /// the client drops it and reconnects.
    private func startHeartbeat(generation: Int) {
        heartbeatTask?.cancel()
        let clock = self.clock
        let interval = configuration.heartbeatInterval
        let timeout = configuration.pongTimeout
        heartbeatTask = Task {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                    guard let before = await self.sendHeartbeat(generation: generation) else { return }
                    try await clock.sleep(for: timeout)
                    guard self.pongs == before else { continue }
                    self.heartbeatMissed(generation: generation)
                    return
                } catch {
                    return
                }
            }
        }
    }

    /// Sends a `ping`; the pong count before it, or `nil` when the connection is gone.
    private func sendHeartbeat(generation: Int) async -> Int? {
        guard generation == self.generation, let connection else { return nil }
        let before = pongs
        try? await connection.send(StateFrame.ping.jsonString())
        return before
    }

    private func heartbeatMissed(generation: Int) {
        guard generation == self.generation else { return }
        let timeout = configuration.pongTimeout
        abandonConnection()
        emit(.error(ParleyError(.heartbeatTimeout, "no pong within \(timeout); reconnecting")))
        if wantsConnection { scheduleReconnect(attempt: 1, immediately: true) }
    }
}
