import ParleyCore

/// The tools every language-model skill offers the model unless its configuration turns them off.
enum BuiltInTool {
    /// Offer the user choices: `{"choices": ["…", …]}`; they become postback actions on the answer.
    static let offerChoices = "offerChoices"
    /// Hand the conversation to a live agent: `{"reason": "…"}`.
    static let handOffToAgent = "handOffToAgent"

    /// The most choices one answer offers.
    static let maximumChoices = 10

    static let offerChoicesParameters: JSONValue = [
        "type": "object",
        "properties": [
            "choices": [
                "type": "array", "items": ["type": "string", "minLength": 1, "maxLength": 80], "minItems": 1,
                "maxItems": .number(Double(maximumChoices)),
            ]
        ],
        "required": ["choices"],
    ]

    static let handOffParameters: JSONValue = [
        "type": "object", "properties": ["reason": ["type": "string"]],
    ]

    /// The function definitions of a request's `tools`: the built-in ones the configuration allows, then the
    /// operator's.
    static func definitions(for configuration: LanguageModelConfiguration) -> [JSONValue] {
        var tools: [JSONValue] = []
        if configuration.offerChoices {
            tools.append(
                function(
                    offerChoices,
                    "Show the user buttons with short answers to choose from, with your message. Use it when the "
                        + "user picks one of a few options.", offerChoicesParameters))
        }
        if configuration.handOff {
            tools.append(
                function(
                    handOffToAgent,
                    "Hand the conversation to a human agent, when the user asks for a person or you cannot help.",
                    handOffParameters))
        }
        for tool in configuration.tools {
            tools.append(function(tool.name, tool.description, tool.parameters))
        }
        return tools
    }

    private static func function(_ name: String, _ description: String?, _ parameters: JSONValue) -> JSONValue {
        var function: JSONObject = ["name": .string(name), "parameters": parameters]
        if let description { function["description"] = .string(description) }
        return ["type": "function", "function": .object(function)]
    }
}
