import Foundation
import ParleySkills
import Testing

/// Each matcher in a small definition: state `waiting` answers "ok…" when its transition matches, "no" otherwise.
@Suite struct MatchTests {
    /// A skill whose `waiting` state has the transition `transition` (JSON), saying "ok …" then staying.
    func chat(matching transition: String, variables: String = "{}") async throws -> Chat {
        var chat = Chat(
            try skill(
                #"""
                {"name": "Match", "start": "waiting", "variables": \#(variables),
                 "states": {"waiting": {"say": [{"type": "text", "text": "waiting"}],
                                        "on": [\#(transition)],
                                        "otherwise": {"say": [{"type": "text", "text": "no"}]}}}}
                """#))
        #expect(summary(try await chat.say("start")) == ["text: waiting"])
        return chat
    }

    @Test func exactTextIgnoresCaseAndSurroundingSpaceOnly() async throws {
        var chat = try await chat(
            matching: #"{"text": ["yes", "yep"], "say": [{"type": "text", "text": "ok: {{match.0}}"}]}"#)
        #expect(summary(try await chat.say("  YES ")) == ["text: ok: YES"])
        #expect(summary(try await chat.say("yep")) == ["text: ok: yep"])
        #expect(summary(try await chat.say("yes please")) == ["text: no"])
        #expect(summary(try await chat.send(.postback("yes", text: "yes"))) == ["text: no"])

        var sensitive = try await self.chat(
            matching: #"{"text": "Yes", "caseSensitive": true, "say": [{"type": "text", "text": "ok"}]}"#)
        #expect(summary(try await sensitive.say("yes")) == ["text: no"])
        #expect(summary(try await sensitive.say("Yes")) == ["text: ok"])
    }

    @Test func keywordsMatchWholeWordsAndPhrases() async throws {
        var chat = try await chat(
            matching: #"{"keyword": ["order pizza", "menu"], "say": [{"type": "text", "text": "ok: {{match.0}}"}]}"#)
        #expect(summary(try await chat.say("Can I see the MENU?")) == ["text: ok: menu"])
        #expect(summary(try await chat.say("I want to Order  pizza")) == ["text: no"])
        #expect(summary(try await chat.say("I want to order pizza now")) == ["text: ok: order pizza"])
        #expect(summary(try await chat.say("menus")) == ["text: no"])
        #expect(summary(try await chat.say("order pizzas")) == ["text: no"])
        #expect(summary(try await chat.say("a menu_item")) == ["text: no"])
        #expect(summary(try await chat.say("menu, menu")) == ["text: ok: menu"])
    }

    @Test func regexCapturesBecomeVariables() async throws {
        var chat = try await chat(
            matching: #"""
                {"regex": "(?<count>\\d+)\\s+(\\w+)",
                 "set": {"count": "{{match.count}}", "what": "{{match.2}}", "line": "{{match.0}}"},
                 "say": [{"type": "text", "text": "ok: {{what}} × {{count}} ({{line}})"}]}
                """#)
        #expect(summary(try await chat.say("I'd like 3 Pizzas, thanks")) == ["text: ok: Pizzas × 3 (3 Pizzas)"])
        #expect(chat.state.variables == ["count": "3", "what": "Pizzas", "line": "3 Pizzas"])
        #expect(summary(try await chat.say("three pizzas")) == ["text: no"])

        var sensitive = try await self.chat(
            matching: #"{"regex": "^Stop$", "caseSensitive": true, "say": [{"type": "text", "text": "ok"}]}"#)
        #expect(summary(try await sensitive.say("stop")) == ["text: no"])
        #expect(summary(try await sensitive.say("Stop")) == ["text: ok"])
        var insensitive = try await self.chat(
            matching: #"{"regex": "^Stop$", "say": [{"type": "text", "text": "ok"}]}"#)
        #expect(summary(try await insensitive.say("STOP")) == ["text: ok"])
    }

    @Test func unmatchedOptionalGroupsAreMissing() async throws {
        var chat = try await chat(
            matching: #"""
                {"regex": "(?:(?<size>small|large) )?(?<type>cheese|hawaiian)",
                 "set": {"size": "{{match.size}}"},
                 "say": [{"type": "text", "text": "ok: {{match.size | medium}} {{match.type}}"}]}
                """#)
        #expect(summary(try await chat.say("cheese")) == ["text: ok: medium cheese"])
        #expect(chat.state.variables["size"] == .null)
        #expect(summary(try await chat.say("large hawaiian")) == ["text: ok: large hawaiian"])
        #expect(chat.state.variables["size"] == "large")
    }

    @Test func postbacksMatchBySubset() async throws {
        var chat = try await chat(
            matching: #"""
                {"postback": {"state": "GetOrder", "variables": {"pizzaSize": "large"}},
                 "set": {"pizza": "{{postback.variables.pizzaType}}", "all": "{{postback.variables}}"},
                 "say": [{"type": "text", "text": "ok: {{pizza}} {{postback.variables.pizzaSize}}"}]}
                """#)
        let large: JSONValue = [
            "state": "GetOrder", "variables": ["pizzaType": "cheese", "pizzaCrust": "thick", "pizzaSize": "large"],
        ]
        #expect(summary(try await chat.send(.postback(large, text: "Order Large"))) == ["text: ok: cheese large"])
        #expect(chat.state.variables["all"] == large["variables"])
        let small: JSONValue = ["state": "GetOrder", "variables": ["pizzaType": "cheese", "pizzaSize": "small"]]
        #expect(summary(try await chat.send(.postback(small))) == ["text: no"])
        #expect(summary(try await chat.send(.postback(["state": "GetOrder"]))) == ["text: no"])
        #expect(summary(try await chat.send(.postback("GetOrder"))) == ["text: no"])
        // Typing the label is not choosing the action.
        #expect(summary(try await chat.say("Order Large")) == ["text: no"])
    }

    @Test func stringPostbacksAndFormSubmissions() async throws {
        var chat = try await chat(matching: #"{"postback": "yes", "say": [{"type": "text", "text": "ok"}]}"#)
        #expect(summary(try await chat.send(.postback("yes"))) == ["text: ok"])
        #expect(summary(try await chat.send(.postback("no"))) == ["text: no"])
        let submission = MessagePayload(
            .formSubmission(.init(submittedFields: ["name": "Ada"], postback: "yes")))
        #expect(summary(try await chat.send(submission)) == ["text: ok"])

        var form = try await self.chat(
            matching: #"""
                {"type": "formSubmission", "set": {"name": "{{input.submittedFields.name}}"},
                 "say": [{"type": "text", "text": "ok: {{name}}"}]}
                """#)
        #expect(summary(try await form.send(submission)) == ["text: ok: Ada"])
    }

    @Test func locationsKeepTheirNumbers() async throws {
        var chat = try await chat(
            matching: #"""
                {"type": "location", "set": {"where": "{{location}}", "latitude": "{{location.latitude}}"},
                 "say": [{"type": "text", "text": "ok: {{where.latitude}}, {{location.longitude}} {{where.title | (no title)}}"}]}
                """#)
        #expect(summary(try await chat.say("here")) == ["text: no"])
        let replies = try await chat.send(try seedPayload("UserMessage.location.coordinates"))
        #expect(summary(replies) == ["text: ok: 45.9285271, 132.6101925 (no title)"])
        #expect(chat.state.variables["where"] == ["latitude": 45.9285271, "longitude": 132.6101925])
        #expect(chat.state.variables["latitude"] == .number(45.9285271))
    }

    @Test func attachmentsAndOtherPayloadsMatchByType() async throws {
        var chat = try await chat(
            matching: #"""
                {"payload": {"type": "attachment", "attachment": {"type": "image"}},
                 "say": [{"type": "text", "text": "ok: {{input.attachment.url}}"}]}
                """#)
        let image = try seedPayload("UserMessage.attachment.image")
        guard case .attachment(let attachment) = image.content else { throw Failure("not an attachment") }
        #expect(summary(try await chat.send(image)) == ["text: ok: \(attachment.url)"])
        var video = attachment
        video.type = .video
        #expect(summary(try await chat.send(.attachment(video))) == ["text: no"])

        var typed = try await self.chat(matching: #"{"type": "attachment", "say": [{"type": "text", "text": "ok"}]}"#)
        #expect(summary(try await typed.send(.attachment(video))) == ["text: ok"])
        #expect(summary(try await typed.send(.location(Location(latitude: 1, longitude: 2)))) == ["text: no"])
    }

    @Test func fallbacksInOrder() async throws {
        let definition = #"""
            {"name": "Fallbacks", "start": "a",
             "states": {
               "a": {"say": [{"type": "text", "text": "in a"}],
                     "on": [{"text": "go", "goto": "b"}, {"text": "help", "say": [{"type": "text", "text": "a's help"}]}],
                     "otherwise": {"say": [{"type": "text", "text": "a's otherwise"}]}},
               "b": {"say": [{"type": "text", "text": "in b"}], "on": [{"text": "back", "goto": "a"}]},
               "c": {"say": [{"type": "text", "text": "in c"}]}},
             "on": [{"text": "help", "say": [{"type": "text", "text": "global help"}]},
                    {"text": "c", "goto": "c"}]}
            """#
        var chat = Chat(try skill(definition))
        #expect(summary(try await chat.say("hi")) == ["text: in a"])
        #expect(summary(try await chat.say("help")) == ["text: a's help"])  // the state's transitions come first
        #expect(summary(try await chat.say("what")) == ["text: a's otherwise"])
        #expect(summary(try await chat.say("go")) == ["text: in b"])
        #expect(summary(try await chat.say("help")) == ["text: global help"])
        // No transition and no otherwise anywhere: a helpful text, then the state's question again.
        #expect(summary(try await chat.say("what")) == ["text: Sorry, I didn't understand that.", "text: in b"])
        #expect(chat.state.state == "b")
        #expect(summary(try await chat.say("c")) == ["text: in c"])
        #expect(
            summary(try await chat.send(.location(Location(latitude: 0, longitude: 0)))) == [
                "text: Sorry, I didn't understand that.", "text: in c",
            ])

        // A definition-wide otherwise applies where a state has none.
        var withOtherwise = Chat(
            try skill(
                definition.replacingOccurrences(
                    of: #"{"text": "c", "goto": "c"}]}"#,
                    with: #"{"text": "c", "goto": "c"}], "otherwise": {"say": [{"type": "text", "text": "global"}]}}"#)
            ))
        _ = try await withOtherwise.say("hi")
        #expect(summary(try await withOtherwise.say("what")) == ["text: a's otherwise"])
        _ = try await withOtherwise.say("go")
        #expect(summary(try await withOtherwise.say("what")) == ["text: global"])
    }
}
