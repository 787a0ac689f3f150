import Foundation

/// What the page reports when the agent answered: miibo's `agentResponded` event.
///
/// ```json
/// {"event": "agentResponded",
///  "bestResponse": {"utterance": "What is your name?", "options": ["Anonymous", "Taro"],
///                   "is_enabled_free_input": true, "extensions": {"appAction": "openProfile"}}}
/// ```
///
/// `Extensions` is the app's own `Decodable` type for the agent-defined extension data; use `JSONValue`
/// to take it as it comes.
public struct AgentResponse<Extensions: Decodable & Sendable>: Sendable {
    /// The agent's reply as text (for Parley's widget: the text, or a card's titles, a form's title …).
    public var utterance: String
    /// The labels of the quick replies offered with the answer.
    public var options: [String]
    /// Whether the user may type freely (miibo's `is_enabled_free_input`), when the page says.
    public var isFreeInputEnabled: Bool?
    /// The extension data decoded as `Extensions`; `nil` when there is none or it does not decode
    /// (then ``extensionsProblem`` says why).
    public var extensions: Extensions?
    /// The extension data as JSON: `bestResponse.extensions` when present and not `null`, otherwise the
    /// top-level `extensions` (miibo's pages have used both places).
    public var extensionsJSON: JSONValue?
    /// Why ``extensionsJSON`` did not decode as `Extensions`.
    public var extensionsProblem: ParleyError?
    /// The whole message payload, when the page sends one (Parley's widget does, as `messagePayload`).
    public var messagePayload: MessagePayload?
    /// `BOT` or `AGENT`, when the page says who answered (Parley's widget does).
    public var source: String?
    /// The whole event as received.
    public var json: JSONValue

    /// Creates a response.
    public init(
        utterance: String, options: [String] = [], isFreeInputEnabled: Bool? = nil, extensions: Extensions? = nil,
        extensionsJSON: JSONValue? = nil, extensionsProblem: ParleyError? = nil, messagePayload: MessagePayload? = nil,
        source: String? = nil, json: JSONValue = .object([:])
    ) {
        self.utterance = utterance
        self.options = options
        self.isFreeInputEnabled = isFreeInputEnabled
        self.extensions = extensions
        self.extensionsJSON = extensionsJSON
        self.extensionsProblem = extensionsProblem
        self.messagePayload = messagePayload
        self.source = source
        self.json = json
    }
}

extension AgentResponse {
    /// Reads an `agentResponded` event (the whole object).
    init(event: JSONObject) throws(ParleyError) {
        guard let best = event["bestResponse"] else {
            throw ParleyError(
                .missingField, "agentResponded has no bestResponse", path: JSONPath([.key("bestResponse")]))
        }
        guard case .object(let response) = best else {
            throw ParleyError(
                .typeMismatch, "expected an object, found \(best.typeName)", path: JSONPath([.key("bestResponse")]))
        }
        let at = { (key: String) in JSONPath([.key("bestResponse"), .key(key)]) }
        guard let utterance = response["utterance"] else {
            throw ParleyError(.missingField, "bestResponse has no utterance", path: at("utterance"))
        }
        guard case .string(let text) = utterance else {
            throw ParleyError(.typeMismatch, "expected a string, found \(utterance.typeName)", path: at("utterance"))
        }
        var options: [String] = []
        switch response["options"] {
        case nil, .null?: break
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                guard case .string(let label) = element else {
                    throw ParleyError(
                        .typeMismatch, "expected a string, found \(element.typeName)",
                        path: JSONPath([.key("bestResponse"), .key("options"), .index(index)]))
                }
                options.append(label)
            }
        case let other?:
            throw ParleyError(.typeMismatch, "expected an array, found \(other.typeName)", path: at("options"))
        }
        // JSONValue is ExpressibleByNilLiteral, so a JSON null is filtered explicitly, not with `nil`.
        let inside = response["extensions"].flatMap { $0.isNull ? JSONValue?.none : $0 }
        let beside = event["extensions"].flatMap { $0.isNull ? JSONValue?.none : $0 }
        let extensionsJSON = inside ?? beside
        var extensions: Extensions?
        var problem: ParleyError?
        if let extensionsJSON {
            do {
                extensions = try JSONDecoder().decode(Extensions.self, from: Data(extensionsJSON.jsonBytes()))
            } catch {
                problem = ParleyError(
                    .invalidValue, "the extensions do not decode as \(Extensions.self): \(error)",
                    path: JSONPath(inside != nil ? [.key("bestResponse"), .key("extensions")] : [.key("extensions")]),
                    underlying: error)
            }
        }
        self.init(
            utterance: text, options: options, isFreeInputEnabled: response["is_enabled_free_input"]?.boolValue,
            extensions: extensions, extensionsJSON: extensionsJSON, extensionsProblem: problem,
            messagePayload: event["messagePayload"].flatMap { try? MessagePayload(json: $0) },
            source: event["source"]?.stringValue, json: .object(event))
    }
}
