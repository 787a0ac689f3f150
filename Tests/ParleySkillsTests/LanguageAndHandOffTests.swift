import Foundation
import ParleySkills
import Testing

/// `say` by language, profile merging, a language change starting over, and `handOff`.
@Suite struct LanguageAndHandOffTests {
    static let source = #"""
        {
            "name": "Bilingual",
            "start": "ask",
            "states": {
                "ask": {
                    "say": {
                        "en": [{"type": "text", "text": "Hi {{profile.name | there}}. Crust?"}],
                        "fr": [{"type": "text", "text": "Bonjour {{profile.name | à vous}}. Pâte ?"}],
                        "fr-CA": [{"type": "text", "text": "Allô {{profile.name | toi}}. Pâte ?"}]
                    },
                    "on": [
                        {"keyword": ["thin", "fine"], "say": [{"type": "text", "text": "OK"}], "goto": "done"},
                        {"keyword": ["agent"], "say": [{"type": "text", "text": "Wait."}], "handOff": true}
                    ]
                },
                "done": {"say": [{"type": "text", "text": "Done."}]}
            }
        }
        """#

    static func texts(_ replies: [MessagePayload]) -> [String] {
        replies.compactMap(\.text)
    }

    @Test func thePayloadsFollowTheProfilesLanguage() async throws {
        let skill = try ScriptedSkill(json: Array(Self.source.utf8))
        for (tag, greeting) in [
            (nil, "Hi there. Crust?"), ("en-US", "Hi there. Crust?"), ("fr", "Bonjour à vous. Pâte ?"),
            ("fr-CH", "Bonjour à vous. Pâte ?"), ("FR_ca", "Allô toi. Pâte ?"), ("de", "Hi there. Crust?"),
            ("und", "Hi there. Crust?"),
        ] {
            var state = ConversationState()
            if let tag { _ = try await skill.respond(to: .profile(Profile(languageTag: tag)), state: &state) }
            let replies = try await skill.respond(to: .message(.text("hello")), state: &state)
            #expect(Self.texts(replies) == [greeting], "languageTag \(tag ?? "none")")
        }
        let responses = try #require(skill.definition.state(named: "ask")?.say)
        #expect(responses.translations.map(\.language) == ["en", "fr", "fr-CA"])
        #expect(try Responses(json: responses.jsonValue) == responses, "round trip")
    }

    @Test func aProfileUpdateMergesAndANewLanguageStartsOver() async throws {
        let skill = try ScriptedSkill(json: Array(Self.source.utf8))
        var state = ConversationState()
        _ = try await skill.respond(to: .profile(Profile(givenName: "Ada", languageTag: "en")), state: &state)
        #expect(Self.texts(try await skill.respond(to: .message(.text("hello")), state: &state)) == ["Hi Ada. Crust?"])
        #expect(state.state == "ask")

        _ = try await skill.respond(to: .profile(Profile(languageTag: "fr")), state: &state)
        #expect(state.profile?.givenName == "Ada", "the name stays")
        #expect(state.state == nil, "a new language starts the dialog over")
        #expect(
            Self.texts(try await skill.respond(to: .message(.text("salut")), state: &state)) == ["Bonjour Ada. Pâte ?"])

        _ = try await skill.respond(to: .profile(Profile(email: "ada@example.com")), state: &state)
        #expect(state.state == "ask", "the same language keeps the dialog")
        #expect(state.profile?.languageTag == "fr")
    }

    @Test func aTransitionHandsOffAndTheResponseSaysSo() async throws {
        let skill = try ScriptedSkill(json: Array(Self.source.utf8))
        var state = ConversationState()
        #expect(try await skill.turn(.message(.text("hello")), state: &state).handOff == false)
        let response = try await skill.turn(.message(.text("an agent please")), state: &state)
        #expect(Self.texts(response.messages) == ["Wait."])
        #expect(response.handOff)
        #expect(!response.endsConversation)
        #expect(state.jsonValue["handOff"] == nil, "a hand-off is not state")
        #expect(try ConversationState(json: state.jsonValue) == state)
    }

    @Test func badLanguageListsAndHandOffsAreRefused() {
        let cases: [(String, String)] = [
            (#"{"fr": {"type": "text", "text": "x"}}"#, "$.states.s.say"),
            (#"{"fr": [{"type": "text"}]}"#, "$.states.s.say.fr[0].text"),
            (#"{}"#, "$.states.s.say"),
        ]
        for (say, path) in cases {
            let source = #"{"name": "x", "start": "s", "states": {"s": {"say": \#(say)}}}"#
            #expect {
                try SkillDefinition(decoding: Array(source.utf8))
            } throws: { error in
                (error as? ParleyError)?.path?.description == path
            }
        }
        let both =
            #"{"name": "x", "start": "s", "states": {"s": {"say": [{"type": "text", "text": "x"}], "#
            + #""on": [{"text": "a", "end": true, "handOff": true}]}}}"#
        #expect {
            try SkillDefinition(decoding: Array(both.utf8))
        } throws: { error in
            (error as? ParleyError)?.code == .skillInvalidDefinition
        }
    }

    @Test func theDemoSpeaksFrenchHandsOffAndTakesFeedback() async throws {
        var chat = Chat(try ScriptedSkill.pizzaDemo())
        _ = try await chat.skill.respond(to: .profile(Profile(givenName: "Zoé", languageTag: "fr")), state: &chat.state)
        let greeting = try await chat.say("bonjour")
        #expect(Self.texts(greeting) == ["Bonjour Zoé ! Bienvenue chez Parley Pizza.", "Que voulez-vous faire ?"])
        #expect(greeting[1].actions?.map(\.label) == ["Commander une pizza", "Annuler une commande"])
        #expect(
            Self.texts(try await chat.say("je veux un conseiller")) == [
                "Je vous mets en relation avec un conseiller. Un instant."
            ])
        #expect(chat.handedOff)

        let form = try await chat.say("feedback")
        guard case .editForm(let editForm) = form.first?.content else {
            Issue.record("no form: \(form)")
            return
        }
        #expect(editForm.allFields.first { $0.id == "rating" }?.autoSubmit == true)
        let rated = try await chat.send(
            MessagePayload(.formSubmission(.init(submittedFields: ["rating": "great"], partialSubmitField: "rating"))))
        #expect(rated.first?.channelExtensions?.replaceMessage == true)
        guard case .editForm(let replacement) = rated.first?.content else {
            Issue.record("no replacement form")
            return
        }
        #expect(replacement.title == "How was your pizza? You said: great")
        let thanks = try await chat.send(
            MessagePayload(
                .formSubmission(
                    .init(submittedFields: ["comments": "Hot and fast"], postback: ["action": "sendFeedback"]))))
        #expect(thanks.map(\.type) == [.textStream, .textStream, .textStream])
    }
}
