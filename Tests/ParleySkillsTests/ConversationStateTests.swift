import Foundation
import ParleySkills
import Testing

/// The server stores ``ConversationState`` as JSON between messages and across restarts.
@Suite struct ConversationStateTests {
    @Test func jsonForm() throws {
        let state = ConversationState(
            state: "askSize", variables: ["pizzaType": "margherita", "pizzaCrust": "thin", "count": 2],
            profile: Profile(givenName: "Ada"), extra: ["serverNote": ["v": 1]])
        let json =
            #"{"state":"askSize","variables":{"pizzaType":"margherita","pizzaCrust":"thin","count":2},"profile":{"givenName":"Ada"},"serverNote":{"v":1}}"#
        #expect(state.jsonString() == json)
        #expect(try ConversationState(decoding: json) == state)
        #expect(ConversationState().jsonString() == #"{"variables":{}}"#)
        #expect(try ConversationState(decoding: "{}") == ConversationState())
        // `null` reads as absent; an optional member's `null` is written back, a defaulted one's is not.
        let nulls = try ConversationState(decoding: #"{"state":null,"variables":null}"#)
        #expect(nulls.state == nil && nulls.variables == [:] && nulls.profile == nil)
        #expect(nulls.jsonString() == #"{"variables":{},"state":null}"#)
        #expect(try ConversationState(decoding: nulls.jsonBytes()) == nulls)
    }

    @Test func codable() throws {
        let state = ConversationState(state: "confirm", variables: ["location": ["latitude": 45.5, "longitude": 1]])
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ConversationState.self, from: data) == state)
    }

    @Test func badStoredStatesFailWithPaths() {
        let error = #expect(throws: ParleyError.self) { try ConversationState(decoding: #"{"state": 3}"#) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.path?.description == "$.state")
        let nested = #expect(throws: ParleyError.self) {
            try ConversationState(decoding: #"{"profile": {"givenName": ["Ada"]}}"#)
        }
        #expect(nested?.path?.description == "$.profile.givenName")
    }

    @Test func theConversationGoesOnAfterARoundTripThroughStorage() async throws {
        var chat = Chat(try ScriptedSkill.pizzaDemo())
        _ = try await chat.skill.respond(to: .profile(Profile(firstName: "Lin")), state: &chat.state)
        let greeting = try await chat.say("hi")
        let menu = try await chat.tap("Order Pizza", in: greeting)
        let crust = try await chat.tap("Choose Crust and Size", in: menu)
        _ = try await chat.tap("Thick", in: crust)
        #expect(chat.state.state == "askSize")

        // The server stores the state as JSON and restarts with a freshly loaded skill.
        let stored = chat.state.jsonBytes()
        var restarted = Chat(try ScriptedSkill(json: Array(ScriptedSkill.pizzaDemoSource().utf8)))
        restarted.state = try ConversationState(decoding: stored)
        #expect(restarted.state == chat.state)
        #expect(
            restarted.state.jsonString()
                == #"{"state":"askSize","variables":{"pizzaType":"margherita","pizzaCrust":"thick","pizzaSize":null,"deliveryLocation":null},"profile":{"firstName":"Lin"}}"#
        )

        #expect(
            summary(try await restarted.say("medium")) == [
                "text: Where should we deliver your medium margherita pizza?"
            ])
        let location = Location(latitude: 48.8584, longitude: 2.2945, title: "Tour Eiffel")
        #expect(
            summary(try await restarted.send(.location(location))) == [
                "text: Thank you! Your medium margherita pizza on thick crust is on its way to Tour Eiffel."
            ])
        #expect(
            summary(try await restarted.say("goodbye")) == [
                "text: Goodbye, Lin! Thanks for visiting Parley Pizza.", "sessionClosed",
            ])
        #expect(
            try ConversationState(decoding: restarted.state.jsonBytes())
                == ConversationState(profile: Profile(firstName: "Lin")))
    }
}
