import Foundation
import Observation
import ParleyClient
import ParleyUI

/// A chat in the terminal on top of ParleyUI's ``ChatViewModel``: what `parley chat` and `parley demo` run. It
/// draws the model's rows, connection banner, typing indicator and language menu as lines of text (``ChatRenderer``)
/// and turns what the user types into the model's intents, as a native screen does with taps.
///
/// Interactive (a terminal on stdin): messages as they arrive with their timestamps, connection status and typing
/// shown, actions chosen by number, `/form` fills the latest edit form field by field. Piped (a file or a pipe on
/// stdin): one message per line; after each, the skill's replies are printed as text before the next line is sent,
/// and the chat ends after the last line's replies.
@MainActor
final class TerminalChat {
    let conversation: any Conversation
    let model: ChatViewModel
    let interactive: Bool
    private var renderer = ChatRenderer()
    private var bannerText: String?
    private var conversationEnded = false
    /// Messages from the skill since the user last spoke, and when the last one was printed.
    private var repliesSinceSend = 0
    private var lastReply = ContinuousClock.now
    /// The skill said its turn ended (`endOfTurn`) with this message, printed or not yet.
    private var turnEndId: String?
    private var turnEnded = false
    /// A location typed with `/location`, for the model's ``ChatViewModel/PlatformActions/requestLocation``.
    private var typedLocation: Location?
    /// `--voice`: `/listen` records, replies are read aloud.
    let voice: Bool
    /// A recording is on (from `/listen` until the client is idle again), and whether it sent a message.
    private var listening = false
    private var heardAndSent = false
    /// Reading aloud failed once (no sound device): it is muted, and said once.
    private var readAloudFailed = false
    /// The wait for a turn or a recording (``waitForTurn()``, ``listen()``), woken by ``wake()`` when what it waits
    /// for may have changed: a reply printed, the turn's end, the recording idle, or its deadline.
    private var waiter: CheckedContinuation<Void, Never>?
    /// A wake-up that came while nothing waited, for the next wait.
    private var wokenEarly = false

    init(conversation: any Conversation, interactive: Bool, voice: Bool = false) {
        self.conversation = conversation
        self.interactive = interactive
        self.voice = voice
        model = ChatViewModel(conversation: conversation)
        renderer.showsTyping = interactive
        model.platform = ChatViewModel.PlatformActions(
            openExternally: { url in
                if url.scheme == "tel" {
                    Self.say("call \(url.absoluteString.dropFirst(4))")
                } else {
                    Self.say("open \(url.absoluteString)")
                }
            },
            requestLocation: { [weak self] in self?.typedLocation },
            share: { text in Self.say("share: \(text)") },
            clientAction: { action, _ in Self.say("[\(action.type) is for the app to perform]") })
    }

    /// Runs the chat until stdin ends or the user types `/quit`; returns the exit status.
    func run(lines: AsyncStream<String>) async -> Int32 {
        await model.start()
        observe()
        let events = await conversation.events()
        let turns = Task {
            for await event in events {
                self.noteTurn(event)
                await self.noteSpeech(event)
            }
        }
        defer { turns.cancel() }
        do {
            try await conversation.initialize()
        } catch {
            Self.error("cannot connect: \(error.code): \(error.message)")
            return 1
        }
        if interactive {
            Self.say(
                "\(model.header.title) — type a message, a number to choose an action, /help for commands, "
                    + "/quit to leave.")
        } else if await (conversation as? ChatClient)?.configuration.initUserHiddenMessage != nil {
            await waitForTurn()  // the answer to the hidden init message
        }
        var input = lines.makeAsyncIterator()
        while let line = await input.next(isolation: #isolation) {
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty, voice, interactive { text = "/listen" }
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
        // The last reply is heard before the chat quits.
        if voice, let client = conversation as? ChatClient { await client.finishSpeaking() }
        model.stop()
        await conversation.destroy()
        return 0
    }

    // MARK: Output

    /// Redraws whenever something the terminal shows changes, for as long as the chat runs.
    private func observe() {
        withObservationTracking {
            refresh()
        } onChange: { [weak self] in
            // Called before the change: redraw once it is made.
            Task { @MainActor in self?.observe() }
        }
    }

    /// Prints what is new on the model's screen.
    private func refresh() {
        let (lines, messages) = renderer.update(model.rows)
        for line in lines { Self.say(line) }
        for message in messages {
            repliesSinceSend += 1
            lastReply = .now
            if message.id == turnEndId { turnEnded = true }
        }
        if !messages.isEmpty { wake() }
        // The banner from the first connection on (not the "Disconnected" of a client not yet started).
        if interactive, let banner = model.connectionBanner, banner.text != bannerText,
            bannerText != nil || banner.status != .disconnected
        {
            bannerText = banner.text
            Self.say("[\(banner.text)]")
        }
        if let alert = model.alert {
            // Reading aloud that fails is reported once, by noteSpeech(_:).
            if !alert.error.code.rawValue.hasPrefix("speech.") || listening {
                Self.error("\(alert.title): \(alert.message)")
            }
            model.dismissAlert()
        }
        if let page = model.webView {
            Self.say("open \(page.url.absoluteString)")
            model.closeWebView()
        }
        if let popup = model.popup {
            let message = ChatMessage(envelope: .skill(SkillMessage(payload: popup)))
            for row in RowBuilder(now: Date()).rows(for: [message]) {
                if case .message(let popupRow) = row { for line in renderer.render(popupRow) { Self.say(line) } }
            }
            model.dismissPopup()
        }
        if model.conversationEnded != conversationEnded {
            conversationEnded = model.conversationEnded
            if conversationEnded, interactive { Self.say("[the conversation ended]") }
        }
    }

    /// Follows the skill's turns, for a pipe: a message that ends the turn, printed or one the screen hides.
    private func noteTurn(_ event: ChatEvent) {
        guard case .messageReceived(let message) = event, message.sender != .user else { return }
        if case .skill(let envelope) = message.envelope, envelope.endOfTurn == true {
            turnEndId = message.id
            let shown = !RowBuilder(now: Date()).rows(for: [message]).isEmpty
            if !shown || renderer.hasPrinted(message.id) {
                turnEnded = true
                wake()
            }
        }
    }

    /// Shows what is heard while listening, and turns a missing speaker into one line (the chat goes on in text).
    private func noteSpeech(_ event: ChatEvent) async {
        switch event {
        case .speechResponseReceived(let text, let final):
            Self.say(final ? "(heard) \(text)" : "(hearing) \(text)")
        case .speechRecognized(_, let sent):
            heardAndSent = sent
        case .recordingChanged(.idle):
            listening = false
            wake()
        case .speechSynthesisFailed(let error):
            guard !readAloudFailed else { return }
            readAloudFailed = true
            Self.error("cannot read replies aloud (\(error.code): \(error.message)); the chat goes on in text")
            await conversation.setSpeechSynthesisMuted(true)
        default:
            break
        }
    }

    /// `/listen`: records one utterance (the recognizer ends it when the speaker stops) and waits until the client
    /// is idle again; returns whether what was heard was sent.
    private func listen() async -> Bool {
        guard voice else {
            Self.error("start parley chat with --voice to speak")
            return false
        }
        userSpoke()
        listening = true
        heardAndSent = false
        if interactive { Self.say("[\(model.speech.listeningLabel)]") }
        guard report(await model.startSpeechInput()) else {
            listening = false
            return false
        }
        while listening { await changed() }
        return heardAndSent
    }

    nonisolated static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    nonisolated static func error(_ line: String) {
        FileHandle.standardError.write(Data("parley: \(line)\n".utf8))
    }

    /// Waits until the skill's turn ended (a message with `endOfTurn`, printed), it has been quiet for 1.5 s after
    /// answering (servers that do not mark turns), or 15 s passed without an answer. It wakes when a reply is printed
    /// or the turn ends, and at the deadline, never to look in between.
    private func waitForTurn() async {
        let start = ContinuousClock.now
        while !turnEnded {
            let deadline = repliesSinceSend > 0 ? lastReply + .milliseconds(1500) : start + .seconds(15)
            if ContinuousClock.now >= deadline {
                if repliesSinceSend == 0 { Self.error("no answer within 15 s") }
                return
            }
            await changed(before: deadline)
        }
    }

    /// Returns after the next ``wake()`` (at once when one came since the last wait), or at `deadline`.
    private func changed(before deadline: ContinuousClock.Instant? = nil) async {
        if wokenEarly {
            wokenEarly = false
            return
        }
        let alarm = deadline.map { deadline in
            Task { [weak self] in
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                self?.wake()
            }
        }
        defer { alarm?.cancel() }
        await withCheckedContinuation { waiter = $0 }
    }

    /// Wakes the wait in ``changed(before:)``, or the next one.
    private func wake() {
        guard let waiter else {
            wokenEarly = true
            return
        }
        self.waiter = nil
        waiter.resume()
    }

    private func userSpoke() {
        renderer.userSpoke()
        repliesSinceSend = 0
        turnEnded = false
        turnEndId = nil
    }

    /// Whether an intent was done; a failure is printed: the model's alert (in the screen's language) when it set
    /// one, else the error (a form's problems are printed by the form).
    @discardableResult
    private func report(_ outcome: IntentOutcome) -> Bool {
        guard case .failed(let error) = outcome else { return outcome == .done }
        if let alert = model.alert {
            Self.error("\(alert.title): \(alert.message)")
            model.dismissAlert()
        } else if error.code != .formInvalid {
            Self.error("\(error.code): \(error.message)")
        }
        return false
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
        let argument = words.count > 1 ? words[1] : nil
        switch words[0] {
        case "/help":
            for line in Self.help { Self.say(line) }
            return false
        case "/clear":
            guard report(await model.clear()) else { return false }
            Self.say("[transcript cleared]")
            return false
        case "/location":
            let numbers = (argument ?? "").split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard numbers.count == 2 else {
                Self.error("use /location LATITUDE,LONGITUDE")
                return false
            }
            userSpoke()
            typedLocation = Location(latitude: numbers[0], longitude: numbers[1])
            defer { typedLocation = nil }
            return report(await model.shareLocation())
        case "/attach":
            guard let argument else {
                Self.error("use /attach PATH")
                return false
            }
            let url = URL(fileURLWithPath: argument)
            let data = try Data(contentsOf: url)
            userSpoke()
            return report(await model.attach(data, fileName: url.lastPathComponent, mimeType: Self.mimeType(of: url)))
        case "/retry":
            guard let rowId = argument ?? lastFailedRow() else {
                Self.error("nothing to send again")
                return false
            }
            userSpoke()
            return report(await model.retry(rowId))
        case "/form":
            return try await fillForm(submit: nil, input: &input)
        case "/lang":
            guard let argument else {
                showLanguageMenu()
                return false
            }
            userSpoke()
            return report(await model.pickLanguage(argument == "detect" ? nil : argument))
        case "/end":
            return try await endConversation(input: &input)
        case "/listen":
            return await listen()
        default:
            if text.hasPrefix("/") {
                Self.error("unknown command \(words[0]); /help lists them")
                return false
            }
            userSpoke()
            return report(await model.send(text: text))
        }
    }

    /// The model's language menu: `/lang` alone.
    private func showLanguageMenu() {
        guard let menu = model.languageMenu else {
            Self.error("this chat has one language (multiLangChat is not set)")
            return
        }
        Self.say("\(menu.label):")
        for item in menu.items {
            Self.say("  \(item.isSelected ? "*" : " ") \(item.label) (/lang \(item.tag ?? "detect"))")
        }
    }

    /// The latest failed message or upload.
    private func lastFailedRow() -> String? {
        model.rows.last { row in
            switch row {
            case .message(let message): message.canRetry
            case .upload(let upload): upload.canRetry
            default: false
            }
        }?.id
    }

    /// The model's end-of-conversation prompt: asked in a terminal, confirmed at once from a pipe.
    private func endConversation(input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        guard report(model.requestEndConversation()), let prompt = model.endConversationPrompt else { return false }
        if interactive {
            Self.say("\(prompt.title): \(prompt.message) [\(prompt.confirmLabel)/\(prompt.cancelLabel)]")
            let answer = await input.next(isolation: #isolation)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard ["y", "yes", prompt.confirmLabel.lowercased()].contains(answer.lowercased()) else {
                model.cancelEndConversation()
                return false
            }
        }
        guard report(await model.confirmEndConversation()) else { return false }
        Self.say("[conversation ended; type to start a new one]")
        try await conversation.initialize()
        return false
    }

    /// The current version of a printed button (it may have been disabled since, `disablePastActions`).
    private func current(_ choice: ChatRenderer.Choice) -> (ActionItem, MessageRow)? {
        for case .message(let row) in model.rows where row.id == choice.rowId {
            let cards: [ActionItem] =
                if case .cards(let content) = row.content { content.cards.flatMap(\.actions) } else { [] }
            let forms: [ActionItem] =
                if case .editForm(let content) = row.content { content.actions } else { [] }
            let item = (row.actions + row.globalActions + cards + forms).first { $0.id == choice.item.id }
            return (item ?? choice.item, row)
        }
        return nil
    }

    private func choose(_ choice: ChatRenderer.Choice, input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        guard let (item, row) = current(choice) else {
            Self.error("that message is no longer on screen")
            return false
        }
        guard item.isEnabled else {
            Self.error("\(ChatRenderer.describe(item.action)) was answered already")
            return false
        }
        switch item.action.kind {
        case .postback:
            userSpoke()
            return report(await model.perform(item, in: row))
        case .submitForm(let postback):
            return try await fillForm(submit: postback, input: &input)
        case .location:
            Self.say("send your location with /location LATITUDE,LONGITUDE")
            return false
        default:
            report(await model.perform(item, in: row))
            return false
        }
    }

    /// Asks for each editable field of the latest edit form, one line per field (again while the answer does not
    /// pass the field's checks); the model sends fields with `autoSubmit` at once, then submits the form.
    private func fillForm(submit postback: JSONValue?, input: inout AsyncStream<String>.Iterator) async throws -> Bool {
        guard let (rowId, content) = renderer.editForm, let start = model.formDrafts[rowId] else {
            Self.error("there is no form to fill in")
            return false
        }
        for field in start.fields {
            guard let id = field.id else { continue }
            while true {
                let current = model.formDrafts[rowId]?[id]
                if interactive {
                    Self.say(
                        "\(field.label ?? id)? (\(field.kind.displayType); "
                            + "empty keeps \(current.map(ChatRenderer.plain) ?? "nothing"))"
                    )
                }
                guard let answer = await input.next(isolation: #isolation)?.trimmingCharacters(in: .whitespaces) else {
                    return false
                }
                let value = answer.isEmpty ? current : Self.value(answer, for: field)
                if let problem = field.problem(with: value) {
                    Self.error("\(field.label ?? id): \(problem)")
                    continue
                }
                if field.autoSubmit == true { userSpoke() }
                let outcome = await model.setFormValue(value, field: id, in: rowId)
                if let problem = model.formProblems[rowId]?[id] {
                    Self.error("\(field.label ?? id): \(problem)")
                    continue
                }
                report(outcome)
                break
            }
            if field.autoSubmit == true, !interactive { await waitForTurn() }
        }
        let submitPostback =
            postback
            ?? content.actions.lazy.compactMap { item -> JSONValue? in
                if case .submitForm(let postback) = item.action.kind { postback } else { nil }
            }.first
        userSpoke()
        let outcome = await model.submitForm(rowId, postback: submitPostback)
        for (field, problem) in (model.formProblems[rowId] ?? [:]).sorted(by: { $0.key < $1.key }) {
            Self.error("\(field): \(problem)")
        }
        return report(outcome)
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
        "  /retry [ID]           send a failed message or file again (the latest one without an id)",
        "  /clear                clear the transcript",
        "  /lang                 the language menu; /lang TAG chooses one (en, fr), /lang detect detects it",
        "  /end                  end the conversation and start a new one",
        "  /listen               with --voice: say one thing (an empty line does the same in a terminal)",
        "  /quit                 leave",
    ]

    /// The lines of standard input, read on a thread of their own.
    nonisolated static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Whether standard input is a terminal.
    nonisolated static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}
