import CoreMetrics
import Foundation
import ParleyLanguageModel

extension SkillReference {
    /// The skill this reference names, loaded and checked; a named skill is looked up in `appSkills`. A language
    /// model counts on `metrics` (the server's factory).
    func load(appSkills: [String: any Skill], metrics: any MetricsFactory) throws -> any Skill {
        switch self {
        case .named(let name): try Self.appSkill(named: name, in: appSkills)
        case .demo: try ScriptedSkill.pizzaDemo()
        case .echo: EchoSkill()
        case .file(let path): try ScriptedSkill(contentsOf: URL(fileURLWithPath: path))
        case .webhook(let url): try WebhookSkill(url: url)
        case .llm(let model): try LanguageModelSkill(configuration: model, metrics: metrics)
        }
    }

    private static func appSkill(named name: String, in appSkills: [String: any Skill]) throws -> any Skill {
        guard let skill = appSkills[name] else {
            let known = appSkills.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw ParleyError(
                .invalidValue,
                "no skill is named \"\(name)\": the built-in skills are \"demo\" and \"echo\""
                    + (known.isEmpty ? "; the app registers none" : "; the app registers \(known)"))
        }
        return skill
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
