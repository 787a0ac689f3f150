public import Foundation

/// Turns a transcript into the rows of a message list: which messages show and how, timestamps and day headers,
/// runs of messages from one sender, avatars, the actions `disablePastActions` leaves usable, and what VoiceOver
/// reads. ``ChatViewModel`` uses it on every change; anything else that draws a conversation (a terminal, a test)
/// can use it on a transcript of its own.
///
/// ```swift
/// var builder = RowBuilder(now: Date())
/// builder.timestampMode = .relative
/// let rows = builder.rows(for: await client.messages())
/// ```
///
/// Not shown: the user's form submissions (the form shows what was entered), events, commands, typing notices,
/// `closeSession` and `sessionClosed`.
public struct RowBuilder: Sendable {
    /// The texts.
    public var strings: Strings
    /// `enableTimestamp`. Default `true`.
    public var enableTimestamp: Bool
    /// `timestampMode`. Default absolute.
    public var timestampMode: TimestampMode
    /// `timestampFormat`. Default `MMMM d, yyyy HH:mm`.
    public var timestampFormat: String
    /// The day headers' pattern; `nil` uses ``timestampFormat``.
    public var dayHeaderFormat: String?
    /// The time zone of timestamps and days.
    public var timeZone: TimeZone
    /// `disablePastActions`. Default `all`.
    public var disablePastActions: DisablePastActions
    /// How buttons are laid out.
    public var actionsLayout: ActionsLayout
    /// `botAvatar`.
    public var botAvatar: String?
    /// `agentAvatar`: for agents without an `avatarImage` of their own.
    public var agentAvatar: String?
    /// `personAvatar`: the user's.
    public var personAvatar: String?
    /// What the app set with `setAgentDetails` (and the server's latest description): every member that is set
    /// wins over what an agent message itself says.
    public var agentDetails: AgentSession?
    /// The time relative timestamps count from.
    public var now: Date
    /// Failed messages the user sent again: their rows are left out.
    public var hiddenMessageIds: Set<String>

    /// A builder with the defaults of Oracle's flags, English texts and the device's time zone.
    public init(
        strings: Strings = Strings(), enableTimestamp: Bool = true, timestampMode: TimestampMode = .absolute,
        timestampFormat: String = "MMMM d, yyyy HH:mm", dayHeaderFormat: String? = nil, timeZone: TimeZone = .current,
        disablePastActions: DisablePastActions = .all, actionsLayout: ActionsLayout = ActionsLayout(),
        botAvatar: String? = nil, agentAvatar: String? = nil, personAvatar: String? = nil,
        agentDetails: AgentSession? = nil, now: Date, hiddenMessageIds: Set<String> = []
    ) {
        self.strings = strings
        self.enableTimestamp = enableTimestamp
        self.timestampMode = timestampMode
        self.timestampFormat = timestampFormat
        self.dayHeaderFormat = dayHeaderFormat
        self.timeZone = timeZone
        self.disablePastActions = disablePastActions
        self.actionsLayout = actionsLayout
        self.botAvatar = botAvatar
        self.agentAvatar = agentAvatar
        self.personAvatar = personAvatar
        self.agentDetails = agentDetails
        self.now = now
        self.hiddenMessageIds = hiddenMessageIds
    }

    /// The rows of `messages` (oldest first): day headers and messages.
    public func rows(for messages: [ChatMessage]) -> [ChatRow] {
        let lastAnswerIndex = messages.lastIndex { $0.answersEarlierMessages }
        var built: [MessageRow] = []
        for (index, message) in messages.enumerated() where !hiddenMessageIds.contains(message.id) {
            let answered = lastAnswerIndex.map { $0 > index } ?? false
            if let row = row(for: message, answered: answered) { built.append(row) }
        }
        let absolute = formatter(timestampFormat)
        let header = formatter(dayHeaderFormat ?? timestampFormat)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let showsDays = enableTimestamp && timestampMode == .relative
        var rows: [ChatRow] = []
        var previousDay: Date?
        var previousKey: String?
        for (index, var row) in built.enumerated() {
            let day = calendar.startOfDay(for: row.date)
            let newDay = day != previousDay
            if showsDays, newDay {
                let parts = calendar.dateComponents([.year, .month, .day], from: day)
                let id = String(format: "day-%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                rows.append(.dayHeader(DayHeader(id: id, day: day, text: header.string(from: row.date))))
            }
            if enableTimestamp {
                if timestampMode == .relative {
                    let isLatest = index == built.count - 1
                    row.timestamp =
                        isLatest ? RelativeTime(elapsed: now.timeIntervalSince(row.date)).text(strings) : nil
                } else {
                    row.timestamp = absolute.string(from: row.date)
                }
            }
            let key = groupKey(row)
            let startsRun = key != previousKey || newDay
            let nextStartsRun: Bool = {
                guard index + 1 < built.count else { return true }
                let next = built[index + 1]
                return groupKey(next) != key || calendar.startOfDay(for: next.date) != day
            }()
            row.groupPosition =
                switch (startsRun, nextStartsRun) {
                case (true, true): .single
                case (true, false): .first
                case (false, false): .middle
                case (false, true): .last
                }
            if !row.groupPosition.startsGroup {
                row.avatar = nil
                row.senderName = nil
            }
            previousDay = day
            previousKey = key
            rows.append(.message(row))
        }
        return rows
    }

    /// How long until the relative timestamp of the latest message changes; `nil` when no timestamp will change
    /// (no messages, timestamps off, or absolute ones).
    public func timeUntilNextChange(for messages: [ChatMessage]) -> Duration? {
        guard enableTimestamp, timestampMode == .relative,
            let latest = messages.last(where: { !hiddenMessageIds.contains($0.id) && Self.isShown($0.payload) })
        else { return nil }
        let elapsed = max(now.timeIntervalSince(latest.date), 0)
        let wait = RelativeTime.nextChange(after: elapsed) - elapsed
        return .milliseconds(Int64((wait * 1000).rounded(.up)))
    }

    /// Whether a payload gets a row.
    static func isShown(_ payload: MessagePayload) -> Bool {
        switch payload.content {
        case .text, .postback, .textStream, .card, .editForm, .form, .table, .tableForm, .attachment, .location, .raw,
            .error, .unknown:
            true
        case .formSubmission, .status, .closeSession, .sessionClosed, .inboundEvent, .outboundEvent, .suggest,
            .command, .updateApplicationContextCommand, .executeApplicationActionCommand, .getDebugInfoCommand:
            false
        }
    }

    // MARK: One message

    private func row(for message: ChatMessage, answered: Bool) -> MessageRow? {
        let payload = message.payload
        guard Self.isShown(payload) else { return nil }
        let sender: Sender =
            switch message.sender {
            case .user: .user
            case .agent: .agent
            default: .skill
            }
        var agent: AgentSession?
        if sender == .agent {
            var details = payload.channelExtensions?.agentSession ?? AgentSession()
            if let current = agentDetails {
                if let name = current.name { details.name = name }
                if let image = current.avatarImage { details.avatarImage = image }
                if let color = current.nameTextColor { details.nameTextColor = color }
                if let color = current.avatarTextColor { details.avatarTextColor = color }
                if let color = current.avatarBackgroundColor { details.avatarBackgroundColor = color }
            }
            agent = details
        }
        let items = { (actions: [Action]?, place: String) -> [ActionItem] in
            (actions ?? []).enumerated().map { index, action in
                ActionItem(
                    id: "\(message.id)/\(place)/\(index)", action: action, label: action.label,
                    imageUrl: action.imageUrl, isEnabled: isEnabled(action.type, answered: answered))
            }
        }
        let content = content(of: payload, id: message.id, answered: answered, items: items)
        let delivery = sender == .user ? message.delivery : nil
        return MessageRow(
            id: message.id, sender: sender, isClientResponse: message.sender == .client, content: content,
            headerText: payload.headerText, footerText: payload.footerText,
            actions: payload.type == .editForm ? [] : items(payload.actions, "action"),
            globalActions: items(payload.globalActions, "global"), actionsLayout: actionsLayout.local,
            globalActionsLayout: actionsLayout.global, date: message.date, timestamp: nil,
            avatar: avatar(for: sender, agent: agent), senderName: agent?.name,
            senderNameColor: agent?.nameTextColor.flatMap(RGBA.init(css:)), groupPosition: .single, delivery: delivery,
            deliveryText: delivery.map(deliveryText), canRetry: delivery == .failed,
            accessibilityLabel: accessibilityLabel(sender: sender, agent: agent, content: content, payload: payload),
            message: message)
    }

    private func content(
        of payload: MessagePayload, id: String, answered: Bool, items: ([Action]?, String) -> [ActionItem]
    ) -> MessageContent {
        switch payload.content {
        case .text(let text): return .text(text.text, isStreaming: false)
        case .postback(let postback): return .text(postback.text ?? "", isStreaming: false)
        case .textStream(let stream): return .text(stream.text, isStreaming: stream.streamState != .end)
        case .card(let cards):
            let cardItems = cards.cards.enumerated().map { index, card in
                CardItem(
                    id: "\(id)/card/\(index)", title: card.title, description: card.description,
                    imageUrl: card.imageUrl, url: card.url, actions: items(card.actions, "card/\(index)"),
                    accessibilityLabel: cardAccessibilityLabel(card))
            }
            return .cards(CardsContent(layout: cards.layout, cards: cardItems))
        case .editForm(let form):
            return .editForm(
                EditFormContent(
                    form: form, actions: items(payload.actions, "action"),
                    isEnabled: isEnabled(.submitForm, answered: answered)))
        case .form, .table, .tableForm: return .readOnly(payload.content)
        case .attachment(let attachment):
            return .attachment(AttachmentContent(type: attachment.type, url: attachment.url, title: attachment.title))
        case .location(let location): return .location(location)
        case .raw(let raw): return .raw(raw.payload)
        case .error(let error): return .error(error.errorMessage)
        default: return .unknown(type: payload.type.rawValue, payload: payload.jsonValue)
        }
    }

    /// `disablePastActions`, as `ChatClient.isActionEnabled(_:in:)` applies it: nothing is disabled with `none`
    /// or before the user answered; `postback` disables only postback actions; `all` every action.
    private func isEnabled(_ type: ActionType, answered: Bool) -> Bool {
        guard disablePastActions != .none, answered else { return true }
        return disablePastActions == .postback && type != .postback
    }

    private func avatar(for sender: Sender, agent: AgentSession?) -> Avatar? {
        switch sender {
        case .user: return personAvatar.map(Avatar.image)
        case .skill: return botAvatar.map(Avatar.image)
        case .agent:
            if let image = agent?.avatarImage ?? agentAvatar { return .image(image) }
            guard let name = agent?.name, !name.isEmpty else { return nil }
            let initials = name.split(separator: " ").prefix(2).compactMap { $0.first.map { String($0).uppercased() } }
            return .initials(
                initials.joined(), text: agent?.avatarTextColor.flatMap(RGBA.init(css:)),
                background: agent?.avatarBackgroundColor.flatMap(RGBA.init(css:)))
        }
    }

    private func deliveryText(_ delivery: DeliveryState) -> String {
        switch delivery {
        case .pending: strings[.deliveryPending]
        case .sent: strings[.deliverySent]
        case .acknowledged: strings[.deliveryAcknowledged]
        case .failed: strings[.deliveryFailed]
        }
    }

    // MARK: VoiceOver

    private func accessibilityLabel(
        sender: Sender, agent: AgentSession?, content: MessageContent, payload: MessagePayload
    ) -> String {
        var parts: [String] = []
        switch sender {
        case .user: parts.append(strings[.accessLabelUser])
        case .skill: parts.append(strings[.accessLabelSkill])
        case .agent: parts.append([strings[.accessLabelAgent], agent?.name].compactMap { $0 }.joined(separator: " "))
        }
        if let header = payload.headerText { parts.append("\(strings[.accessLabelHeaderText]) \(header)") }
        switch content {
        case .text(let text, _): parts.append("\(strings[.accessLabelTextMessage]) \(text)")
        case .error(let text): parts.append("\(strings[.accessLabelTextMessage]) \(text)")
        case .cards(let cards): parts.append(contentsOf: cards.cards.map(\.accessibilityLabel))
        case .attachment(let attachment):
            let key: StringKey =
                switch attachment.type {
                case .image: .accessLabelImageAttachment
                case .video: .accessLabelVideoAttachment
                case .audio: .accessLabelAudioAttachment
                default: .accessLabelFileAttachment
                }
            parts.append([strings[key], attachment.title].compactMap { $0 }.joined(separator: " "))
        case .location(let location):
            let place = [location.title, "\(location.latitude), \(location.longitude)"].compactMap { $0 }
            parts.append(([strings[.accessLabelLocationMessage]] + place).joined(separator: " "))
        case .editForm(let form):
            parts.append([strings[.accessLabelFormMessage], form.form.title].compactMap { $0 }.joined(separator: " "))
        case .readOnly: parts.append(strings[.accessLabelFormMessage])
        case .raw, .unknown: parts.append(strings[.accessLabelOtherMessage])
        }
        if let footer = payload.footerText { parts.append("\(strings[.accessLabelFooterText]) \(footer)") }
        return parts.joined(separator: ", ")
    }

    private func cardAccessibilityLabel(_ card: Card) -> String {
        var parts = ["\(strings[.accessLabelCardTitle]) \(card.title)"]
        if let description = card.description {
            parts.append("\(strings[.accessLabelCardDescription]) \(description)")
        }
        return parts.joined(separator: ", ")
    }

    private func groupKey(_ row: MessageRow) -> String {
        switch row.sender {
        case .user: "user"
        case .skill: "skill"
        case .agent: "agent:\(row.senderName ?? "")"
        }
    }

    private func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: strings.locale)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter
    }
}
