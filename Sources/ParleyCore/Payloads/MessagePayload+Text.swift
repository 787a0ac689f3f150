extension MessagePayload {
    /// The members of a `text` payload.
    public struct Text: PayloadContent {
        /// The message text (`text`); skills may use Markdown or simple HTML.
        public var text: String
        /// Creates text content.
        public init(_ text: String) { self.text = text }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            text = try reader.required("text")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("text", text)
        }
    }

    /// The members of a `postback` payload: what the user chose.
    public struct Postback: PayloadContent {
        /// The chosen action's postback (`postback`): a string or an object.
        public var postback: JSONValue
        /// The chosen action's label, shown as what the user "said" (`text`).
        public var text: String?
        /// Creates postback content.
        public init(_ postback: JSONValue, text: String? = nil) {
            self.postback = postback
            self.text = text
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            postback = try reader.required("postback")
            text = try reader.optional("text")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("postback", postback)
            builder.set("text", text)
        }
    }

    /// The members of a `textStream` payload: one piece of a reply that arrives in pieces.
    ///
    /// A stream is `start`, any number of `running`, then `end`; `running` pieces carry the new
    /// text, `end` carries the whole text (``aggregateText`` when present).
    public struct TextStream: PayloadContent {
        /// This piece's text (`text`).
        public var text: String
        /// Where the piece is in its stream (`streamState`).
        public var streamState: StreamState
        /// Which stream the piece belongs to (`streamId`).
        public var streamId: String?
        /// All text streamed so far (`aggregateText`).
        public var aggregateText: String?
        /// Creates stream content.
        public init(text: String, streamState: StreamState, streamId: String? = nil, aggregateText: String? = nil) {
            self.text = text
            self.streamState = streamState
            self.streamId = streamId
            self.aggregateText = aggregateText
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            text = try reader.required("text")
            streamState = try reader.required("streamState")
            streamId = try reader.optional("streamId")
            aggregateText = try reader.optional("aggregateText")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("text", text)
            builder.set("streamState", streamState)
            builder.set("streamId", streamId)
            builder.set("aggregateText", aggregateText)
        }
    }

    /// The members of a `status` payload: a live agent (or the user) is typing or idle.
    public struct Status: PayloadContent {
        /// `RESPONDING` (typing) or `LISTENING` (idle) (`status`).
        public var status: TypingStatus
        /// Who is typing, `user` when the client sends it (`partyType`).
        public var partyType: String?
        /// Who produced it, `sdk` when the client sends it (`source`).
        public var source: String?
        /// The user's draft, or "…" without sneak preview (`text`).
        public var text: String?
        /// Creates status content.
        public init(_ status: TypingStatus, partyType: String? = nil, source: String? = nil, text: String? = nil) {
            self.status = status
            self.partyType = partyType
            self.source = source
            self.text = text
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            status = try reader.required("status")
            partyType = try reader.optional("partyType")
            source = try reader.optional("source")
            text = try reader.optional("text")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("status", status)
            builder.set("partyType", partyType)
            builder.set("source", source)
            builder.set("text", text)
        }
    }

    /// The members of an `error` payload: an error to show the user.
    ///
    /// Parley's server also sends one when a frame the client sent cannot be used, adding the
    /// error's stable code (`errorCode`) and JSON path (`errorPath`); Oracle clients show the
    /// message and ignore the rest, Parley clients read ``parleyError``.
    public struct ErrorMessage: PayloadContent {
        /// What to show (`errorMessage`).
        public var errorMessage: String
        /// The error's stable code (`errorCode`, Parley).
        public var errorCode: ParleyError.Code?
        /// Where in the offending frame the problem is (`errorPath`, Parley).
        public var errorPath: String?

        /// Creates error content.
        public init(_ errorMessage: String, errorCode: ParleyError.Code? = nil, errorPath: String? = nil) {
            self.errorMessage = errorMessage
            self.errorCode = errorCode
            self.errorPath = errorPath
        }

        /// Creates error content that carries a ``ParleyError``.
        public init(_ error: ParleyError) {
            self.init(error.message, errorCode: error.code, errorPath: error.path?.description)
        }

        /// The error as a ``ParleyError``, when the payload carries a code.
        public var parleyError: ParleyError? {
            errorCode.map { ParleyError($0, errorMessage, path: errorPath.flatMap(JSONPath.init(parsing:))) }
        }

        init(reading reader: inout FieldReader) throws(ParleyError) {
            errorMessage = try reader.required("errorMessage")
            errorCode = try reader.optional("errorCode", as: String.self).map(ParleyError.Code.init(rawValue:))
            errorPath = try reader.optional("errorPath")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("errorMessage", errorMessage)
            builder.set("errorCode", errorCode?.rawValue)
            builder.set("errorPath", errorPath)
        }
    }

    /// The members of a `card` payload.
    public struct Cards: PayloadContent {
        /// Carousel or list (`layout`).
        public var layout: CardLayout
        /// The cards (`cards`).
        public var cards: [Card]
        /// Creates card content.
        public init(layout: CardLayout, cards: [Card]) {
            self.layout = layout
            self.cards = cards
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            layout = try reader.required("layout")
            cards = try reader.required("cards")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("layout", layout)
            builder.set("cards", cards)
        }
    }

    /// The members of a `raw` payload: something only a particular channel understands.
    public struct Raw: PayloadContent {
        /// The channel-specific payload (`payload`).
        public var payload: JSONValue
        /// Creates raw content.
        public init(_ payload: JSONValue) { self.payload = payload }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            payload = try reader.required("payload")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("payload", payload)
        }
    }
}
