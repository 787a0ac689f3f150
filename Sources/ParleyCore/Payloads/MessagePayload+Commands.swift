extension MessagePayload {
    /// The members of an `inboundEvent` or `outboundEvent` payload: an application event in
    /// CloudEvents terms.
    public struct Event: PayloadContent {
        /// The event type, such as `com.pizzastore.pizza.orderserved` (`eventType`).
        public var eventType: String
        /// The event type's version, such as `1.0` (`eventVersion`).
        public var eventVersion: String
        /// The event's body (`eventData`).
        public var eventData: JSONValue
        /// CloudEvents context attributes such as `id` and `source` (`contextProperties`).
        public var contextProperties: JSONObject?
        /// Creates event content.
        public init(eventType: String, eventVersion: String, eventData: JSONValue, contextProperties: JSONObject? = nil)
        {
            self.eventType = eventType
            self.eventVersion = eventVersion
            self.eventData = eventData
            self.contextProperties = contextProperties
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            eventType = try reader.required("eventType")
            eventVersion = try reader.required("eventVersion")
            eventData = try reader.required("eventData")
            contextProperties = try reader.optional("contextProperties")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("eventType", eventType)
            builder.set("eventVersion", eventVersion)
            builder.set("eventData", eventData)
            builder.set("contextProperties", contextProperties)
        }
    }

    /// The members of a `suggest` payload: what the user has typed so far, for autocomplete.
    public struct Suggest: PayloadContent {
        /// The text typed so far (`query`).
        public var query: String
        /// The lowest match score to suggest, 0–100 (`threshold`).
        public var threshold: Double?
        /// Creates suggest content.
        public init(query: String, threshold: Double? = nil) {
            self.query = query
            self.threshold = threshold
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            query = try reader.required("query")
            threshold = try reader.optional("threshold")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("query", query)
            builder.set("threshold", threshold)
        }
    }

    /// The members of a `command` payload; arguments are in ``MessagePayload/properties``.
    public struct Command: PayloadContent {
        /// The command (`command`).
        public var command: CommandType
        /// Creates command content.
        public init(_ command: CommandType) { self.command = command }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            command = try reader.required("command")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("command", command)
        }
    }

    /// The members of an `updateApplicationContextCommand` payload: the application the chat is
    /// embedded in changed page or field.
    ///
    /// The web SDK sends a ``context`` string; the Oracle node SDK sends ``applicationName``,
    /// ``pageName``, ``fieldName`` and ``parameters``. Both shapes decode.
    public struct ApplicationContext: PayloadContent {
        /// Who changed the context (`source`).
        public var source: ContextSource
        /// The context, as the web SDK sends it (`context`).
        public var context: String?
        /// The command name, `updateApplicationContext` (`command`).
        public var command: CommandType?
        /// The application (`applicationName`).
        public var applicationName: String?
        /// The page (`pageName`).
        public var pageName: String?
        /// The field (`fieldName`).
        public var fieldName: String?
        /// More context (`parameters`).
        public var parameters: JSONObject?
        /// Whether to reset the conversation flow (`reset`).
        public var reset: Bool?
        /// Creates application-context content.
        public init(
            source: ContextSource, context: String? = nil, command: CommandType? = nil, applicationName: String? = nil,
            pageName: String? = nil, fieldName: String? = nil, parameters: JSONObject? = nil, reset: Bool? = nil
        ) {
            self.source = source
            self.context = context
            self.command = command
            self.applicationName = applicationName
            self.pageName = pageName
            self.fieldName = fieldName
            self.parameters = parameters
            self.reset = reset
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            source = try reader.required("source")
            context = try reader.optional("context")
            command = try reader.optional("command")
            applicationName = try reader.optional("applicationName")
            pageName = try reader.optional("pageName")
            fieldName = try reader.optional("fieldName")
            parameters = try reader.optional("parameters")
            reset = try reader.optional("reset")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("command", command)
            builder.set("source", source)
            builder.set("context", context)
            builder.set("applicationName", applicationName)
            builder.set("pageName", pageName)
            builder.set("fieldName", fieldName)
            builder.set("parameters", parameters)
            builder.set("reset", reset)
        }
    }

    /// The members of an `executeApplicationActionCommand` payload: the skill asks the
    /// application to do something. Arguments are in ``MessagePayload/properties``.
    ///
    /// The web SDK reads ``actionType``; the Oracle node SDK writes ``action``. Both decode;
    /// ``effectiveAction`` gives whichever is present.
    public struct ApplicationAction: PayloadContent {
        /// The action as the web SDK names it: `custom`, `navigate`, `query`, `updateFields` (`actionType`).
        public var actionType: String?
        /// The action as the node SDK names it (`action`).
        public var action: String?
        /// The command name, `executeApplicationAction` (`command`).
        public var command: CommandType?
        /// The application (`applicationName`).
        public var applicationName: String?
        /// The page (`pageName`).
        public var pageName: String?
        /// Creates application-action content.
        public init(
            actionType: String? = nil, action: String? = nil, command: CommandType? = nil,
            applicationName: String? = nil, pageName: String? = nil
        ) {
            self.actionType = actionType
            self.action = action
            self.command = command
            self.applicationName = applicationName
            self.pageName = pageName
        }
        /// ``actionType``, or ``action`` when only that is present.
        public var effectiveAction: String? { actionType ?? action }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            actionType = try reader.optional("actionType")
            action = try reader.optional("action")
            command = try reader.optional("command")
            applicationName = try reader.optional("applicationName")
            pageName = try reader.optional("pageName")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("command", command)
            builder.set("applicationName", applicationName)
            builder.set("pageName", pageName)
            builder.set("action", action)
            builder.set("actionType", actionType)
        }
    }

    /// The members of a `getDebugInfoCommand` payload.
    public struct DebugInfoRequest: PayloadContent {
        /// Which kinds of information to return (`infoTypes`).
        public var infoTypes: [String]
        /// Creates a debug-info request.
        public init(infoTypes: [String]) { self.infoTypes = infoTypes }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            infoTypes = try reader.required("infoTypes")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("infoTypes", infoTypes)
        }
    }
}
