import Foundation
import ParleyClient

/// A chat in the terminal on top of ``ChatClient``: what `parley chat` and `parley demo` run.
///
/// Interactive (a terminal on stdin): messages as they arrive, connection status and typing shown, actions
/// chosen by number, `/form` fills the latest edit form field by field. Piped (a file or a pipe on stdin): one
/// message per line; after each, the skill's replies are printed as text before the next line is sent, and the
/// chat ends after the last line's replies.
actor TerminalChat {
    let client: ChatClient
    let interactive: Bool
    private var renderer = ChatRenderer()
    /// Messages from the skill since the user last spoke, and when the last one came.
    private var repliesSinceSend = 0
    private var turnEnded = false
    private var lastReply = ContinuousClock.now

    init(client: ChatClient, interactive: Bool) {
        self.client = client
        self.interactive = interactive
    }

    /// Runs the chat until stdin ends or the user types `/quit`; returns the exit status.
    func run(lines: AsyncStream<String>) async -> Int32 {
        let events = await client.events()
        let printer = Task { for await event in events { self.show(event) } }
        defer { printer.cancel() }
        do {
            try await client.initialize()
        } catch {
            Self.error("cannot connect: \(error.code): \(error.message)")
            return 1
        }
        if interactive {
            Self.say("Type a message, a number to choose an action, /help for commands, /quit to leave.")
        } else if await client.configuration.initUserHiddenMessage != nil {
            await waitForTurn()  // the answer to the hidden init message
        }
        var input = lines.makeAsyncIterator()
        while let line = await input.next(isolation: #isolation) {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            if text == "/quit" || text == "/exit" { break }
            let spoke: Bool
            do {
                spoke = try await handle(text, input: &input)
            } catch let error as ParleyError {
                Self.error("\(error.code): \(error.message)")
                continue
            } catch {
                Self.error("\(error)")
                continue
            }
            if spoke, !interactive { await waitForTurn() }
        }
        await client.destroy()
        return 0
    }

    // MARK: Output

    private func show(_ event: ChatEvent) {
        switch event {
        case .messageReceived(let message), .messageUpdated(let message):
            repliesSinceSend += 1
            lastReply = .now
            if case .skill(let envelope) = message.envelope, envelope.endOfTurn == true { turnEnded = true }
            // A streamed text is shown once, whole, when it ends.
            if case .textStream(let stream) = message.payload.content, stream.streamState != .end { return }
            for line in renderer.render(message) { Self.say(line) }
        case .statusChanged(let status):
            if interactive { Self.say("[\(status.rawValue)]") }
        case .attachmentUploaded(let attachment):
            if interactive { Self.say("[uploaded \(attachment.title ?? attachment.url)]") }
        case .chatEnded:
            if interactive { Self.say("[chat ended]") }
        case .error(let error):
            Self.error("\(error.code): \(error.message)")
        case .typingChanged(.agent(let agent)?):
            if interactive { Self.say("[\(agent?.name ?? "the agent") is typing…]") }
        case .agentChanged(let agent):
            if interactive {
                Self.say(agent.map { "[\($0.name ?? "an agent") joined]" } ?? "[back with the assistant]")
            }
        case .languageChanged(let language):
            if interactive { Self.say("[language: \(language ?? "detected")]") }
        case .initialized, .destroyed, .messageSent, .deliveryChanged, .transcriptCleared, .typingChanged:
            break
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data("parley: \(line)\n".utf8))
    }

    /// Waits until the skill's turn ended (a message with `endOfTurn`), it has been quiet for 1.5 s after
    /// answering (servers that do not mark turns), or 15 s passed without an answer.
    private func waitForTurn() async {
        let start = ContinuousClock.now
        while !turnEnded {
            let now = ContinuousClock.now
            if repliesSinceSend > 0, now - lastReply > .milliseconds(1500) { return }
            if repliesSinceSend == 0, now - start > .seconds(15) {
                Self.error("no answer within 15 s")
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func userSpoke() {
        renderer.userSpoke()
        repliesSinceSend = 0
        turnEnded = false
    }

    // MARK: Input

    /// Handles one line; returns whether something was sent to the skill.
    private func handle(_ text: String, input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        if let number = Int(text) {
            guard let choice = renderer.choice(number) else {
                Self.error("no action \(number) on screen")
                return false
            }
            return try await choose(choice, input: &input)
        }
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        switch words[0] {
        case "/help":
            for line in Self.help { Self.say(line) }
            return false
        case "/clear":
            try await client.clearMessages()
            Self.say("[transcript cleared]")
            return false
        case "/location":
            let numbers = (words.count > 1 ? words[1] : "").split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard numbers.count == 2 else {
                Self.error("use /location LATITUDE,LONGITUDE")
                return false
            }
            userSpoke()
            try await client.sendLocation(latitude: numbers[0], longitude: numbers[1])
            return true
        case "/attach":
            guard words.count > 1 else {
                Self.error("use /attach PATH")
                return false
            }
            let url = URL(fileURLWithPath: words[1])
            let data = try Data(contentsOf: url)
            userSpoke()
            try await client.sendAttachment(data, fileName: url.lastPathComponent, mimeType: Self.mimeType(of: url))
            return true
        case "/form":
            return try await fillForm(submit: nil, input: &input)
        case "/lang":
            userSpoke()
            try await client.setPrimaryLanguage(words.count > 1 ? words[1] : nil)
            return true
        case "/end":
            try await client.endChat()
            Self.say("[conversation ended; type to start a new one]")
            try await client.connect()
            return false
        default:
            if text.hasPrefix("/") {
                Self.error("unknown command \(words[0]); /help lists them")
                return false
            }
            userSpoke()
            try await client.send(text: text)
            return true
        }
    }

    private func choose(_ choice: ChatRenderer.Choice, input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        guard case .action(let action) = choice else { return false }
        switch action.kind {
        case .postback:
            userSpoke()
            return try await client.sendPostback(action) != nil
        case .submitForm(let postback):
            return try await fillForm(submit: postback, input: &input)
        case .url(let url), .webview(let url):
            Self.say("open \(url)")
        case .call(let number):
            Self.say("call \(number)")
        case .location:
            Self.say("send your location with /location LATITUDE,LONGITUDE")
        case .popup(let payload):
            for line in renderer.render(payload) { Self.say(line) }
        case .share, .client, .unknown:
            Self.say("[\(action.type) is for the app to perform]")
        }
        return false
    }

    /// Asks for each editable field of the latest edit form, one line per field (again while the answer does not
    /// pass the field's checks), auto-submits fields with `autoSubmit`, then submits.
    private func fillForm(submit postback: JSONValue?, input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        guard let (form, actions) = renderer.editForm else {
            Self.error("there is no form to fill in")
            return false
        }
        var draft = FormDraft(form)
        for field in draft.fields {
            guard let id = field.id else { continue }
            while true {
                if interactive {
                    Self.say(
                        "\(field.label ?? id)? (\(field.kind.displayType); "
                            + "empty keeps \(draft[id].map(ChatRenderer.plain) ?? "nothing"))"
                    )
                }
                guard let answer = await input.next(isolation: #isolation)?.trimmingCharacters(in: .whitespaces) else {
                    return false
                }
                let value = answer.isEmpty ? draft[id] : Self.value(answer, for: field)
                if let problem = field.problem(with: value) {
                    Self.error("\(field.label ?? id): \(problem)")
                    continue
                }
                draft[id] = value
                break
            }
            if field.autoSubmit == true {
                userSpoke()
                try await client.autoSubmit(draft, field: id)
                if !interactive { await waitForTurn() }
            }
        }
        let submitPostback =
            postback
            ?? actions.lazy.compactMap { if case .submitForm(let postback) = $0.kind { postback } else { nil } }.first
        userSpoke()
        try await client.submitForm(draft, postback: submitPostback)
        return true
    }

    /// An answer typed for a field, as the field's JSON value.
    static func value(_ answer: String, for field: Field) -> JSONValue {
        switch field.kind {
        case .numberInput: return Double(answer).map(JSONValue.number) ?? .string(answer)
        case .toggle(let toggle):
            let on = ["y", "yes", "on", "true", "1", toggle.labelOn?.lowercased()].contains(answer.lowercased())
            return on ? toggle.valueOn : toggle.valueOff
        case .singleSelect(let choices):
            let option = choices.options.first { $0.label.lowercased() == answer.lowercased() }
            return option?.submittedValue ?? .string(answer)
        case .multiSelect(let choices):
            let picked = answer.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return .array(choices.options.filter { picked.contains($0.label.lowercased()) }.map(\.submittedValue))
        default: return .string(answer)
        }
    }

    static func mimeType(of url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "pdf": "application/pdf"
        case "txt": "text/plain"
        case "mp3": "audio/mpeg"
        case "wav": "audio/wav"
        case "mp4": "video/mp4"
        default: "application/octet-stream"
        }
    }

    static let help = [
        "  TEXT                  send a message",
        "  NUMBER                choose the action with that number",
        "  /form                 fill in the latest form, field by field",
        "  /location LAT,LONG    send a location",
        "  /attach PATH          send a file",
        "  /clear                clear the transcript",
        "  /lang [TAG]           chat in another language (en, fr); no tag: detect it",
        "  /end                  end the conversation and start a new one",
        "  /quit                 leave",
    ]

    /// The lines of standard input, read on a thread of their own.
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Whether standard input is a terminal.
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}
