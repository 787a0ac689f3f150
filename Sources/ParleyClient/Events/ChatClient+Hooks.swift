extension ChatClient {
    /// Closures that see, change or drop messages on their way (Oracle's `BotsMessageServiceDelegate`).
    /// Returning `nil` drops the message: it is not sent, or not displayed.
    ///
    /// The hooks get typed values; each has a `jsonValue` and `init(json:)` for code that prefers to work on the
    /// JSON, and ``json(beforeSend:beforeDisplay:beforeSendPostback:)`` builds hooks that take JSON only.
    ///
    /// ```swift
    /// await client.setHooks(ChatClient.Hooks(beforeDisplay: { message in
    ///     message.payload.type == .status ? nil : message   // hide typing indicators
    /// }))
    /// ```
    public struct Hooks: Sendable {
        /// Sees every user message (text, postback, attachment, location, form submission, hidden init
        /// message) before it is sent.
        public var beforeSend: (@Sendable (UserMessage) async -> UserMessage?)?
        /// Sees every message from the skill or an agent before it is reported and stored.
        public var beforeDisplay: (@Sendable (SkillMessage) async -> SkillMessage?)?
        /// Sees the action the user chose before its postback is built (``beforeSend`` then sees the message).
        public var beforeSendPostback: (@Sendable (Action) async -> Action?)?

        /// Hooks; `nil` leaves a message as it is.
        public init(
            beforeSend: (@Sendable (UserMessage) async -> UserMessage?)? = nil,
            beforeDisplay: (@Sendable (SkillMessage) async -> SkillMessage?)? = nil,
            beforeSendPostback: (@Sendable (Action) async -> Action?)? = nil
        ) {
            self.beforeSend = beforeSend
            self.beforeDisplay = beforeDisplay
            self.beforeSendPostback = beforeSendPostback
        }

        /// Hooks that work on JSON, like Oracle's dictionary-based delegate. JSON that no longer decodes as the
        /// message (or action) drops it, as `nil` does.
        public static func json(
            beforeSend: (@Sendable (JSONValue) async -> JSONValue?)? = nil,
            beforeDisplay: (@Sendable (JSONValue) async -> JSONValue?)? = nil,
            beforeSendPostback: (@Sendable (JSONValue) async -> JSONValue?)? = nil
        ) -> Hooks {
            Hooks(
                beforeSend: bridge(beforeSend), beforeDisplay: bridge(beforeDisplay),
                beforeSendPostback: bridge(beforeSendPostback))
        }

        private static func bridge<Value: JSONConvertible>(
            _ hook: (@Sendable (JSONValue) async -> JSONValue?)?
        ) -> (@Sendable (Value) async -> Value?)? {
            guard let hook else { return nil }
            return { value in
                guard let json = await hook(value.jsonValue) else { return nil }
                return try? Value(json: json)
            }
        }
    }
}
