// An app's own skill in the embedded server: `swift run SkillServer` serves a chat whose answers come from
// `OrderStatusSkill` below, on channel "orders" (open http://127.0.0.1:8080/, or
// `swift run parley chat --url http://127.0.0.1:8080 --channel orders`). docs/skills.md, "Skills in Swift".
import Foundation
import ParleyServer

/// Answers "status 42" with the order's status, anything else with how to ask.
struct OrderStatusSkill: Skill {
    func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
        guard case .message(let payload) = input, let text = payload.text?.lowercased() else {
            return SkillResponse(messages: [])  // a profile update needs no answer
        }
        guard text.hasPrefix("status "), let order = Int(text.dropFirst("status ".count)) else {
            return SkillResponse(messages: [.text("Ask me \"status\" and an order number, like \"status 42\".")])
        }
        return SkillResponse(messages: [.text("Order \(order) is on its way.")])
    }
}

let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let configuration = ServerConfiguration(
    port: port, dataDirectory: URL(fileURLWithPath: ".parley-data/skill-server"),
    channels: [ChannelConfiguration(id: "orders", skill: .named("orders"))])
let app = try await buildApplication(configuration: configuration, skills: ["orders": OrderStatusSkill()]) { port in
    print("SkillServer: http://127.0.0.1:\(port)/")
}
try await app.runService()
