import Foundation
import ParleySkills
import Testing

/// How a conversation starts, moves on, ends and fails, in small definitions.
@Suite struct ConversationTests {
    let hello = #"""
        {"name": "Hello", "start": "greeting", "variables": {"visits": 0},
         "states": {
           "greeting": {"say": [{"type": "text", "text": "Hello {{profile.name | stranger}}!"}], "next": "ask"},
           "ask": {"say": [{"type": "text", "text": "Say something."}],
                   "on": [{"text": "again", "goto": "greeting"},
                          {"keyword": "bye", "say": [{"type": "text", "text": "Bye."}], "end": true},
                          {"type": "closeSession", "say": [{"type": "text", "text": "Closing."}]}],
                   "otherwise": {"say": [{"type": "text", "text": "You said {{input.text}}."}]}}}}
        """#

    @Test func aProfileAloneGetsNoReplyButIsUsedByTheGreeting() async throws {
        var chat = Chat(try skill(hello))
        let update = ProfileUpdate(profile: Profile(firstName: "Grace", lastName: "Hopper"))
        #expect(try await chat.skill.respond(to: .profile(update.profile), state: &chat.state) == [])
        #expect(chat.state == ConversationState(profile: update.profile))
        #expect(summary(try await chat.say("hi")) == ["text: Hello Grace!", "text: Say something."])
        // givenName (iOS) wins over firstName (web, Android).
        let both = Profile(givenName: "Ada", firstName: "Grace")
        #expect(try await chat.skill.respond(to: .profile(both), state: &chat.state) == [])
        #expect(summary(try await chat.say("again")) == ["text: Hello Ada!", "text: Say something."])
    }

    @Test func theFirstMessageEntersTheStartStateAndFollowsNext() async throws {
        var chat = Chat(try skill(hello))
        #expect(summary(try await chat.say("hi")) == ["text: Hello stranger!", "text: Say something."])
        #expect(chat.state.state == "ask")
        #expect(chat.state.variables == ["visits": 0])
        #expect(summary(try await chat.say("hi")) == ["text: You said hi."])
        // A first message that matches is answered after the start state's responses.
        var direct = Chat(try skill(hello))
        #expect(
            summary(try await direct.say("bye")) == [
                "text: Hello stranger!", "text: Say something.", "text: Bye.", "sessionClosed",
            ])
        #expect(direct.state == ConversationState())
    }

    @Test func closeSessionAlwaysEndsTheSession() async throws {
        var chat = Chat(try skill(hello))
        _ = try await chat.say("hi")
        // A transition may answer closeSession; the session ends even without "end".
        #expect(summary(try await chat.send(.closeSession)) == ["text: Closing.", "sessionClosed"])
        #expect(chat.state == ConversationState())

        // Without such a transition, and never caught by "otherwise".
        var plain = Chat(
            try skill(
                hello.replacingOccurrences(
                    of: #"{"type": "closeSession", "say": [{"type": "text", "text": "Closing."}]}"#,
                    with: #"{"text": "x", "goto": "ask"}"#)))
        _ = try await plain.say("hi")
        #expect(summary(try await plain.send(.closeSession)) == ["sessionClosed"])
        #expect(plain.state.state == nil)
    }

    @Test func typingNotificationsGetNoReply() async throws {
        var chat = Chat(try skill(hello))
        _ = try await chat.say("hi")
        let before = chat.state
        #expect(try await chat.send(MessagePayload(.status(.init(.responding, partyType: "user")))) == [])
        #expect(chat.state == before)
    }

    @Test func anUnknownStoredStateStartsOver() async throws {
        var chat = Chat(try skill(hello))
        chat.state = ConversationState(state: "removedInTheNewVersion", variables: ["old": true])
        #expect(summary(try await chat.say("hi")) == ["text: Hello stranger!", "text: Say something."])
        #expect(chat.state == ConversationState(state: "ask", variables: ["visits": 0]))
    }

    @Test func setEvaluatesInOrderAndKeepsJSONTypes() async throws {
        var chat = Chat(
            try skill(
                #"""
                {"name": "Set", "start": "s", "variables": {"n": 41, "tags": ["a"]},
                 "states": {"s": {"say": [{"type": "text", "text": "n={{n}} tags={{tags}} flag={{flag}} missing=[{{nothing.at.all}}]"}],
                   "on": [{"text": "go", "set": {"n": 42, "copy": "{{n}}", "text": "n is {{n}}", "flag": true,
                                                 "nested": {"n": "{{n}}", "list": ["{{copy}}", "x{{copy}}"]},
                                                 "fallback": "{{nothing | none}}", "nothing": "{{nothing}}",
                                                 "who": "{{profile.name | nobody}}", "mail": "{{profile.email}}"},
                           "goto": "s"}]}}}
                """#))
        #expect(summary(try await chat.say("hi")) == [#"text: n=41 tags=["a"] flag= missing=[]"#])
        #expect(summary(try await chat.say("go")) == [#"text: n=42 tags=["a"] flag=true missing=[]"#])
        #expect(
            chat.state.variables == [
                "n": 42, "tags": ["a"], "copy": 42, "text": "n is 42", "flag": true,
                "nested": ["n": 42, "list": [42, "x42"]], "fallback": "none", "nothing": nil,
                "who": "nobody", "mail": nil,
            ])
        // Variables from the profile.
        _ = try await chat.skill.respond(
            to: .profile(Profile(givenName: "Ada", email: "ada@example.com")), state: &chat.state)
        _ = try await chat.say("go")
        #expect(chat.state.variables["who"] == "Ada")
        #expect(chat.state.variables["mail"] == "ada@example.com")
    }

    @Test func placeholdersWorkInEveryStringOfAnyPayload() async throws {
        var chat = Chat(
            try skill(
                #"""
                {"name": "Cards", "start": "s", "variables": {"pizza": "Hawaiian"},
                 "states": {"s": {"say": [
                   {"type": "card", "layout": "vertical", "headerText": "For {{profile.name | you}}",
                    "cards": [{"title": "{{pizza}} Pizza", "imageUrl": "https://example.com/{{pizza}}.png",
                               "actions": [{"type": "postback", "label": "Order {{pizza}}",
                                            "postback": {"pizza": "{{pizza}}", "size": 1}}]}]}]}}}
                """#))
        let replies = try await chat.say("hi")
        #expect(
            replies.first?.jsonString()
                == #"{"type":"card","layout":"vertical","cards":[{"title":"Hawaiian Pizza","imageUrl":"https://example.com/Hawaiian.png","actions":[{"type":"postback","label":"Order Hawaiian","postback":{"pizza":"Hawaiian","size":1}}]}],"headerText":"For you"}"#
        )
    }

    @Test func aResponseThatBreaksAtRunTimeThrowsAndKeepsTheState() async throws {
        let broken = try skill(
            #"""
            {"name": "Broken", "start": "s", "variables": {"kind": "poll"},
             "states": {"s": {"say": [{"type": "text", "text": "ready"}],
               "on": [{"text": "go", "set": {"kind": "text"}, "goto": "t"}]},
               "t": {"say": [{"type": "{{kind}}", "question": "?"}]}}}
            """#)
        var chat = Chat(broken)
        _ = try await chat.say("hi")
        let before = chat.state
        let error = await #expect(throws: ParleyError.self) { try await chat.say("go") }
        #expect(error?.code == .skillFailed)
        #expect(error?.path?.description == "$.states.t.say[0].text")
        #expect(chat.state == before)
    }
}
