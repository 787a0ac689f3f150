import ParleyClient
import ParleyUI

/// Turns the rows of ParleyUI's ``ChatViewModel`` into lines of terminal text: the same rows, timestamps, sender
/// names, delivery and upload states a native screen draws, with actions numbered so that the user can choose one
/// by typing its number, and forms field by field.
///
/// A terminal only appends, so ``update(_:)`` returns the lines of what is new since the last call: a row the
/// first time it is complete (a streamed text once it ends), a failed delivery or upload when it fails, the typing
/// indicator each time it appears. Numbers start again at 1 with each skill turn (the first message after the user
/// spoke), so the numbers on screen are always the ones that work.
struct ChatRenderer {
    /// What a number stands for: a button of a row.
    struct Choice: Equatable {
        /// The button as it was printed; ``ChatViewModel/perform(_:in:)`` takes the current one.
        var item: ActionItem
        /// The id of the row it belongs to.
        var rowId: String
    }

    /// Whether to print the typing indicator (a terminal, not a pipe).
    var showsTyping = true
    private(set) var choices: [Choice] = []
    /// The latest edit form's row, for `/form`.
    private(set) var editForm: (rowId: String, content: EditFormContent)?
    /// What has been printed of each row: ``RowState``.
    private var printed: [String: RowState] = [:]
    private var typingShown = false
    private var turnOpen = false

    /// How far a row has been printed.
    private enum RowState: Equatable {
        case shown
        case failed
        case uploading
    }

    /// The user spoke: the next skill message starts a new numbering.
    mutating func userSpoke() {
        turnOpen = false
    }

    /// Whether the message row `id` has been printed.
    func hasPrinted(_ id: String) -> Bool {
        printed[id] == .shown
    }

    /// The lines for what is new in `rows`, and the skill and agent messages among them.
    mutating func update(_ rows: [ChatRow]) -> (lines: [String], messages: [MessageRow]) {
        var lines: [String] = []
        var messages: [MessageRow] = []
        var typing = false
        for row in rows {
            switch row {
            case .dayHeader(let header):
                guard printed[header.id] == nil else { continue }
                printed[header.id] = .shown
                lines.append("── \(header.text) ──")
            case .message(let message) where message.sender == .user:
                // The user typed it; only a failed delivery is news.
                guard message.delivery == .failed, printed[message.id] != .failed else { continue }
                printed[message.id] = .failed
                lines.append("! \(message.deliveryText ?? "") — /retry sends it again")
            case .message(let message):
                if case .text(_, isStreaming: true) = message.content { continue }
                guard printed[message.id] == nil else { continue }
                printed[message.id] = .shown
                lines += render(message)
                messages.append(message)
            case .upload(let upload):
                switch upload.state {
                case .uploading:
                    guard printed[upload.id] == nil else { continue }
                    printed[upload.id] = .uploading
                    lines.append("[\(upload.fileName): \(upload.statusText)]")
                case .failed:
                    guard printed[upload.id] != .failed else { continue }
                    printed[upload.id] = .failed
                    lines.append("! \(upload.fileName): \(upload.statusText) — /retry sends it again")
                }
            case .typing(let indicator):
                typing = true
                guard showsTyping, !typingShown else { continue }
                lines.append("\(indicator.name.map { "\($0): " } ?? "")\(indicator.text)")
            }
        }
        typingShown = typing
        return (lines, messages)
    }

    /// The lines of a message from the skill or an agent; its buttons get the next numbers.
    mutating func render(_ row: MessageRow) -> [String] {
        if !turnOpen {
            choices.removeAll()
            turnOpen = true
        }
        var lines: [String] = []
        if let header = row.headerText { lines.append(header) }
        switch row.content {
        case .text(let text, _):
            lines.append(text)
        case .cards(let cards):
            for card in cards.cards {
                var title = "• \(card.title)"
                if let description = card.description { title += " — \(description)" }
                lines.append(title)
                if let url = card.url { lines.append("    \(url)") }
                lines += numbered(card.actions, of: row, indent: "    ")
            }
        case .editForm(let form):
            lines += render(form, of: row)
        case .readOnly(let content):
            lines += render(readOnly: content, of: row)
        case .attachment(let attachment):
            lines.append("[\(attachment.type)] \(attachment.title ?? "") \(attachment.url)".squeezed)
        case .location(let location):
            let place = location.title.map { "\($0) " } ?? ""
            lines.append(
                "[location] \(place)(\(location.latitude), \(location.longitude))\(location.url.map { " \($0)" } ?? "")"
            )
        case .raw(let raw):
            lines.append("[raw] \(raw.jsonString())")
        case .error(let message):
            lines.append("error: \(message)")
        case .unknown(let type, let payload):
            lines.append("[\(type)] \(payload.jsonString())")
        }
        lines += numbered(row.actions, of: row, indent: "  ")
        lines += numbered(row.globalActions, of: row, indent: "  ")
        if let footerForm = row.message.payload.footerForm { lines += render(footerForm, of: row) }
        if let footer = row.footerText { lines.append(footer) }
        if let name = row.senderName, !lines.isEmpty { lines[0] = "\(name): \(lines[0])" }
        if let timestamp = row.timestamp { lines.append("  \(timestamp)") }
        return lines
    }

    private mutating func render(readOnly content: MessagePayload.Content, of row: MessageRow) -> [String] {
        var lines: [String] = []
        switch content {
        case .table(let table):
            if let title = table.tableTitle { lines.append(title) }
            lines += Self.grid(
                headings: table.headings.map(\.label), rows: table.rows.map { $0.fields.map(Self.value) })
        case .tableForm(let tableForm):
            if let title = tableForm.tableTitle { lines.append(title) }
            lines += Self.grid(
                headings: tableForm.headings.map(\.label), rows: tableForm.rows.map { $0.fields.map(Self.value) })
            for form in tableForm.forms { lines += render(form, of: row) }
        case .form(let form):
            for readOnly in form.forms { lines += render(readOnly, of: row) }
        default:
            break
        }
        return lines
    }

    private mutating func render(_ form: ReadOnlyForm, of row: MessageRow) -> [String] {
        var lines: [String] = []
        if let title = form.title { lines.append("[\(title)]") }
        for field in Self.fields(of: form) {
            if case .action(let action) = field.kind {
                lines += numbered([Self.item(action, of: row)], of: row, indent: "  ")
            } else {
                lines.append("  \(field.label.map { "\($0): " } ?? "")\(Self.value(field))")
            }
        }
        lines += numbered((form.actions ?? []).map { Self.item($0, of: row) }, of: row, indent: "  ")
        return lines
    }

    private mutating func render(_ content: EditFormContent, of row: MessageRow) -> [String] {
        let form = content.form
        if content.isEnabled { editForm = (row.id, content) }
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
        if content.isEnabled { lines.append("  (type /form to fill it in)") }
        let others = content.actions.filter { if case .submitForm = $0.action.kind { false } else { true } }
        lines += numbered(others, of: row, indent: "  ")
        return lines
    }

    private mutating func numbered(_ items: [ActionItem], of row: MessageRow, indent: String) -> [String] {
        items.map { item in
            choices.append(Choice(item: item, rowId: row.id))
            let answered = item.isEnabled ? "" : " (answered)"
            return "\(indent)[\(choices.count)] \(Self.describe(item.action))\(answered)"
        }
    }

    /// An action inside a read-only form, which the row builder leaves in the payload.
    private static func item(_ action: Action, of row: MessageRow) -> ActionItem {
        ActionItem(
            id: "\(row.id)/form/\(action.label ?? action.type.rawValue)", action: action, label: action.label,
            imageUrl: action.imageUrl, isEnabled: true)
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
