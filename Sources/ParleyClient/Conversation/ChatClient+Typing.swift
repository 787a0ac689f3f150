extension ChatClient {
    // MARK: The other side typing

    /// Who is typing on the other side, as the client shows it: ``ChatEvent/typingChanged(_:)`` reports changes.
    public var typingIndicator: TypingIndicator? { typing }

    /// Shows or hides the typing indicator; a shown one hides by itself after `typingStatusTimeout`.
    func setTyping(_ indicator: TypingIndicator?) {
        typingTimer?.cancel()
        typingTimer = nil
        if let indicator {
            let clock = self.clock
            let timeout = configuration.typingStatusTimeout
            typingTimer = Task { [weak self] in
                guard (try? await clock.sleep(for: timeout)) != nil else { return }
                await self?.typingTimedOut(indicator)
            }
        }
        guard indicator != typing else { return }
        typing = indicator
        emit(.typingChanged(indicator))
    }

    private func typingTimedOut(_ indicator: TypingIndicator) {
        guard typing == indicator else { return }
        typing = nil
        typingTimer = nil
        emit(.typingChanged(nil))
    }

    /// A message from the skill or an agent arrived: typing and the wait for a reply follow it.
    ///
    /// - An agent's `status` shows (`RESPONDING`) or hides (`LISTENING`) the agent's typing indicator.
    /// - Any other message hides the indicator and ends the wait for a reply (no default response follows).
    /// - A message from an agent makes that agent the conversation's (``agentDetails``); a later one from the
    ///   skill hands the conversation back.
    func otherSideSent(_ message: SkillMessage) {
        let fromAgent = message.effectiveSource == .agent
        if fromAgent {
            let details = message.payload.channelExtensions?.agentSession ?? agentFromServer ?? AgentSession()
            if !agentActive || details != agentFromServer {
                agentActive = true
                agentFromServer = details
                emit(.agentChanged(agentDetails))
            }
        } else if agentActive, message.effectiveSource == .bot {
            agentActive = false
            emit(.agentChanged(nil))
        }
        if case .status(let status) = message.payload.content {
            guard fromAgent else { return }
            setTyping(status.status == .responding ? .agent(agentDetails) : nil)
            return
        }
        endWaitingForReply()
        setTyping(nil)
    }

    // MARK: Waiting for the skill

    /// The user sent a message: show that the skill is responding and, with `enableDefaultClientResponse`, answer
    /// for a slow skill with the `odais_default_*` messages. Not while a live agent has the conversation.
    func waitForReply(firstOfConversation: Bool) {
        guard !agentActive else { return }
        setTyping(.skill)
        endWaitingForReply()
        guard configuration.enableDefaultClientResponse else { return }
        let wait = replyWait
        let clock = self.clock
        let greeting = configuration.defaultGreetingTimeout
        let interval = configuration.defaultWaitMessageInterval
        let limit = configuration.typingStatusTimeout
        defaultResponseTask = Task { [weak self] in
            // First message: greeting after `defaultGreetingTimeout`; later ones start with the wait message.
            var waited = Duration.zero
            var next = firstOfConversation ? min(greeting, limit) : min(interval, limit)
            var kind: DefaultResponse = firstOfConversation ? .greeting : .wait
            while true {
                guard (try? await clock.sleep(for: next - waited)) != nil, let self else { return }
                waited = next
                if waited >= limit {
                    await self.sayDefault(.sorry, wait: wait)
                    return
                }
                guard await self.sayDefault(kind, wait: wait) else { return }
                kind = .wait
                next = min(waited + interval, limit)
            }
        }
    }

    /// The skill answered, the conversation ended, or the connection went: no default response follows.
    func endWaitingForReply() {
        replyWait += 1
        defaultResponseTask?.cancel()
        defaultResponseTask = nil
    }

    /// Shows one of the client's own default responses as a message from ``ChatMessage/Sender/client``; the sorry
    /// message also hides the typing indicator. Returns whether the client still waits (for wait number `wait`).
    @discardableResult
    private func sayDefault(_ kind: DefaultResponse, wait: Int) -> Bool {
        guard wait == replyWait else { return false }
        let strings = configuration.defaultResponseStrings
        let text: String =
            switch kind {
            case .greeting: strings.greeting
            case .wait: strings.wait
            case .sorry: strings.sorry
            }
        let message = SkillMessage(
            payload: .text(text), source: .client, userId: identity.userId,
            msgId: "\(kind.rawValue)-\(Self.newMessageId())")
        let entry = ChatMessage(id: message.msgId ?? "", envelope: .skill(message))
        record(entry)
        emit(.messageReceived(entry))
        if kind == .sorry {
            endWaitingForReply()
            setTyping(nil)
            return false
        }
        return true
    }

    private enum DefaultResponse: String {
        case greeting = "odais_default_greeting_message"
        case wait = "odais_default_wait_message"
        case sorry = "odais_default_sorry_message"
    }

    /// Forgets typing, the wait for a reply and the agent: the conversation ended or the client was destroyed.
    func resetConversationState() {
        endWaitingForReply()
        setTyping(nil)
        typingThrottle?.cancel()
        typingThrottle = nil
        typingDraft = nil
        if agentActive {
            agentActive = false
            emit(.agentChanged(nil))
        }
        agentFromServer = nil
    }

    // MARK: The user typing

    /// Tells a live agent that the user is typing (`RESPONDING`, with the draft) or stopped (`LISTENING`) — Oracle's
    /// `sendUserTypingStatus(status:text:)`.
    ///
    /// Sent only with `enableSendTypingStatus` and only while an agent has the conversation (a skill has no use
    /// for it); otherwise nothing is sent and the call returns `false`. `RESPONDING` goes at most once per
    /// `typingStatusInterval` (at least 3 s): calls in between only update the draft, which goes when the interval
    /// ends. `LISTENING` goes at once. The agent sees the draft only with `enableAgentSneakPreview`, otherwise
    /// `"..."`. Typing notices are not kept, acknowledged or sent again after a reconnect.
    /// - Returns: Whether the notice was sent or is due at the end of the interval.
    @discardableResult
    public func sendUserTypingStatus(_ status: TypingStatus, text: String? = nil) async throws(ParleyError) -> Bool {
        try checkInitialized()
        guard configuration.enableSendTypingStatus, agentActive else { return false }
        if status == .responding {
            typingDraft = text ?? ""
            guard typingThrottle == nil else { return true }
            await sendTypingNotice(.responding)
            startTypingThrottle()
        } else {
            typingThrottle?.cancel()
            typingThrottle = nil
            typingDraft = nil
            await sendTypingNotice(status)
        }
        return true
    }

    /// Holds further `RESPONDING` notices for `typingStatusInterval`, then sends the latest draft if it changed.
    private func startTypingThrottle() {
        let clock = self.clock
        let interval = configuration.typingStatusInterval
        let sentDraft = typingDraft
        typingThrottle = Task { [weak self] in
            guard (try? await clock.sleep(for: interval)) != nil else { return }
            await self?.typingIntervalEnded(sentDraft: sentDraft)
        }
    }

    private func typingIntervalEnded(sentDraft: String?) async {
        typingThrottle = nil
        guard let draft = typingDraft, draft != sentDraft else { return }
        await sendTypingNotice(.responding)
        startTypingThrottle()
    }

    private func sendTypingNotice(_ status: TypingStatus) async {
        guard status == .responding || typingDraft == nil, let connection, self.status == .connected else { return }
        let text = status == .responding ? (configuration.enableAgentSneakPreview ? typingDraft ?? "" : "...") : nil
        let payload = MessagePayload(.status(.init(status, partyType: "user", source: "sdk", text: text)))
        try? await connection.send(userMessage(payload).jsonString())
    }

    // MARK: Agent details

    /// The live agent who has the conversation, as the server described them (`channelExtensions.agentSession`)
    /// with what ``setAgentDetails(_:)`` overrides on top; `nil` while no agent has it.
    public var agentDetails: AgentSession? {
        guard agentActive else { return nil }
        var details = agentFromServer ?? AgentSession()
        guard let override = agentOverride else { return details }
        if let name = override.name { details.name = name }
        if let image = override.avatarImage { details.avatarImage = image }
        if let color = override.nameTextColor { details.nameTextColor = color }
        if let color = override.avatarTextColor { details.avatarTextColor = color }
        if let color = override.avatarBackgroundColor { details.avatarBackgroundColor = color }
        for member in override.extra { details.extra[member.key] = member.value }
        return details
    }

    /// Overrides what the server says about the agent (Oracle's `setAgentDetails(agentDetails:)`): every member
    /// that is set wins over the server's; `nil` members keep the server's. `nil` removes the override.
    public func setAgentDetails(_ details: AgentSession?) {
        agentOverride = details
        if agentActive { emit(.agentChanged(agentDetails)) }
    }

    /// The agent details in effect (Oracle's `getAgentDetails()`): the override alone while no agent has the
    /// conversation.
    public func getAgentDetails() -> AgentSession? {
        agentDetails ?? agentOverride
    }

    /// Changes the user's avatar (an asset name or URL) for every message, earlier ones included (Oracle's
    /// `setPersonAvatar(avatarAsset:)`). UI only: an interface reads `configuration.personAvatar`.
    public func setPersonAvatar(_ avatar: String?) {
        configuration.personAvatar = avatar
    }
}
