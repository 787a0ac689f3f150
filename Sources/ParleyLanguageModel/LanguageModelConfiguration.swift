public import ParleyCore

/// A channel's language model: an OpenAI-compatible chat-completions endpoint and how to talk to it.
///
/// The configuration-file form is the object under `"llm"` of a channel's skill:
///
/// ```json
/// {"url": "http://127.0.0.1:11434/v1", "model": "llama3.2", "apiKeyEnvironment": "OPENAI_API_KEY",
///  "instructions": "You are Parley Pizza's assistant.", "history": 20, "maxTokens": 512, "temperature": 0.3,
///  "timeoutSeconds": 60,
///  "tools": [{"name": "orderStatus", "description": "…", "parameters": {"type": "object"},
///             "webhook": "https://shop.example/tools/order-status"}]}
/// ```
///
/// The API key is never part of the configuration: ``apiKeyEnvironment`` names the environment variable that holds
/// it, and the key is sent to the endpoint only, never logged nor sent to clients.
public struct LanguageModelConfiguration: JSONConvertible, Codable, Hashable {
    /// The API base, such as `http://127.0.0.1:11434/v1`; requests go to `URL/chat/completions`.
    public var url: String
    /// The model's name, as the endpoint knows it.
    public var model: String
    /// The environment variable holding the API key, sent as `Authorization: Bearer KEY`; nil sends none.
    public var apiKeyEnvironment: String?
    /// The system message every request starts with; nil sends none.
    public var instructions: String?
    /// How many of the conversation's earlier messages each request carries at most. Default 20.
    public var history: Int
    /// How many tokens of earlier messages each request carries at most, estimated as a token per four
    /// characters; the oldest are left out first. Default 4000.
    public var historyTokens: Int
    /// The most tokens the model may write in one request (`max_tokens`); nil leaves it to the endpoint.
    /// Default 512.
    public var maxTokens: Int?
    /// The sampling temperature (`temperature`); nil leaves it to the endpoint.
    public var temperature: Double?
    /// How long one turn may take, tool calls included, in seconds. Default 60.
    public var timeoutSeconds: Double
    /// The operator's tools: functions the model may call, each answered by its webhook.
    public var tools: [LanguageModelTool]
    /// Whether the model may offer the user choices (the built-in `offerChoices` tool): they become postback
    /// actions on the answer. Default `true`.
    public var offerChoices: Bool
    /// Whether the model may hand the conversation to a live agent (the built-in `handOffToAgent` tool). Default
    /// `true`.
    public var handOff: Bool
    /// How many rounds of tool calls one turn may take. Default 4.
    public var maxToolSteps: Int
    /// How many tokens the model may write in one turn, over all its tool steps; nil: no bound. Default nil.
    public var maxTokensPerTurn: Int?
    /// How many tokens, in and out, one conversation's turns may use in a day (UTC), as the endpoint reports them
    /// (else estimated at four characters a token); nil: no bound. Default nil. A turn starts only under the
    /// bound and then runs to its end (bounded by ``maxTokens`` and ``maxTokensPerTurn``); past it, the user gets an
    /// `llm.dailyLimit` error until the next day. The count is kept in the conversation's stored state, so it
    /// holds on every node and across restarts; an answer cancelled by a newer message is not counted.
    public var maxTokensPerDay: Int?
    /// How many requests this server sends to the endpoint at once; more wait for a free one. Default 8.
    public var maxConcurrentRequests: Int

    /// Creates a configuration; see the properties for the defaults.
    public init(
        url: String, model: String, apiKeyEnvironment: String? = nil, instructions: String? = nil, history: Int = 20,
        historyTokens: Int = 4000, maxTokens: Int? = 512, temperature: Double? = nil, timeoutSeconds: Double = 60,
        tools: [LanguageModelTool] = [], offerChoices: Bool = true, handOff: Bool = true, maxToolSteps: Int = 4,
        maxTokensPerTurn: Int? = nil, maxTokensPerDay: Int? = nil, maxConcurrentRequests: Int = 8
    ) {
        self.url = url
        self.model = model
        self.apiKeyEnvironment = apiKeyEnvironment
        self.instructions = instructions
        self.history = history
        self.historyTokens = historyTokens
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.timeoutSeconds = timeoutSeconds
        self.tools = tools
        self.offerChoices = offerChoices
        self.handOff = handOff
        self.maxToolSteps = maxToolSteps
        self.maxTokensPerTurn = maxTokensPerTurn
        self.maxTokensPerDay = maxTokensPerDay
        self.maxConcurrentRequests = maxConcurrentRequests
    }

    /// Decodes the configuration-file form; `url` and `model` are required.
    /// - Throws: ``ParleyError`` for a missing or mistyped member, a member the format does not have (so that a
    ///   misspelt option is not silently ignored), an URL that is not http or https, or a value out of range.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let unboundedTokens = reader.object["maxTokens"]?.isNull == true
        let maxTokens: Int? = try reader.optional("maxTokens")
        self.init(
            url: try reader.required("url"), model: try reader.required("model"),
            apiKeyEnvironment: try reader.optional("apiKeyEnvironment"),
            instructions: try reader.optional("instructions"), history: try reader.optional("history") ?? 20,
            historyTokens: try reader.optional("historyTokens") ?? 4000,
            maxTokens: unboundedTokens ? nil : maxTokens ?? 512,
            temperature: try reader.optional("temperature"),
            timeoutSeconds: try reader.optional("timeoutSeconds") ?? 60,
            tools: try reader.optional("tools") ?? [], offerChoices: try reader.optional("offerChoices") ?? true,
            handOff: try reader.optional("handOff") ?? true, maxToolSteps: try reader.optional("maxToolSteps") ?? 4,
            maxTokensPerTurn: try reader.optional("maxTokensPerTurn"),
            maxTokensPerDay: try reader.optional("maxTokensPerDay"),
            maxConcurrentRequests: try reader.optional("maxConcurrentRequests") ?? 8)
        if let unknown = reader.rest.first(where: { !$0.value.isNull }) {
            throw ParleyError(
                .invalidValue, "a language model has no member \(JSONValue.string(unknown.key))",
                path: JSONPath([.key(unknown.key)]))
        }
        try validate()
    }

    /// Checks the values: an http or https URL, a model name, positive bounds, tools with distinct valid names.
    /// - Throws: ``ParleyError`` with code `config.invalidValue` and the member's path.
    public func validate() throws(ParleyError) {
        func fail(_ key: String, _ message: String) -> ParleyError {
            ParleyError(.invalidValue, message, path: JSONPath([.key(key)]))
        }
        guard (try? HTTPEndpoint(url)) != nil else { throw fail("url", "url is an http or https URL: \(url)") }
        guard !model.isEmpty else { throw fail("model", "model names the model") }
        guard history >= 0 else { throw fail("history", "history is 0 or more messages") }
        guard historyTokens >= 0 else { throw fail("historyTokens", "historyTokens is 0 or more") }
        guard (maxTokens ?? 1) > 0 else { throw fail("maxTokens", "maxTokens is 1 or more") }
        guard timeoutSeconds > 0, timeoutSeconds <= 3600 else {
            throw fail("timeoutSeconds", "timeoutSeconds is more than 0 and at most 3600")
        }
        guard maxToolSteps >= 0 else { throw fail("maxToolSteps", "maxToolSteps is 0 or more") }
        guard (maxTokensPerTurn ?? 1) > 0 else { throw fail("maxTokensPerTurn", "maxTokensPerTurn is 1 or more") }
        guard (maxTokensPerDay ?? 1) > 0 else { throw fail("maxTokensPerDay", "maxTokensPerDay is 1 or more") }
        guard maxConcurrentRequests > 0 else {
            throw fail("maxConcurrentRequests", "maxConcurrentRequests is 1 or more")
        }
        var names: Set<String> = [BuiltInTool.offerChoices, BuiltInTool.handOffToAgent]
        for (index, tool) in tools.enumerated() {
            do {
                try tool.validate()
            } catch {
                throw error.within(.key("tools"), .index(index))
            }
            guard names.insert(tool.name).inserted else {
                throw ParleyError(
                    .invalidValue, "the tool name \(tool.name) is taken",
                    path: JSONPath([.key("tools"), .index(index), .key("name")]))
            }
        }
    }

    /// The configuration-file form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 16)
        builder.set("url", url)
        builder.set("model", model)
        builder.set("apiKeyEnvironment", apiKeyEnvironment)
        builder.set("instructions", instructions)
        builder.set("history", history)
        builder.set("historyTokens", historyTokens)
        builder.set("maxTokens", maxTokens.map(JSONValue.init(integerLiteral:)) ?? .null)
        builder.set("temperature", temperature)
        builder.set("timeoutSeconds", timeoutSeconds)
        if !tools.isEmpty { builder.set("tools", tools) }
        builder.set("offerChoices", offerChoices)
        builder.set("handOff", handOff)
        builder.set("maxToolSteps", maxToolSteps)
        builder.set("maxTokensPerTurn", maxTokensPerTurn)
        builder.set("maxTokensPerDay", maxTokensPerDay)
        builder.set("maxConcurrentRequests", maxConcurrentRequests)
        return builder.finish()
    }
}

/// An operator's tool: a function the model may call, answered by a webhook the operator configured.
///
/// The model's arguments are checked against ``parameters`` (a JSON Schema; see ``JSONSchemaCheck`` for the part
/// of it that is checked), then posted to ``webhook`` as `{"tool", "arguments", "channelId", "userId",
/// "messageId"}`; the answer's body, whatever it is, goes back to the model as the tool's result.
public struct LanguageModelTool: JSONConvertible, Codable, Hashable {
    /// The function's name: letters, digits, `_` and `-`, at most 64.
    public var name: String
    /// What the function does, for the model.
    public var description: String?
    /// The JSON Schema of its arguments (an object schema).
    public var parameters: JSONValue
    /// Where calls are posted: an http or https URL.
    public var webhook: String

    /// Creates a tool.
    public init(name: String, description: String? = nil, parameters: JSONValue = ["type": "object"], webhook: String) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.webhook = webhook
    }

    /// Decodes `{"name", "description"?, "parameters"?, "webhook"}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        self.init(
            name: try reader.required("name"), description: try reader.optional("description"),
            parameters: try reader.optional("parameters") ?? ["type": "object"], webhook: try reader.required("webhook")
        )
        if let unknown = reader.rest.first(where: { !$0.value.isNull }) {
            throw ParleyError(
                .invalidValue, "a tool has no member \(JSONValue.string(unknown.key))",
                path: JSONPath([.key(unknown.key)]))
        }
    }

    /// Checks the name, the schema's shape and the webhook URL.
    public func validate() throws(ParleyError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        guard !name.isEmpty, name.count <= 64, name.allSatisfy(allowed.contains) else {
            throw ParleyError(
                .invalidValue, "a tool's name is 1 to 64 letters, digits, _ or -: \(name)",
                path: JSONPath([.key("name")]))
        }
        guard parameters.objectValue != nil else {
            throw ParleyError(
                .invalidValue, "a tool's parameters are a JSON Schema object", path: JSONPath([.key("parameters")]))
        }
        guard (try? HTTPEndpoint(webhook)) != nil else {
            throw ParleyError(
                .invalidValue, "a tool's webhook is an http or https URL: \(webhook)",
                path: JSONPath([.key("webhook")]))
        }
    }

    /// The configuration-file form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 4)
        builder.set("name", name)
        builder.set("description", description)
        builder.set("parameters", parameters)
        builder.set("webhook", webhook)
        return builder.finish()
    }
}
