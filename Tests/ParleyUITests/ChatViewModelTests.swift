import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

/// The model against the real server in process: the demo pizza skill and the echo skill.
@Suite("ChatViewModel", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct ChatViewModelTests {
    static let channels = [
        ChannelConfiguration(id: "demo", skill: .demo), ChannelConfiguration(id: "echo", skill: .echo),
    ]

    /// A started model of a client of `channel`, after `change` edited its configuration.
    static func model(
        _ server: InProcessServer, channel: String = "demo", user: String = "ada",
        configuration: ChatViewModel.Configuration = ChatViewModel.Configuration(locale: "en", timeZone: utc),
        platform: ChatViewModel.PlatformActions = ChatViewModel.PlatformActions(),
        clientClock: any Clock<Duration> = ContinuousClock(), displayClock: DisplayClock = .system,
        _ change: (inout ChatClient.Configuration) -> Void = { _ in }
    ) async throws -> ChatViewModel {
        var flags = ChatClient.Configuration(url: server.url, channelId: channel, userId: user)
        if channel == "demo" { flags.initUserHiddenMessage = "Hello" }
        change(&flags)
        let client = ChatClient(configuration: flags, clock: clientClock)
        let model = ChatViewModel(
            client: client, configuration: configuration, platform: platform, clock: displayClock)
        await model.start()
        try await client.initialize()
        // The model hears of the connection through the client's events, a moment after `initialize()` returns.
        await waitUntil("connected") { model.status == .connected }
        return model
    }

    @Test func theDemoConversationAsRows() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server)
            await waitUntil("the greeting and the question") { model.messageRows.count == 2 }
            #expect(model.texts == ["Hi there! Welcome to Parley Pizza.", "What do you want to do?"])
            let question = try #require(model.messageRows.last)
            #expect(question.sender == .skill)
            #expect(question.actions.map(\.label) == ["Order Pizza", "Cancel A Previous Order"])
            #expect(question.actions.allSatisfy { $0.isEnabled })
            #expect(model.messageRows.map(\.groupPosition) == [.first, .last])

            #expect(await model.perform(question.actions[0], in: question) == .done)
            await waitUntil("the menu") { model.texts.contains("Hawaiian Pizza|Cheese Pizza|Margherita Pizza") }
            let rows = model.messageRows
            #expect(rows[2].sender == .user)
            #expect(rows[2].content == .text("Order Pizza", isStreaming: false))
            guard case .cards(let cards) = rows.last?.content else {
                Issue.record("no cards")
                return
            }
            #expect(cards.layout == .horizontal)
            #expect(cards.cards.count == 3)
            #expect(cards.cards[0].actions.map(\.label) == ["Order Small", "Order Large"])
            // The question was answered: with `disablePastActions` `all` its buttons are off; the menu's are on.
            #expect(rows[1].actions.allSatisfy { !$0.isEnabled })
            #expect(await model.perform(rows[1].actions[1], in: rows[1]) == .ignored)
            #expect(cards.cards.allSatisfy { $0.actions.allSatisfy { $0.isEnabled } })
            #expect(model.dayHeaders.isEmpty, "absolute timestamps: no day headers")
            #expect(model.messageRows.allSatisfy { $0.timestamp != nil })
        }
    }

    @Test func pastActionsStayWithNone() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server) { $0.disablePastActions = .none }
            await waitUntil("the question") { model.messageRows.count == 2 }
            #expect(await model.send(text: "cancel") == .done)
            await waitUntil("the answer") { model.texts.contains("I couldn't find a previous order to cancel.") }
            #expect(model.messageRows[1].actions.allSatisfy { $0.isEnabled })
        }
    }

    @Test func theStatusBannerFollowsTheConnection() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server, channel: "echo") { $0.showConnectionStatus = true }
            #expect(model.connectionBanner?.text == "Connected")
            #expect(model.connectionBanner?.accessibilityLabel == "Chat status Connected")
            await client(model).disconnect()
            await waitUntil("disconnected") { model.connectionBanner?.status == .disconnected }
            #expect(model.connectionBanner?.text == "Disconnected")
            try await client(model).connect()
            await waitUntil("connected") { model.connectionBanner?.status == .connected }

            let hidden = try await Self.model(server, channel: "echo", user: "bo")
            #expect(hidden.status == .connected)
            #expect(hidden.connectionBanner == nil, "showConnectionStatus is off by default")
        }
    }

    @Test func theTypingIndicatorHidesAfterTheTimeoutOnTheVirtualClock() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let clock = VirtualClock()
            let model = try await Self.model(server, channel: "echo", clientClock: clock) {
                $0.typingStatusTimeout = .seconds(12)
                $0.reconnect = .never
            }
            await client(model).disconnect()  // the message waits in the outbox: nobody answers
            #expect(await model.send(text: "anyone?") == .done)
            await waitUntil("responding") { model.typingRow != nil }
            #expect(model.typingRow?.sender == .skill)
            #expect(model.typingRow?.text == "Responding...")
            #expect(model.rows.last?.id == "typing")
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(11))
            #expect(model.typingRow != nil)
            await clock.advance(by: .seconds(1))
            await waitUntil("no longer responding") { model.typingRow == nil }

            let silent = try await Self.model(server, channel: "echo", user: "bo") { $0.showTypingStatus = false }
            await client(silent).disconnect()
            #expect(await silent.send(text: "anyone?") == .done)
            await waitUntil("sent") { silent.messageRows.count == 1 }
            #expect(await silent.conversation.typingIndicator == .skill)
            #expect(silent.typingRow == nil, "showTypingStatus is off")
        }
    }

    @Test func relativeTimestampsMoveWithTheDisplayClock() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let clock = VirtualClock()
            let display = DisplayClock(clock: clock, startingAt: Date())
            let model = try await Self.model(server, channel: "echo", displayClock: display) {
                $0.timestampMode = .relative
            }
            #expect(await model.send(text: "hi") == .done)
            await waitUntil("the echo") { model.messageRows.count == 2 }
            #expect(model.messageRows.map(\.timestamp) == [nil, "Just now"])
            #expect(model.dayHeaders.count == 1)
            #expect(model.rows.first?.id == model.dayHeaders.first?.id)

            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(15))
            await waitUntil("moments") { model.messageRows.last?.timestamp == "A few moments ago" }
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(170))
            await waitUntil("minutes") { model.messageRows.last?.timestamp == "3 min ago" }
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(2 * 3600))
            await waitUntil("hours") { model.messageRows.last?.timestamp == "2 hr ago" }
            #expect(model.messageRows.first?.timestamp == nil)
        }
    }

    @Test func theLanguageMenuChangesTheConversationAndTheTexts() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server) {
                $0.multiLangChat = MultiLangChat(
                    supportedLanguages: [SupportedLanguage(lang: "en"), SupportedLanguage(lang: "fr")])
            }
            let menu = try #require(model.languageMenu)
            #expect(menu.label == "Language")
            #expect(menu.items.map(\.label) == ["Detect Language", "English", "French"])
            #expect(menu.items.map(\.isSelected) == [true, false, false])
            #expect(model.header.title == "Ask")
            await waitUntil("the English question") {
                model.texts == ["Hi there! Welcome to Parley Pizza.", "What do you want to do?"]
            }

            #expect(await model.pickLanguage("fr") == .done)
            await waitUntil("the French question") { model.texts.contains("Que voulez-vous faire ?") }
            #expect(model.texts == ["Bonjour à vous ! Bienvenue chez Parley Pizza.", "Que voulez-vous faire ?"])
            #expect(model.languageMenu?.selected == "fr")
            #expect(model.languageMenu?.items.map(\.label) == ["Détecter la langue", "Anglais", "Français"])
            #expect(model.header.title == "Assistant")
            #expect(model.composer.placeholder == "Écrivez un message")

            #expect(await model.pickLanguage(nil) == .done)
            await waitUntil("detection") { model.languageMenu?.selected == nil }
            #expect(model.header.title == "Ask", "the texts follow the configured locale again")

            let single = try await Self.model(server, user: "bo") {
                $0.multiLangChat = MultiLangChat(supportedLanguages: [SupportedLanguage(lang: "fr")])
            }
            #expect(single.languageMenu == nil, "a menu needs two languages")
        }
    }

    @Test func stringsOverriddenPerKeyAndLocale() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            var configuration = ChatViewModel.Configuration(locale: "es", timeZone: utc)
            configuration.strings[.writeAMessage] = "Ask me anything"
            configuration.strings[.writeAMessage, locale: "es"] = "Pregúntame"
            configuration.strings[.connected] = "Online"
            let model = try await Self.model(server, channel: "echo", configuration: configuration) {
                $0.showConnectionStatus = true
                $0.title = "Pizza Bot"
            }
            #expect(model.composer.placeholder == "Pregúntame")
            #expect(model.connectionBanner?.text == "Online")
            #expect(model.header.title == "Pizza Bot")
            #expect(model.header.titleAccessibilityLabel == "Título del chat Pizza Bot")
            #expect(model.composer.sendAccessibilityLabel == "Botón Enviar")
            model.configuration.locale = "en"
            #expect(model.composer.placeholder == "Ask me anything")
            #expect(model.composer.attachAccessibilityLabel == "Upload attachment")
        }
    }

    @Test func headerButtonsClearAndEndConversation() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server, channel: "echo")
            #expect(model.header.showsClearButton == false)
            #expect(model.header.showsEndConversationButton)
            #expect(await model.send(text: "one") == .done)
            await waitUntil("the echo") { model.messageRows.count == 2 }
            #expect(await model.clear().failureCode == .featureDisabled)
            #expect(model.alert?.title == "Error")
            model.dismissAlert()
            #expect(model.alert == nil)

            #expect(model.requestEndConversation() == .done)
            let prompt = try #require(model.endConversationPrompt)
            #expect(prompt.title == "End conversation")
            #expect(prompt.message == "Are you sure you want to end the conversation?")
            #expect([prompt.confirmLabel, prompt.cancelLabel] == ["Yes", "No"])
            model.cancelEndConversation()
            #expect(model.endConversationPrompt == nil)
            #expect(model.messageRows.count == 2)
            #expect(model.requestEndConversation() == .done)
            #expect(await model.confirmEndConversation() == .done)
            await waitUntil("ended") { model.conversationEnded && model.rows.isEmpty }
            #expect(model.endConversationPrompt == nil)

            let clearing = try await Self.model(server, channel: "echo", user: "bo") {
                $0.enableClearMessage = true
                $0.enableEndConversation = false
            }
            #expect(clearing.header.showsClearButton)
            #expect(clearing.header.showsEndConversationButton == false)
            #expect(clearing.requestEndConversation().failureCode == .featureDisabled)
            #expect(await clearing.send(text: "two") == .done)
            await waitUntil("the echo") { clearing.messageRows.count == 2 }
            #expect(await clearing.clear() == .done)
            await waitUntil("cleared") { clearing.rows.isEmpty }
        }
    }

    @Test func formsDraftsAutoSubmitAndProblems() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server)
            await waitUntil("the question") { model.messageRows.count == 2 }
            #expect(await model.send(text: "feedback") == .done)
            await waitUntil("the form") { model.texts.last == "form: How was your pizza?" }
            let formRow = try #require(model.messageRows.last)
            guard case .editForm(let form) = formRow.content else {
                Issue.record("no form")
                return
            }
            #expect(form.isEnabled)
            #expect(form.actions.map(\.label) == ["Send"])
            #expect(formRow.actions.isEmpty, "a form's actions are the form's")
            #expect(model.formDrafts[formRow.id]?.fields.map(\.id) == ["rating", "comments"])

            // Submitting an empty required field: nothing is sent, the problem is by the field.
            #expect(await model.submitForm(formRow.id).failureCode == .formInvalid)
            #expect(model.formProblems[formRow.id]?["rating"] != nil)
            // The rating auto-submits; the skill replaces the form with one that remembers it.
            #expect(await model.setFormValue("great", field: "rating", in: formRow.id) == .done)
            #expect(model.formProblems[formRow.id] == nil)
            await waitUntil("the replaced form") { model.texts.last == "form: How was your pizza? You said: great" }
            #expect(model.messageRows.last?.id == formRow.id, "replaced in place")
            #expect(model.formDrafts[formRow.id]?.fields.map(\.id) == ["comments"], "a new draft for the new form")

            #expect(
                await model.setFormValue(.string(String(repeating: "x", count: 201)), field: "comments", in: formRow.id)
                    == .done)
            #expect(await model.submitForm(formRow.id).failureCode == .formInvalid)
            #expect(model.formProblems[formRow.id]?["comments"] != nil)
            #expect(await model.setFormValue("Lovely", field: "comments", in: formRow.id) == .done)
            let row = try #require(model.messageRows.last)
            guard case .editForm(let replaced) = row.content else {
                Issue.record("no form")
                return
            }
            #expect(await model.perform(replaced.actions[0], in: row) == .done)
            await waitUntil("the streamed thanks") {
                model.messageRows.last?.content == .text("Thank you for your feedback!", isStreaming: false)
            }
        }
    }

    @Test func locationCallAndShareActionsGoToThePlatform() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let opened = Recorder<URL>()
            let shared = Recorder<String>()
            let platform = ChatViewModel.PlatformActions(
                openExternally: { opened.items.append($0) },
                requestLocation: { Location(latitude: 48.85, longitude: 2.35, title: "Home") },
                share: { shared.items.append($0) })
            let model = try await Self.model(server, platform: platform)
            await waitUntil("the question") { model.messageRows.count == 2 }
            let turns = [
                ("menu", "Hawaiian Pizza|"), ("hawaiian", "Which crust"), ("thin", "What size"),
                ("small", "Where should we deliver"),
            ]
            for (word, answer) in turns {
                #expect(await model.send(text: word) == .done)
                await waitUntil("the answer to \(word)") { model.texts.last?.hasPrefix(answer) == true }
            }
            let question = try #require(model.messageRows.last)
            #expect(question.actions.map(\.action.type) == [.location])
            #expect(await model.perform(question.actions[0], in: question) == .done)
            await waitUntil("the confirmation") { model.messageRows.last?.footerText?.hasPrefix("Delivery") == true }
            #expect(model.texts.contains("location: 48.85,2.35"))
            let confirmation = try #require(model.messageRows.last)
            #expect(confirmation.footerText == "Delivery location: 48.85, 2.35")
            #expect(await model.perform(confirmation.actions[0], in: confirmation) == .done)
            #expect(opened.items.map(\.absoluteString) == ["tel:123456789"])
            #expect(confirmation.actions.map(\.action.type) == [.call, .postback])
            #expect(shared.items.isEmpty)
        }
    }

    @Test func linksOpenAsTheHandlerSays() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let opened = Recorder<URL>()
            var configuration = ChatViewModel.Configuration(locale: "fr", timeZone: utc)
            configuration.linkHandler = .webView
            configuration.webViewConfiguration.size = .full
            let model = try await Self.model(
                server, channel: "echo", configuration: configuration,
                platform: ChatViewModel.PlatformActions(openExternally: { opened.items.append($0) }))
            #expect(model.open("https://example.com/menu") == .done)
            let page = try #require(model.webView)
            #expect(page.url.absoluteString == "https://example.com/menu")
            #expect(page.size == .full)
            #expect(page.closeButtonLabel == "Terminé", "odais_done in French")
            #expect(page.closeButtonLabelColor == .white)
            #expect(page.closeButtonColor == .clear)
            #expect(page.headerColor.hex == "#004C8C")
            model.closeWebView()
            #expect(model.webView == nil)

            model.configuration.linkHandler = .external
            #expect(model.open("https://example.com/a") == .done)
            #expect(opened.items.map(\.absoluteString) == ["https://example.com/a"])
            #expect(model.webView == nil)

            let custom = Recorder<URL>()
            model.configuration.linkHandler = .custom { custom.items.append($0) }
            #expect(model.open("https://example.com/b") == .done)
            #expect(custom.items.count == 1)
            #expect(opened.items.count == 1)

            #expect(model.open("not a link").failureCode == .invalidValue)
            #expect(model.alert?.message == "Veuillez vérifier l'adresse du lien\u{A0}!")
            #expect(model.alert?.dismissLabel == "OK")
        }
    }

    @Test func withoutEnableSpeechRecognitionThereIsNoMicrophone() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let model = try await Self.model(server, channel: "echo")
            #expect(model.composer.showsMicrophone == false)
            #expect(model.startSpeech().failureCode == .speechUnavailable)
            #expect(model.alert?.message == "Speech input is not available yet.")
            #expect(model.stopSpeech() == .ignored, "nothing to stop")
        }
    }
}

/// Collects what a platform closure was given.
@MainActor
final class Recorder<Item> {
    var items: [Item] = []
}
