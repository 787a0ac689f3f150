import Foundation
import ParleySkills
import Testing

@Suite struct PizzaDemoTests {
    /// The seed's profile update (`initUserProfile`).
    let profile = try! ProfileUpdate(
        decoding: #"""
            {"profile": {"givenName": "First", "surname": "Last", "email": "first.last@example.com",
                         "properties": {"lastOrderedItems": "1 medium pepperoni"}}}
            """#
    ).profile

    @Test func theSourceLoadsAndRoundTrips() throws {
        let definition = try SkillDefinition(decoding: ScriptedSkill.pizzaDemoSource())
        #expect(try definition == ScriptedSkill.pizzaDemo().definition)
        #expect(definition.name == "PizzaOrder")
        #expect(definition.start == "greeting")
        #expect(
            definition.states.map(\.name) == [
                "greeting", "askAction", "cancelOrder", "menu", "askCrust", "askSize", "askLocation", "confirm",
            ])
        #expect(try SkillDefinition(json: definition.jsonValue) == definition)
    }

    @Test func theDefinitionIsAResourceOfParleySkills() throws {
        let url = try ScriptedSkill.pizzaDemoURL()
        #expect(url.lastPathComponent == "pizza-demo.json")
        #expect(try ScriptedSkill(contentsOf: url).definition == ScriptedSkill.pizzaDemo().definition)
    }

    @Test func buildYourOwnPizzaWithTheProfileName() async throws {
        var chat = Chat(try ScriptedSkill.pizzaDemo())

        // The profile arrives first and gets no reply; the greeting then uses it.
        #expect(try await chat.skill.respond(to: .profile(profile), state: &chat.state) == [])
        #expect(chat.state.state == nil)
        #expect(chat.state.profile?.givenName == "First")

        let greeting = try await chat.say("Hi")
        #expect(summary(greeting) == ["text: Hi First! Welcome to Parley Pizza.", "text: What do you want to do?"])
        // The question with its actions is exactly the seed's message.
        let seedQuestion = try SkillMessage(
            decoding: Data(contentsOf: seedURL("SkillMessage.text.actions"))
        ).payload
        #expect(greeting[1] == seedQuestion)
        #expect(chat.state.state == "askAction")

        let menu = try await chat.tap("Order Pizza", in: greeting)
        #expect(summary(menu) == ["card: Hawaiian Pizza, Cheese Pizza, Margherita Pizza"])
        guard case .card(let cards) = menu.first?.content else { throw Failure("no card") }
        #expect(cards.layout == .horizontal)
        #expect(
            cards.cards.map { $0.actions?.compactMap(\.label) } == [
                ["Order Small", "Order Large"], ["Order Small", "Order Large"], ["Choose Crust and Size"],
            ])
        // The first two cards and the call action are the seed's carousel.
        let seedCarousel = try SkillMessage(
            decoding: Data(contentsOf: seedURL("SkillMessage.card.horizontal-pizzas"))
        ).payload
        guard case .card(let seedCards) = seedCarousel.content else { throw Failure("no seed card") }
        #expect(Array(cards.cards.prefix(2)) == seedCards.cards)
        #expect(menu[0].globalActions == seedCarousel.globalActions)

        #expect(
            summary(try await chat.say("what?")) == ["text: Please choose a pizza from the menu, or type its name."])
        #expect(chat.state.state == "menu")

        let crust = try await chat.tap("Choose Crust and Size", in: menu)
        #expect(summary(crust) == ["text: Which crust would you like for your margherita pizza?"])
        #expect(labels(crust.first) == ["Thin", "Thick"])

        // Unknown text in the middle of the flow gets a reprompt, not a dead end.
        #expect(
            summary(try await chat.say("pepperoni please")) == [
                "text: Sorry, we only have thin and thick crusts.",
                "text: Which crust would you like for your margherita pizza?",
            ])
        #expect(chat.state.state == "askCrust")

        let size = try await chat.tap("Thin", in: crust)
        #expect(summary(size) == ["text: What size should your margherita pizza be?"])
        #expect(labels(size.first) == ["Small", "Medium", "Large"])
        #expect(chat.state.variables["pizzaCrust"] == "thin")

        let location = try await chat.say("A LARGE one, please")
        #expect(summary(location) == ["text: Where should we deliver your large margherita pizza?"])
        #expect(location.first?.actions?.map(\.kind) == [.location])
        #expect(chat.state.variables["pizzaSize"] == "large")

        let confirmation = try await chat.send(try seedPayload("UserMessage.location.coordinates"))
        #expect(
            summary(confirmation) == [
                "text: Thank you! Your large margherita pizza on thin crust is on its way to you."
            ])
        #expect(confirmation.first?.footerText == "Delivery location: 45.9285271, 132.6101925")
        #expect(
            confirmation.first?.actions?.map(\.kind) == [
                .call(phoneNumber: "123456789"), .postback(["state": "confirm", "action": "orderPizza"]),
            ])
        #expect(chat.state.state == "confirm")
        #expect(chat.state.variables["deliveryLocation"] == ["latitude": 45.9285271, "longitude": 132.6101925])

        let goodbye = try await chat.say("OK, bye!")
        #expect(summary(goodbye) == ["text: Goodbye, First! Thanks for visiting Parley Pizza.", "sessionClosed"])
        #expect(goodbye.last?.jsonString() == #"{"type":"sessionClosed"}"#)
        #expect(chat.state == ConversationState(profile: profile))

        // The next message starts over, and the profile is still known.
        #expect(
            summary(try await chat.say("hello again")) == [
                "text: Hi First! Welcome to Parley Pizza.", "text: What do you want to do?",
            ])
    }

    @Test func orderFromTheCarouselAndCloseTheSession() async throws {
        var chat = Chat(try ScriptedSkill.pizzaDemo())

        // A first message that matches a transition is answered after the greeting.
        let menu = try await chat.send(try seedPayload("UserMessage.text.order-pizza"))
        #expect(
            summary(menu) == [
                "text: Hi there! Welcome to Parley Pizza.", "text: What do you want to do?",
                "card: Hawaiian Pizza, Cheese Pizza, Margherita Pizza",
            ])

        let location = try await chat.tap("Order Large", in: menu)
        #expect(summary(location) == ["text: Where should we deliver your large hawaiian pizza?"])
        #expect(chat.state.variables["pizzaType"] == "hawaiian")
        #expect(chat.state.variables["pizzaCrust"] == "thin")
        #expect(chat.state.variables["pizzaSize"] == "large")

        #expect(
            summary(try await chat.say("123 Main Street")) == [
                "text: Please share your location, so that we know where to deliver.",
                "text: Where should we deliver your large hawaiian pizza?",
            ])

        let place = Location(latitude: 37.529818, longitude: -122.265987, title: "Oracle Headquarters")
        let confirmation = try await chat.send(.location(place))
        #expect(
            summary(confirmation) == [
                "text: Thank you! Your large hawaiian pizza on thin crust is on its way to Oracle Headquarters."
            ])
        #expect(confirmation.first?.footerText == "Delivery location: 37.529818, -122.265987")

        #expect(
            summary(try await chat.say("thanks")) == [
                #"text: Your pizza is on its way. Type "menu" to order another one, or "bye" to leave."#
            ])

        #expect(try await chat.send(.closeSession) == [MessagePayload(.sessionClosed)])
        #expect(chat.state == ConversationState())
        // Closing a conversation that has not started only confirms it.
        #expect(try await chat.send(.closeSession) == [MessagePayload(.sessionClosed)])

        let restart = try await chat.send(try seedPayload("UserMessage.text.show-menu"))
        #expect(
            summary(restart) == [
                "text: Hi there! Welcome to Parley Pizza.", "text: What do you want to do?",
                "card: Hawaiian Pizza, Cheese Pizza, Margherita Pizza",
            ])
    }

    @Test func cancelThenTypeAnOrder() async throws {
        var chat = Chat(try ScriptedSkill.pizzaDemo())
        let greeting = try await chat.say("hi")
        #expect(
            summary(try await chat.tap("Cancel A Previous Order", in: greeting)) == [
                "text: I couldn't find a previous order to cancel.", "text: What do you want to do?",
            ])
        // A regular expression takes "cancelling" as well.
        #expect(
            summary(try await chat.say("I'm cancelling my order")) == [
                "text: I couldn't find a previous order to cancel.", "text: What do you want to do?",
            ])
        #expect(
            summary(try await chat.say("something else")) == [
                "text: Sorry, I didn't get that.", "text: What do you want to do?",
            ])
        #expect(
            summary(try await chat.say("I'd like to order")) == [
                "card: Hawaiian Pizza, Cheese Pizza, Margherita Pizza"
            ])
        // A keyword picks the pizza out of the sentence; the variable gets the keyword as written in the file.
        #expect(
            summary(try await chat.say("One CHEESE, please")) == [
                "text: Which crust would you like for your cheese pizza?"
            ])
        #expect(chat.state.variables["pizzaType"] == "cheese")
        #expect(chat.state.variables["pizzaCrust"] == .null)
        #expect(summary(try await chat.say("thick")) == ["text: What size should your cheese pizza be?"])

        // An order button from the earlier carousel still works in the middle of the flow.
        let order: JSONValue = [
            "state": "GetOrder", "variables": ["pizzaType": "hawaiian", "pizzaCrust": "thin", "pizzaSize": "small"],
        ]
        #expect(
            summary(try await chat.send(.postback(order, text: "Order Small"))) == [
                "text: Where should we deliver your small hawaiian pizza?"
            ])
        #expect(summary(try await chat.send(.closeSession)) == ["sessionClosed"])
    }
}

/// The URL of a seed fixture of ParleyCore's tests.
func seedURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ParleyCoreTests/Fixtures/seed/\(name).json")
}

/// A test failure with a message.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
