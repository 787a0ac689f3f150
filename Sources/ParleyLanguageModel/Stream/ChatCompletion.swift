public import ParleyCore

/// One message of a chat-completions request (`messages[]`).
public struct ChatCompletionMessage: Sendable, Hashable {
    /// Who speaks: `system`, `user`, `assistant` or `tool` (an open set).
    public struct Role: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The role's wire name.
        public var rawValue: String
        /// Creates a role from its wire name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a role from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The operator's instructions.
        public static let system: Self = "system"
        /// The user.
        public static let user: Self = "user"
        /// The model.
        public static let assistant: Self = "assistant"
        /// A tool's result.
        public static let tool: Self = "tool"
    }

    /// Who speaks.
    public var role: Role
    /// What is said; nil for an assistant message that only calls tools.
    public var content: String?
    /// The tools an assistant message calls.
    public var toolCalls: [ToolCall]
    /// For a tool message: the call it answers.
    public var toolCallId: String?

    /// Creates a message.
    public init(role: Role, content: String?, toolCalls: [ToolCall] = [], toolCallId: String? = nil) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallId = toolCallId
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["role": .string(role.rawValue), "content": content.map(JSONValue.string) ?? .null]
        if !toolCalls.isEmpty { object["tool_calls"] = .array(toolCalls.map(\.jsonValue)) }
        if let toolCallId { object["tool_call_id"] = .string(toolCallId) }
        return .object(object)
    }
}

/// A tool call of the model: which function, with which arguments (JSON text, as the model wrote it).
public struct ToolCall: Sendable, Hashable {
    /// The call's id, which the tool's result names.
    public var id: String
    /// The function's name.
    public var name: String
    /// The arguments, as JSON text.
    public var arguments: String

    /// Creates a tool call.
    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }

    /// The wire form, `{"id", "type": "function", "function": {"name", "arguments"}}`.
    public var jsonValue: JSONValue {
        [
            "id": .string(id), "type": "function",
            "function": ["name": .string(name), "arguments": .string(arguments)],
        ]
    }
}

/// Token counts of one request, as the endpoint reports them (`usage`).
public struct TokenUsage: Sendable, Hashable {
    /// Tokens read (`prompt_tokens`).
    public var prompt: Int
    /// Tokens written (`completion_tokens`).
    public var completion: Int
    /// Creates counts.
    public init(prompt: Int, completion: Int) {
        self.prompt = prompt
        self.completion = completion
    }
}

/// Assembles a streamed chat completion from its chunks: the text, the tool calls (their pieces joined by
/// `index`), the finish reason and the usage.
public struct ChatCompletionAccumulator: Sendable {
    /// The text so far.
    public private(set) var content = ""
    /// The tool calls so far, by `index`.
    public private(set) var toolCallsByIndex: [Int: ToolCall] = [:]
    /// Why the model stopped (`stop`, `length`, `tool_calls`, …), once a chunk said.
    public private(set) var finishReason: String?
    /// The token counts, when the endpoint sent them.
    public private(set) var usage: TokenUsage?
    /// Whether `[DONE]` arrived.
    public private(set) var done = false

    /// Creates an empty accumulator.
    public init() {}

    /// Whether the completion is whole: `[DONE]` or a finish reason arrived.
    public var isComplete: Bool { done || finishReason != nil }

    /// The tool calls, in `index` order.
    public var toolCalls: [ToolCall] { toolCallsByIndex.sorted { $0.key < $1.key }.map(\.value) }

    /// Applies one event's data and returns the text it adds (empty when it adds none).
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/llmMalformedStream`` when the data is neither
    ///   `[DONE]` nor a chunk; ``ParleyError/Code/llmFailed`` for an `error` object in the stream.
    public mutating func apply(_ data: String) throws(ParleyError) -> String {
        let trimmed = data.trimmingSpaces
        if trimmed == "[DONE]" {
            done = true
            return ""
        }
        let chunk: JSONValue
        do {
            chunk = try JSONValue(parsing: trimmed.utf8)
        } catch {
            throw ParleyError(.llmMalformedStream, "a stream event is not JSON: \(error.message)", underlying: error)
        }
        guard case .object(let object) = chunk else {
            throw ParleyError(.llmMalformedStream, "a stream event is not a JSON object")
        }
        if let failure = object["error"], !failure.isNull {
            let message = failure["message"]?.stringValue ?? failure.stringValue ?? failure.jsonString()
            throw ParleyError(.llmFailed, "the model failed: \(message)")
        }
        if let usage = object["usage"], let prompt = usage["prompt_tokens"]?.intValue,
            let completion = usage["completion_tokens"]?.intValue
        {
            // The endpoint's word, bounded: counts are added up per turn and per day, and a hostile or broken
            // endpoint's Int.max or negative count must not overflow them nor give tokens back.
            let bound = 1 << 40
            self.usage = TokenUsage(prompt: min(max(prompt, 0), bound), completion: min(max(completion, 0), bound))
        }
        guard let choices = object["choices"] else {
            if object["usage"] != nil { return "" }
            throw ParleyError(.llmMalformedStream, "a stream chunk has no choices")
        }
        guard case .array(let list) = choices else {
            throw ParleyError(.llmMalformedStream, "a stream chunk's choices are not an array")
        }
        guard let choice = list.first(where: { ($0["index"]?.intValue ?? 0) == 0 }) else { return "" }
        if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
        // A whole completion (`message`) is read like one delta: some servers answer that way.
        guard let delta = choice["delta"] ?? choice["message"], !delta.isNull else { return "" }
        if let calls = delta["tool_calls"]?.arrayValue {
            for (position, call) in calls.enumerated() { try applyToolCall(call, position: position) }
        }
        let piece = delta["content"]?.stringValue ?? ""
        content += piece
        return piece
    }

    private mutating func applyToolCall(_ call: JSONValue, position: Int) throws(ParleyError) {
        guard case .object = call else {
            throw ParleyError(.llmMalformedStream, "a tool call in the stream is not an object")
        }
        let index = call["index"]?.intValue ?? position
        var assembled = toolCallsByIndex[index] ?? ToolCall(id: "", name: "", arguments: "")
        if let id = call["id"]?.stringValue, !id.isEmpty { assembled.id = id }
        if let name = call["function"]?["name"]?.stringValue { assembled.name += name }
        if let arguments = call["function"]?["arguments"] {
            // Arguments are JSON text; a server that sends them as an object is read too.
            assembled.arguments += arguments.stringValue ?? arguments.jsonString()
        }
        toolCallsByIndex[index] = assembled
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return Substring(scalars[first...last])
    }
}
