import ParleyCore

/// One-line descriptions of frames, for `parley decode`.
enum FrameSummary {
    static func describe(_ frame: ServerFrame) -> String {
        switch frame {
        case .message(let message):
            "\(message.effectiveSource) message: \(describe(message.payload))"
        case .state(let state): "state \(state.type)"
        case .suggestions(let answer): "suggestions (\(answer.suggestions.count))"
        case .unknown(let object): "unknown frame with keys \(object.keys.joined(separator: ", "))"
        }
    }

    static func describe(_ frame: ClientFrame) -> String {
        switch frame {
        case .message(let message): "user message: \(describe(message.payload))"
        case .profile(let update):
            "profile update (\(update.profile.jsonValue.objectValue?.keys.joined(separator: ", ") ?? ""))"
        case .state(let state): "state \(state.type)"
        case .unknown(let object): "unknown frame with keys \(object.keys.joined(separator: ", "))"
        }
    }

    static func describe(_ payload: MessagePayload) -> String {
        var parts: [String] = []
        switch payload.content {
        case .card(let cards): parts.append("\(cards.cards.count) \(cards.layout) card(s)")
        case .table(let table): parts.append("\(table.headings.count) column(s), \(table.rows.count) row(s)")
        case .form(let form): parts.append("\(form.forms.count) form(s)")
        case .tableForm(let tableForm): parts.append("\(tableForm.rows.count) row(s) with forms")
        case .editForm(let form): parts.append("\(form.allFields.count) field(s)")
        case .formSubmission(let submission): parts.append("\(submission.submittedFields.count) value(s)")
        case .attachment(let attachment): parts.append("\(attachment.type) \(attachment.url)")
        case .location(let location): parts.append("\(location.latitude), \(location.longitude)")
        case .textStream(let stream): parts.append(stream.streamState.rawValue)
        case .command(let command): parts.append(command.command.rawValue)
        case .error(let error): parts.append(error.errorCode.map { "\($0)" } ?? "")
        case .unknown: parts.append("not known to this version, kept as is")
        default: break
        }
        if let text = payload.text { parts.append(quote(text)) }
        let actions = (payload.actions?.count ?? 0) + (payload.globalActions?.count ?? 0)
        if actions > 0 { parts.append("\(actions) action(s)") }
        return ([payload.type.rawValue] + (parts.isEmpty ? [] : [parts.joined(separator: ", ")])).joined(
            separator: " — ")
    }

    private static func quote(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return "\"" + (line.count > 60 ? String(line.prefix(57)) + "..." : line) + "\""
    }
}
