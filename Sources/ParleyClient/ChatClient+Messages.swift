import Foundation

extension ChatClient {
    // MARK: Sending

    /// Sends any user payload (text, postback, location, attachment, form submission, an event…).
    @discardableResult
    public func send(_ payload: MessagePayload) async throws(ParleyError) -> ChatMessage? {
        try checkInitialized()
        return try await send(userMessage(payload), record: true)
    }

    /// Sends the postback of an action the user chose (a `postback` action), with the action's label as text.
    /// ``Hooks/beforeSendPostback`` sees the action first, then ``Hooks/beforeSend`` the message.
    /// - Throws: ``ParleyError/Code/unsupportedAction`` for an action that is not a postback (calls, links and
    ///   location requests are the app's to perform).
    @discardableResult
    public func sendPostback(_ action: Action) async throws(ParleyError) -> ChatMessage? {
        try checkInitialized()
        var action = action
        if let hook = hooks.beforeSendPostback {
            guard let changed = await hook(action) else { return nil }
            action = changed
        }
        guard case .postback(let postback) = action.kind else {
            throw ParleyError(.unsupportedAction, "a \(action.type) action has no postback to send")
        }
        return try await send(.postback(postback, text: action.label))
    }

    /// Submits an edit form: the fields' values by field id, and — for a field with `autoSubmit` — its id as
    /// `partialSubmitField`.
    @discardableResult
    public func submitForm(
        _ submittedFields: JSONObject, partialSubmitField: String? = nil, postback: JSONValue? = nil
    ) async throws(ParleyError) -> ChatMessage? {
        let submission = MessagePayload.FormSubmission(
            submittedFields: submittedFields, partialSubmitField: partialSubmitField, postback: postback)
        return try await send(MessagePayload(.formSubmission(submission)))
    }

    /// Sends a profile update (`{"profile":{…}}`), through the outbox, after what was sent before it; the skill
    /// reads it as the user's profile.
    public func updateProfile(_ profile: Profile) async throws(ParleyError) {
        try checkInitialized()
        var update = ProfileUpdate(
            profile: profile, userId: identity.userId, sdkMetadata: SDKMetadata(version: configuration.sdkVersion))
        let id = Self.newMessageId()
        update.clientMessageId = id
        try outbox.add(OutboxItem(id: id, frame: update.jsonValue, transcriptId: nil))
        await pumpOutbox()
    }

    /// Ends the conversation (Oracle's `endChat()`, the close button of `enableEndConversation`): asks the
    /// listener's `beforeEndConversation`, sends `closeSession` (waiting at most `connectionTimeout` for it to be
    /// delivered), disconnects, erases the local history (transcript and outbox), and reports
    /// ``ChatEvent/transcriptCleared`` and ``ChatEvent/chatEnded``. The next ``connect()`` starts a new
    /// conversation, with its opening messages.
    /// - Throws: ``ParleyError/Code/featureDisabled`` when `enableEndConversation` is off;
    ///   ``ParleyError/Code/endConversationCancelled`` when `beforeEndConversation` reports an error.
    public func endChat() async throws(ParleyError) {
        try checkInitialized()
        guard configuration.enableEndConversation else {
            throw ParleyError(.featureDisabled, "ending the conversation is switched off (enableEndConversation)")
        }
        if let listener, await listener.beforeEndConversation() == .error {
            throw ParleyError(.endConversationCancelled, "beforeEndConversation reported an error")
        }
        endingChat = true
        defer { endingChat = false }
        if status == .connected {
            var close = userMessage(.closeSession)
            let id = Self.newMessageId()
            close.clientMessageId = id
            try outbox.add(OutboxItem(id: id, frame: close.jsonValue, transcriptId: nil))
            endingTurn = true
            await pumpOutbox()
            // The skill's goodbye belongs to the conversation being erased: wait for it (its end of turn, or
            // `sessionClosed`) so that it does not turn up in the next one.
            await waitForDelivery(of: id, within: configuration.connectionTimeout)
            await waitForDelivery(of: Self.endOfTurnWaiter, within: configuration.connectionTimeout)
            endingTurn = false
        }
        stopUploads(forget: true)
        await disconnect()
        resetConversationState()
        try transcript.clear()
        try outbox.reset()
        sequencer = InboundSequencer(lastSequence: 0)
        try await queueOpening()
        emit(.transcriptCleared)
        emit(.chatEnded)
    }

    /// The waiter key of the skill's answer to `closeSession`.
    static let endOfTurnWaiter = "end of turn"

    /// Waits until an outbox item is delivered (or failed) — or, for ``endOfTurnWaiter``, the skill's turn ended —
    /// at most `timeout`.
    private func waitForDelivery(of id: String, within timeout: Duration) async {
        guard id == Self.endOfTurnWaiter ? endingTurn : outbox.items.contains(where: { $0.id == id }) else { return }
        let clock = self.clock
        let timer = Task {
            try? await clock.sleep(for: timeout)
            self.delivered(id)
        }
        await withCheckedContinuation { deliveryWaiters[id] = $0 }
        timer.cancel()
    }

    /// An outbox item reached a final state: whoever waits for it goes on.
    func delivered(_ id: String) {
        deliveryWaiters.removeValue(forKey: id)?.resume()
    }

    /// The envelope of a user message on this connection.
    func userMessage(_ payload: MessagePayload) -> UserMessage {
        UserMessage(
            payload: payload, userId: identity.userId, sdkMetadata: SDKMetadata(version: configuration.sdkVersion))
    }

    /// Runs ``Hooks/beforeSend``, keeps and reports the message when `record` is true, and queues it.
    func send(_ message: UserMessage, record: Bool) async throws(ParleyError) -> ChatMessage? {
        var message = message
        if let hook = hooks.beforeSend {
            guard let changed = await hook(message) else { return nil }
            message = changed
        }
        let id = Self.newMessageId()
        message.clientMessageId = id
        let entry = record ? ChatMessage(id: id, envelope: .user(message), delivery: .pending) : nil
        try outbox.add(OutboxItem(id: id, frame: message.jsonValue, transcriptId: entry?.id))
        if let entry {
            let first = !transcript.messages.contains { $0.sender == .user }
            self.record(entry)
            emit(.messageSent(entry))
            waitForReply(firstOfConversation: first)
        }
        await pumpOutbox()
        return entry.flatMap { transcript.message(id: $0.id) } ?? entry
    }

    /// Writes what waits in the outbox, in order. With acknowledgements: one frame at a time, the next after the
    /// server acknowledged the previous (so a reordering network cannot change the order the skill sees).
    /// Without: every frame once, then it leaves the outbox as `sent`.
    func pumpOutbox() async {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while status == .connected, let connection, let head = outbox.items.first {
            let acknowledged = serverCapabilities.contains(.acknowledgements)
            if head.state == .sent {
                guard !acknowledged else { return }  // waiting for its acknowledgement
            }
            if head.attempts >= configuration.maxSendAttempts {
                await fail(head, ParleyError(.connectionFailed, "no acknowledgement after \(head.attempts) attempts"))
                continue
            }
            var frame = head.frame
            if !acknowledged, case .object(let object) = frame { frame = .object(object.removing("clientMessageId")) }
            let text = frame.jsonString()
            if let limit = serverMaxFrameSize, text.utf8.count > limit {
                await fail(
                    head,
                    ParleyError(.frameTooLarge, "the message has \(text.utf8.count) bytes; the server takes \(limit)"))
                continue
            }
            let attempt = connectionMachine.currentAttempt
            do {
                try await connection.send(text)
            } catch {
                return  // the socket closed: the frame is sent again after reconnecting
            }
            guard attempt == connectionMachine.currentAttempt else { return }  // the socket was replaced meanwhile
            do {
                if acknowledged {
                    try outbox.markSent(head.id)
                } else {
                    try outbox.remove(head.id)
                    delivered(head.id)
                }
            } catch {
                emit(.error(error))
            }
            setDelivery(.sent, of: head)
        }
    }

    /// The server's acknowledgement: the frame leaves the outbox, and the next one goes.
    func acknowledged(_ ack: Acknowledgement) async {
        guard let item = outbox.items.first(where: { $0.id == ack.clientMessageId }) else { return }  // a repeat
        if let error = ack.error, error.code == .rateLimited {
            // Not refused for good: the conversation sent more than the server takes per minute. The message stays
            // first in the outbox and goes again once the server's window allows (`retryAfter`).
            let clock = self.clock
            let delay = Duration.seconds(max(1, min(ack.retryAfter ?? 1, 600)))
            rateLimitTask?.cancel()
            rateLimitTask = Task {
                do { try await clock.sleep(for: delay) } catch { return }
                await self.sendAgainAfterRateLimit()
            }
            return
        }
        if let error = ack.error {
            await fail(item, error)
        } else {
            do {
                try outbox.remove(item.id)
            } catch {
                emit(.error(error))
            }
            setDelivery(.acknowledged, of: item)
        }
        delivered(item.id)
        await pumpOutbox()
    }

    /// The outbox's written frames go again after a `server.rateLimited` acknowledgement's wait.
    private func sendAgainAfterRateLimit() async {
        outbox.requeueSent()
        await pumpOutbox()
    }

    /// A frame that will never be delivered: out of the outbox, marked failed, reported.
    private func fail(_ item: OutboxItem, _ error: ParleyError) async {
        do {
            try outbox.remove(item.id)
        } catch {
            emit(.error(error))
        }
        setDelivery(.failed, of: item)
        delivered(item.id)
        emit(.error(ParleyError(error.code, "a message was not delivered: \(error.message)", path: error.path)))
    }

    private func setDelivery(_ state: DeliveryState, of item: OutboxItem) {
        guard let id = item.transcriptId else { return }
        do {
            try transcript.setDelivery(state, of: id)
        } catch {
            emit(.error(error))
        }
        if let message = transcript.message(id: id) { emit(.deliveryChanged(message)) }
    }

    // MARK: Receiving

    /// A message the user sent on another socket (a second tab or device; docs/protocol.md §13.6): kept and reported
    /// as the user's own (``ChatEvent/messageSent(_:)``, delivery `acknowledged`), once. One this client sent itself
    /// (its `clientMessageId` is in the transcript or the outbox) is not shown again, nor one the client would not
    /// show had it sent it: `closeSession`, a typing `status`, the hidden opening message.
    func sentElsewhere(_ echoed: EchoedUserMessage) {
        let message = echoed.message
        let id = message.clientMessageId ?? "user-\(echoed.sequence)"
        guard transcript.message(id: id) == nil, !outbox.items.contains(where: { $0.id == id }),
            message.payload.type != .closeSession, message.payload.type != .status,
            configuration.initUserHiddenMessage == nil || message.payload.text != configuration.initUserHiddenMessage
        else { return }
        let entry = ChatMessage(id: id, envelope: .user(message), delivery: .acknowledged)
        record(entry)
        emit(.messageSent(entry))
    }

    /// A message from the skill or an agent: ``Hooks/beforeDisplay``, then kept (unless it is a typing
    /// indicator) and reported. A `textStream` piece, a message with `replaceMessage` or one with `appendMessage`
    /// changes an earlier entry in place (``ChatEvent/messageUpdated(_:)``). `sessionClosed` also reports
    /// ``ChatEvent/chatEnded``.
    func display(_ message: SkillMessage) async {
        otherSideSent(message)
        var message = message
        if let hook = hooks.beforeDisplay {
            guard let changed = await hook(message) else { return }
            message = changed
        }
        if let updated = updateInPlace(with: message) {
            do {
                try transcript.replace(updated)
            } catch {
                emit(.error(error))
            }
            return emit(.messageUpdated(updated))
        }
        let entry = ChatMessage(id: message.msgId ?? UUID().uuidString, envelope: .skill(message))
        switch message.payload.content {
        case .status, .sessionClosed:
            break
        default:
            record(entry)
        }
        emit(.messageReceived(entry))
        readAloud(entry)
        if endingTurn, message.endOfTurn == true || message.payload.type == .sessionClosed {
            endingTurn = false
            delivered(Self.endOfTurnWaiter)
        }
        if case .sessionClosed = message.payload.content, !endingChat {  // endChat() reports its own end
            resetConversationState()
            emit(.chatEnded)
        }
    }

    /// The earlier entry `message` changes, changed; `nil` when it is a new entry.
    ///
    /// - `textStream`: `start` opens an entry; `running` adds its text to the entry of the same `streamId` (or sets
    ///   its `aggregateText`, the text so far, when it has one); `end` is the whole message (its text the
    ///   `aggregateText`, or its `text`; its actions, header and footer). A `start` whose `streamId` has an entry
    ///   that did not end restarts that entry: the server answers the same input again after it was stopped
    ///   mid-stream (killed, restarted), and the half answer must not stay beside the new one.
    /// - `replaceMessage`: replaces the latest skill message of the same payload type (an edit form replacing
    ///   the form it answers), or else the latest skill message.
    /// - `appendMessage` on a text: adds the text, on a new line, to the latest skill message if it is a text.
    private func updateInPlace(with message: SkillMessage) -> ChatMessage? {
        let skillEntries = transcript.messages.lazy.reversed().filter { $0.sender != .user }
        if case .textStream(let piece) = message.payload.content {
            guard
                var entry = skillEntries.first(where: {
                    if case .textStream(let open) = $0.payload.content {
                        open.streamId == piece.streamId
                    } else {
                        false
                    }
                }), case .textStream(var stream) = entry.payload.content
            else { return nil }
            if piece.streamState == .start {
                guard stream.streamState != .end else { return nil }
                entry.payload = message.payload
                return entry
            }
            if piece.streamState == .end {
                // The end is the answer as stored: its actions, header and footer too (a model's choices).
                entry.payload = message.payload
                stream = MessagePayload.TextStream(
                    text: piece.aggregateText ?? piece.text, streamState: .end, streamId: piece.streamId)
            } else {
                // The whole text so far when the server gives it: a client that attached mid-stream (reconnected,
                // or a second device) then shows the answer, not its own pieces with a gap.
                stream.text = piece.aggregateText ?? stream.text + piece.text
                stream.streamState = piece.streamState
            }
            entry.payload.content = .textStream(stream)
            return entry
        }
        if message.payload.channelExtensions?.replaceMessage == true,
            let previous = skillEntries.first(where: { $0.payload.type == message.payload.type })
                ?? skillEntries.first
        {
            return ChatMessage(id: previous.id, date: previous.date, envelope: .skill(message))
        }
        if message.payload.channelExtensions?.appendMessage == true, case .text(let addition) = message.payload.content,
            var previous = skillEntries.first, case .text(var text) = previous.payload.content
        {
            text.text += "\n" + addition.text
            previous.payload.content = .text(text)
            return previous
        }
        return nil
    }
}
