public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A skill that lives elsewhere: each user message is posted to a URL and the answer relayed.
///
/// The request is `POST URL` with `Content-Type: application/json` and the body
/// `{"channelId": …, "userId": …, "messagePayload": {…}}` (or `"profile": {…}` for a profile update).
/// The answer is `{"messages": [payload, …]}` with any payloads of the protocol, or an empty body
/// (HTTP 204) for none; `"handOff": true` beside `messages` hands the conversation to a live agent. Anything else —
/// another status, a body that is not that JSON, no answer
/// within ``timeout`` — is a `skill.failed` error, which the user sees as an error payload; the
/// conversation goes on. See `docs/skills.md`, "Webhook skills".
public struct WebhookSkill: Skill {
    /// Where messages are posted.
    public let url: URL
    /// How long to wait for an answer.
    public var timeout: TimeInterval

    /// Creates a webhook skill.
    /// - Throws: ``ParleyError`` when `url` is not an absolute http or https URL.
    public init(url: String, timeout: TimeInterval = 15) throws(ParleyError) {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
            throw ParleyError(.invalidValue, "the webhook \(url) is not an http or https URL")
        }
        self.url = parsed
        self.timeout = timeout
    }

    /// Posts the input and returns the payloads the webhook answers with.
    public func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
        var body: JSONObject = [
            "channelId": .string(context.channelId), "userId": .string(context.userId),
            "messageId": .string(context.turn.messageId),
        ]
        if let clientMessageId = context.turn.clientMessageId { body["clientMessageId"] = .string(clientMessageId) }
        switch input {
        case .message(let payload): body["messagePayload"] = payload.jsonValue
        case .profile(let profile): body["profile"] = profile.jsonValue
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(JSONValue.object(body).jsonBytes())
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw ParleyError(.skillFailed, "the webhook \(url) did not answer: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw ParleyError(.skillFailed, "the webhook \(url) answered HTTP \(status)")
        }
        if data.isEmpty { return SkillResponse(messages: []) }
        do {
            let answer = try JSONObject(json: JSONValue(parsing: data))
            let messages = try answer["messages"].map { messages throws(ParleyError) in
                try [MessagePayload](json: messages)
            }
            return SkillResponse(messages: messages ?? [], handOff: answer["handOff"] == true)
        } catch {
            throw ParleyError(
                .skillFailed, "the webhook \(url) answered with JSON that is not {\"messages\": [payloads]}: \(error)",
                underlying: error)
        }
    }
}
