import Foundation
import ParleyServerTesting
import Testing

@testable import ParleyClient

/// Choosing the chat language against the demo skill, and forms checked and submitted the way Oracle's SDKs do.
@Suite("Chat client languages and forms", .serialized, .timeLimit(.minutes(2)))
struct LanguageAndFormTests {
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)

    @Test func theLanguageIsChosenSentToTheSkillAndKeptAcrossLaunches() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-lang-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await InProcessServer.run(channels: [Self.demo]) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "claire")
            configuration.storageFolder = folder
            configuration.initUserProfile = Profile(givenName: "Claire")
            configuration.initUserHiddenMessage = "hello"
            configuration.multiLangChat = MultiLangChat(
                supportedLanguages: [SupportedLanguage(lang: "en"), SupportedLanguage(lang: "fr", label: "Français")],
                primaryLanguage: "fr")
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(await client.chatLanguage == "fr")
            try await events.expectReply("Bonjour Claire ! Bienvenue chez Parley Pizza.")
            try await events.expectReply("Que voulez-vous faire ?")

            try await client.setPrimaryLanguage("en-GB")  // matches "en" by its language
            _ = try await events.next("cleared") { if case .transcriptCleared = $0 { () } else { nil } }
            let changed = try await events.next("the change") {
                if case .languageChanged(let language) = $0 { .some(language) } else { nil }
            }
            #expect(changed == "en")
            try await events.expectReply("Hi Claire! Welcome to Parley Pizza.")
            try await events.expectReply("What do you want to do?")
            #expect(await client.messages().compactMap(\.payload.text).first == "Hi Claire! Welcome to Parley Pizza.")
            await client.destroy()

            // The next launch starts in the language chosen, not primaryLanguage.
            let relaunched = ChatClient(configuration: configuration)
            try await relaunched.initialize()
            #expect(await relaunched.chatLanguage == "en")
            // A tag the menu does not offer means detection, and the skill is told "und".
            try await relaunched.setPrimaryLanguage("de")
            #expect(await relaunched.chatLanguage == nil)
            await relaunched.destroy()
        }
        #expect(ChatClient.resolveLanguage("und", supported: []) == nil)
        #expect(ChatClient.resolveLanguage(nil, supported: []) == nil)
        #expect(ChatClient.resolveLanguage("hi", supported: []) == "hi", "any tag without a menu")
        #expect(ChatClient.resolveLanguage("FR_ca", supported: [.init(lang: "fr-CA"), .init(lang: "fr")]) == "fr-CA")
    }

    static let order = MessagePayload.EditForm(
        title: "Order",
        fields: [
            Field(
                .textInput(.init(validationRegularExpression: "[A-Za-z ]+", minLength: 2, maxLength: 20)), id: "name",
                label: "Name", required: true),
            Field(.numberInput(.init(minValue: 1, maxValue: 10)), id: "count", label: "How many", required: true),
            Field(.datePicker(.init(minimum: "2026-01-01", maximum: "2026-12-31")), id: "day", label: "Day"),
            Field(.timePicker(.init(minimum: "11:00", maximum: "22:00")), id: "time", label: "Time"),
            Field(
                .singleSelect(
                    .init(options: [SelectOption(label: "Thin", value: "thin"), SelectOption(label: "Thick")])),
                id: "crust", label: "Crust", autoSubmit: true),
            Field(
                .multiSelect(.init(options: [SelectOption(label: "Olives"), SelectOption(label: "Ham")])), id: "extras",
                label: "Extras"),
            Field(.toggle(.init(valueOn: true, valueOff: false)), id: "cutlery", label: "Cutlery"),
            Field(.text(), label: "Read-only note"),
        ])

    @Test func everyFieldTypeIsChecked() {
        var draft = FormDraft(Self.order)
        #expect(draft.fields.map(\.id) == ["name", "count", "day", "time", "crust", "extras", "cutlery"])
        #expect(Set(draft.problems.keys) == ["name", "count"], "required fields without values")
        let cases: [(String, JSONValue, Bool)] = [
            ("name", "A", false), ("name", "Ada 2", false), ("name", .number(3), false), ("name", "Ada", true),
            ("count", 0, false), ("count", 11, false), ("count", "3", false), ("count", 3, true),
            ("day", "2025-12-31", false), ("day", "2026-13-01", false), ("day", "tomorrow", false),
            ("day", "2026-06-01", true), ("time", "10:59", false), ("time", "25:00", false), ("time", "12:30", true),
            ("crust", "stuffed", false), ("crust", "thin", true), ("crust", "Thick", true),
            ("extras", "Olives", false), ("extras", ["Olives", "Anchovies"], false),
            ("extras", ["Olives", "Ham"], true),
            ("cutlery", "yes", false), ("cutlery", true, true), ("day", "", true),
        ]
        for (id, value, valid) in cases {
            draft[id] = value
            #expect((draft.problems[id] == nil) == valid, "\(id) = \(value)")
        }
        var custom = Self.order
        custom.fields?[0].clientErrorMessage = "Letters only, please."
        var customDraft = FormDraft(custom)
        customDraft["name"] = "R2D2"
        #expect(customDraft.problems["name"] == "Letters only, please.")
    }

    @Test func autoSubmitSendsTheValidFieldsAndSubmitChecksEverything() async throws {
        try await RecordingBot.run { bot, webhook in
            let channel = ChannelConfiguration(id: "hooked", skill: .webhook(webhook))
            try await InProcessServer.run(channels: [channel]) { server in
                let client = ChatClient(configuration: .init(url: server.url, channelId: "hooked", userId: "fay"))
                var events = EventReader(await client.events())
                try await client.initialize()
                var draft = FormDraft(Self.order)
                draft["name"] = "A"  // too short: left out
                draft["count"] = 2
                draft["crust"] = "stuffed"
                await expectFailure(.formInvalid) { try await client.autoSubmit(draft, field: "crust") }
                await expectFailure(.formInvalid) { try await client.autoSubmit(draft, field: "nope") }
                draft["crust"] = "thin"
                try await client.autoSubmit(draft, field: "crust")
                try await events.expectReply("got formSubmission")
                let partial = try #require(await bot.requests.last?["messagePayload"])
                #expect(partial["partialSubmitField"] == "crust")
                #expect(partial["submittedFields"] == ["count": 2, "crust": "thin"])

                do {
                    try await client.submitForm(draft)
                    Issue.record("an invalid form was sent")
                } catch let error as ParleyError {
                    #expect(error.code == .formInvalid)
                    #expect(error.path == JSONPath([.key("name")]))
                }
                draft["name"] = "Fay"
                try await client.submitForm(draft, postback: ["action": "submit"])
                try await events.expectReply("got formSubmission")
                let full = try #require(await bot.requests.last?["messagePayload"])
                #expect(full["submittedFields"] == ["name": "Fay", "count": 2, "crust": "thin"])
                #expect(full["partialSubmitField"] == nil)
                #expect(full["postback"] == ["action": "submit"])
                await client.destroy()
            }
        }
    }

    @Test func pastActionsAreDisabledAsConfigured() async throws {
        let (transport, server) = InMemoryTransport.pair()
        var configuration = ChatClient.Configuration(url: URL(string: "http://parley.test")!, channelId: "c")
        configuration.disablePastActions = .postback
        let client = ChatClient(configuration: configuration, transport: transport)
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let connection = try #require(await connections.next())
        Task {
            for await text in connection.inbound where text.contains(#""type":"ping""#) {
                await connection.send(StateFrame.pong.jsonString())
            }
        }
        try await initialized
        let offer =
            #"{"type":"text","text":"Pick","actions":[{"type":"postback","label":"A","postback":"a"},"#
            + #"{"type":"url","label":"Site","url":"https://example.com"}]}"#
        await connection.send(#"{"messagePayload":\#(offer),"source":"BOT","userId":"u"}"#)
        let message = try await events.received()
        let actions = try #require(message.payload.actions)
        #expect(await client.isActionEnabled(actions[0], in: message), "not answered yet")
        try await client.send(text: "A")
        #expect(await client.isActionEnabled(actions[0], in: message) == false, "a postback of an answered message")
        #expect(await client.isActionEnabled(actions[1], in: message), "other actions stay with `postback`")
        let transcript = await client.messages()
        for (policy, postbackEnabled, urlEnabled) in [
            (DisablePastActions.all, false, false), (.postback, false, true), (.none, true, true),
        ] {
            #expect(
                ChatClient.isActionEnabled(actions[0], in: message, of: transcript, policy: policy) == postbackEnabled)
            #expect(ChatClient.isActionEnabled(actions[1], in: message, of: transcript, policy: policy) == urlEnabled)
        }
        #expect(ChatClient.isActionEnabled(actions[0], in: message, of: [message], policy: .all), "not answered")
        await client.destroy()
    }
}
