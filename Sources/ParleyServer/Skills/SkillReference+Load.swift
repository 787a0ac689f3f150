import Foundation

extension SkillReference {
    /// The skill this reference names, loaded and checked.
    func load() throws -> any Skill {
        switch self {
        case .demo: try ScriptedSkill.pizzaDemo()
        case .echo: EchoSkill()
        case .file(let path): try ScriptedSkill(contentsOf: URL(fileURLWithPath: path))
        case .webhook(let url): try WebhookSkill(url: url)
        }
    }
}

/// Answers every message with the text the user sent (or its type): for tests and benchmarks.
public struct EchoSkill: Skill {
    /// Creates an echo skill.
    public init() {}

    /// Replies with the user's text, or with the payload type for payloads without text.
    public func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
        switch input {
        case .message(let payload): SkillResponse(messages: [.text(payload.text ?? payload.type.rawValue)])
        case .profile: SkillResponse(messages: [])
        }
    }
}
