import ParleyClient

/// Turns messages into lines of terminal text: every payload type readably, actions numbered so that the
/// user can choose one by typing its number, forms field by field.
///
/// Numbers start again at 1 with each skill turn (the first message after the user spoke), so the numbers on
/// screen are always the ones that work.
struct ChatRenderer {
    /// What a number stands for.
    enum Choice: Equatable {
        case action(Action)
        /// A select option of an edit form's field.
        case option(fieldId: String, value: JSONValue, label: String)
    }

    private(set) var choices: [Choice] = []
    /// The latest edit form, for `/form`.
    private(set) var editForm: (form: MessagePayload.EditForm, actions: [Action])?
    private var turnOpen = false

    /// The user spoke: the next skill message starts a new numbering.
    mutating func userSpoke() {
        turnOpen = false
    }

    /// The lines for a message from the skill or an agent.
    mutating func render(_ message: ChatMessage) -> [String] {
        if !turnOpen {
            choices.removeAll()
            turnOpen = true
        }
        let who = message.sender == .agent ? agentName(message) : nil
        var lines = render(message.payload)
        if let who, !lines.isEmpty { lines[0] = "\(who): \(lines[0])" }
        return lines
    }

    private func agentName(_ message: ChatMessage) -> String {
        message.payload.channelExtensions?.agentSession?.name
            ?? message.payload.channelExtensions?.values["agentName"]?.stringValue ?? "Agent"
    }

    mutating func render(_ payload: MessagePayload) -> [String] {
        var lines: [String] = []
        if let header = payload.headerText { lines.append(header) }
        switch payload.content {
        case .text(let text):
            lines.append(text.text)
        case .postback(let postback):
            lines.append(postback.text ?? postback.postback.jsonString())
        case .textStream(let stream):
            if stream.streamState == .end || stream.streamState == .start {
                lines.append(stream.aggregateText ?? stream.text)
            }
        case .attachment(let attachment):
            lines.append(
                "[\(attachment.type)] \(attachment.title ?? attachment.filename ?? "") \(attachment.url)".squeezed)
        case .location(let location):
            let place = location.title.map { "\($0) " } ?? ""
            lines.append(
                "[location] \(place)(\(location.latitude), \(location.longitude))\(location.url.map { " \($0)" } ?? "")"
            )
        case .card(let cards):
            for card in cards.cards {
                var title = "• \(card.title)"
                if let description = card.description { title += " — \(description)" }
                lines.append(title)
                if let url = card.url { lines.append("    \(url)") }
                lines += numbered(card.actions ?? [], indent: "    ")
            }
        case .table(let table):
            if let title = table.tableTitle { lines.append(title) }
            lines += Self.grid(
                headings: table.headings.map(\.label), rows: table.rows.map { $0.fields.map(Self.value) })
        case .form(let form):
            for readOnly in form.forms { lines += render(readOnly) }
        case .tableForm(let tableForm):
            if let title = tableForm.tableTitle { lines.append(title) }
            lines += Self.grid(
                headings: tableForm.headings.map(\.label), rows: tableForm.rows.map { $0.fields.map(Self.value) })
            for readOnly in tableForm.forms { lines += render(readOnly) }
        case .editForm(let form):
            lines += render(form, actions: payload.actions ?? [])
        case .formSubmission(let submission):
            lines.append("[form] \(submission.submittedFields.jsonValue.jsonString())")
        case .status(let status):
            if status.status == .responding { lines.append("… typing") }
        case .sessionClosed:
            lines.append("[the conversation ended]")
        case .closeSession:
            lines.append("[end of conversation requested]")
        case .error(let error):
            lines.append("error: \(error.errorCode.map { "\($0): " } ?? "")\(error.errorMessage)")
        case .raw(let raw):
            lines.append("[raw] \(raw.payload.jsonString())")
        case .command(let command):
            if command.command != "noReply" { lines.append("[command \(command.command)]") }
        case .inboundEvent(let event), .outboundEvent(let event):
            lines.append("[event \(event.eventType)] \(event.eventData.jsonString())")
        case .executeApplicationActionCommand(let action):
            lines.append("[app action \(action.effectiveAction ?? "")]".squeezed)
        case .updateApplicationContextCommand(let context):
            lines.append("[app context \(context.source)]")
        case .suggest(let suggest):
            lines.append("[suggest \(suggest.query)]")
        case .getDebugInfoCommand(let request):
            lines.append("[debug info: \(request.infoTypes.joined(separator: ", "))]")
        case .unknown(let type):
            lines.append("[\(type)] \(payload.extra.jsonValue.jsonString())")
        }
        if case .editForm = payload.content {
            // The edit form numbers its own actions.
        } else {
            lines += numbered(payload.actions ?? [], indent: "  ")
        }
        lines += numbered(payload.globalActions ?? [], indent: "  ")
        if let footerForm = payload.footerForm { lines += render(footerForm) }
        if let footer = payload.footerText { lines.append(footer) }
        return lines
    }

    private mutating func render(_ form: ReadOnlyForm) -> [String] {
        var lines: [String] = []
        if let title = form.title { lines.append("[\(title)]") }
        for field in Self.fields(of: form) {
            if case .action(let action) = field.kind {
                lines += numbered([action], indent: "  ")
            } else {
                lines.append("  \(field.label.map { "\($0): " } ?? "")\(Self.value(field))")
            }
        }
        lines += numbered(form.actions ?? [], indent: "  ")
        return lines
    }

    private mutating func render(_ form: MessagePayload.EditForm, actions: [Action]) -> [String] {
        editForm = (form, actions)
        var lines = ["[form\(form.title.map { ": \($0)" } ?? "")]"]
        if let error = form.errorMessage { lines.append("  ! \(error)") }
        for field in form.allFields {
            let required = field.required == true ? ", required" : ""
            var line = "  \(field.label ?? field.id ?? "field") (\(field.kind.displayType)\(required))"
            if let value = field.value ?? field.defaultValue { line += " = \(Self.plain(value))" }
            if let placeholder = field.placeholder { line += " — \(placeholder)" }
            lines.append(line)
            if let error = field.serverErrorMessage { lines.append("    ! \(error)") }
            switch field.kind {
            case .singleSelect(let choices), .multiSelect(let choices):
                lines.append("    options: " + choices.options.map(\.label).joined(separator: ", "))
            case .toggle(let toggle):
                lines.append(
                    "    \(toggle.labelOn ?? Self.plain(toggle.valueOn))"
                        + " / \(toggle.labelOff ?? Self.plain(toggle.valueOff))"
                )
            default:
                break
            }
        }
        lines.append("  (type /form to fill it in)")
        lines += numbered(actions.filter { if case .submitForm = $0.kind { false } else { true } }, indent: "  ")
        return lines
    }

    private mutating func numbered(_ actions: [Action], indent: String) -> [String] {
        actions.map { action in
            choices.append(.action(action))
            return "\(indent)[\(choices.count)] \(Self.describe(action))"
        }
    }

    static func describe(_ action: Action) -> String {
        let label = action.label ?? action.imageUrl ?? "\(action.type)"
        switch action.kind {
        case .call(let number): return "\(label) (call \(number))"
        case .url(let url), .webview(let url): return "\(label) (\(url))"
        case .location: return "\(label) (sends a location: /location LAT,LONG)"
        default: return label
        }
    }

    /// The choice for a typed number, if the number is on screen.
    func choice(_ number: Int) -> Choice? {
        choices.indices.contains(number - 1) ? choices[number - 1] : nil
    }

    static func fields(of form: ReadOnlyForm) -> [Field] {
        form.fields ?? (form.formRows ?? []).flatMap { $0.columns.flatMap(\.fields) }
    }

    static func value(_ field: Field) -> String {
        switch field.kind {
        case .link(let style): return "\(style.linkLabel ?? "link") \(field.value.map(plain) ?? "")"
        case .media(let type): return "[\(type)] \(field.value.map(plain) ?? "")"
        default: return field.value.map(plain) ?? ""
        }
    }

    static func plain(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.jsonString()
    }

    /// Columns padded to their widest cell.
    static func grid(headings: [String], rows: [[String]]) -> [String] {
        let all = [headings] + rows
        let count = all.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            "  "
                + (0..<count).map { column in
                    let cell = row.indices.contains(column) ? row[column] : ""
                    return cell + String(repeating: " ", count: widths[column] - cell.count)
                }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }
}

extension String {
    fileprivate var squeezed: String {
        split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
