import Foundation
import ParleySkills

extension Skill {
    /// One turn as the server runs it, with `state` kept between turns; the replies.
    func respond(to input: SkillInput, state: inout ConversationState) async throws -> [MessagePayload] {
        try await turn(input, state: &state).messages
    }

    /// One turn as the server runs it, with `state` kept between turns; the whole response.
    func turn(_ input: SkillInput, state: inout ConversationState) async throws -> SkillResponse {
        var context = SkillContext(channelId: "test", userId: "tester", state: state)
        let response = try await respond(to: input, in: context)
        context.apply(response)
        state = context.state
        return response
    }
}

/// A conversation with a skill, keeping its state the way the server does.
struct Chat {
    let skill: any Skill
    var state = ConversationState()
    /// Whether the last reply handed the conversation to an agent.
    var handedOff = false

    init(_ skill: any Skill) {
        self.skill = skill
    }

    /// Sends a message and returns the replies.
    mutating func send(_ payload: MessagePayload) async throws -> [MessagePayload] {
        let response = try await skill.turn(.message(payload), state: &state)
        handedOff = response.handOff
        return response.messages
    }

    /// Types a text.
    mutating func say(_ text: String) async throws -> [MessagePayload] {
        try await send(.text(text))
    }

    /// Chooses the postback action labelled `label` of the last replies (top-level or card actions).
    mutating func tap(_ label: String, in replies: [MessagePayload]) async throws -> [MessagePayload] {
        let actions = replies.flatMap { reply -> [Action] in
            var actions = reply.actions ?? []
            if case .card(let cards) = reply.content { actions += cards.cards.flatMap { $0.actions ?? [] } }
            return actions
        }
        guard let action = actions.first(where: { $0.label == label }), case .postback(let postback) = action.kind
        else {
            throw ParleyError("test.noSuchAction", "no postback action \"\(label)\" in \(summary(replies))")
        }
        return try await send(.postback(postback, text: label))
    }
}

/// One line per reply: `text: …`, `card: title, title`, or the payload type; enough to check order, count and text.
func summary(_ replies: [MessagePayload]) -> [String] {
    replies.map { reply in
        switch reply.content {
        case .text(let text): "text: " + text.text
        case .card(let cards): "card: " + cards.cards.map(\.title).joined(separator: ", ")
        default: reply.type.rawValue
        }
    }
}

/// The labels of a reply's actions.
func labels(_ reply: MessagePayload?) -> [String] {
    (reply?.actions ?? []).map { $0.label ?? "" }
}

/// A skill from inline JSON.
func skill(_ json: String) throws -> ScriptedSkill {
    try ScriptedSkill(json: Array(json.utf8))
}

/// The payload of a seed fixture of ParleyCore's tests, such as `UserMessage.location.coordinates`.
func seedPayload(_ name: String) throws -> MessagePayload {
    try UserMessage(decoding: Data(contentsOf: seedURL(name))).payload
}

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
