/// A call from the app into the chat page, encoded as JavaScript for `evaluateJavaScript`.
///
/// The function is a checked name; every argument is a JSON literal (``JavaScript``), so no string —
/// a user's text, a server's id, a token — can break out of its argument and run as code. miibo's sample
/// builds the call by string interpolation (`"setAppInfo(\"\(apiKey)\",\"\(uid)\");"`), which a quote in
/// either value breaks.
///
/// ```swift
/// BridgeCommand.sendMessage(#"He said "hi" </script>"#).javaScript
/// // sendMessage("He said \"hi\" <\/script>");
/// ```
public struct BridgeCommand: Sendable, Hashable, CustomStringConvertible {
    /// The function called: a JavaScript identifier or a dotted path of identifiers (`parley.sendMessage`).
    public let function: String
    /// The arguments, in order.
    public let arguments: [JSONValue]

    /// Creates a command calling `function` with `arguments`.
    /// - Throws: ``ParleyError`` `decode.invalidValue` when `function` is not an identifier or a dotted path
    ///   of identifiers (ASCII letters, digits, `_` and `$`, not starting with a digit).
    public init(function: String, arguments: [JSONValue] = []) throws(ParleyError) {
        guard Self.isFunctionName(function) else {
            throw ParleyError(.invalidValue, "\(JSONValue.string(function)) is not a JavaScript function name")
        }
        self.init(checked: function, arguments: arguments)
    }

    private init(checked function: String, arguments: [JSONValue]) {
        self.function = function
        self.arguments = arguments
    }

    /// The call as a JavaScript statement: `function(argument, …);`.
    public var javaScript: String {
        "\(function)(\(arguments.map { JavaScript.literal($0) }.joined(separator: ",")));"
    }

    /// The JavaScript statement.
    public var description: String { javaScript }

    static func isFunctionName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
                return part.unicodeScalars.allSatisfy { scalar in
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || scalar == "_" || scalar == "$"
                }
            }
    }
}

extension BridgeCommand {
    /// `setAppInfo(apiKey, uid)`: miibo's call after `agentLoaded`. For Parley's widget `apiKey` is the
    /// channel's token (JWT), `nil` or empty on an unauthenticated channel, and `uid` the user id; the page
    /// (re)connects as that user.
    public static func setAppInfo(apiKey: String?, uid: String) -> BridgeCommand {
        BridgeCommand(checked: "setAppInfo", arguments: [apiKey.map(JSONValue.string) ?? .null, .string(uid)])
    }

    /// `sendMessage(text)`: sends `text` as if the user had typed it.
    public static func sendMessage(_ text: String) -> BridgeCommand {
        BridgeCommand(checked: "sendMessage", arguments: [.string(text)])
    }

    /// `parley.clearConversation()`: clears the messages shown (Parley's widget).
    public static let clearConversation = BridgeCommand(checked: "parley.clearConversation", arguments: [])

    /// `parley.endConversation()`: ends the conversation, as the page's End button (Parley's widget).
    public static let endConversation = BridgeCommand(checked: "parley.endConversation", arguments: [])
}
