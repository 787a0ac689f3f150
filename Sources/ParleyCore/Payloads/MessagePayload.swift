/// The content of a conversation message (`messagePayload`): one of the 23 payload types of the
/// Oracle protocol, plus the parts every type shares.
///
/// ```swift
/// let payload = try MessagePayload(decoding: #"{"type":"text","text":"What do you want to do?"}"#)
/// switch payload.content {
/// case .text(let text): print(text.text, payload.actions ?? [])
/// case .card(let cards): print(cards.cards.map(\.title))
/// default: break
/// }
/// ```
///
/// A payload type this version does not know decodes as ``Content/unknown(_:)``: its members
/// stay in ``extra`` and it encodes back unchanged.
public struct MessagePayload: JSONConvertible, Codable, Hashable {
    /// What kind of message this is and what only that kind has.
    public var content: Content
    /// Text above the content (`headerText`).
    public var headerText: String?
    /// Text below the content (`footerText`).
    public var footerText: String?
    /// Buttons attached to the message (`actions`).
    public var actions: [Action]?
    /// Buttons shown below the message, such as quick replies (`globalActions`).
    public var globalActions: [Action]?
    /// Words that select a postback without a button (`keywords`).
    public var keywords: [Keyword]?
    /// How a voice channel speaks the message (`voice`).
    public var voice: Voice? {
        get { storedVoice?.value }
        set { storedVoice = newValue.map(Indirect.init) }
    }
    /// A small read-only form under the message, such as feedback buttons (`footerForm`).
    public var footerForm: ReadOnlyForm? {
        get { storedFooterForm?.value }
        set { storedFooterForm = newValue.map(Indirect.init) }
    }
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Free-form properties, such as a command's arguments (`properties`).
    public var properties: JSONObject?
    /// Actions bound to elements inside the text (`embeddedActions`, web SDK).
    public var embeddedActions: [Action]?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject
    // Out of line: both are rare and large (`footerForm` alone is over 300 bytes), and a payload is moved often.
    // Internal rather than private so that the memberwise initializer, which decoding uses, takes them.
    // (Initializers are declared in extensions: one in here would stop Swift from synthesizing it.)
    var storedVoice: Indirect<Voice>?
    var storedFooterForm: Indirect<ReadOnlyForm>?

    /// The wire `type`.
    public var type: PayloadType { content.type }

    /// The wire form: `type`, the content's members, the shared members, then the unknown ones.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 4 + extra.count)
        builder.set("type", type)
        content.write(to: &builder)
        builder.set("headerText", headerText)
        builder.set("footerText", footerText)
        builder.set("actions", actions)
        builder.set("globalActions", globalActions)
        builder.set("keywords", keywords)
        builder.set("voice", voice)
        builder.set("footerForm", footerForm)
        builder.set("channelExtensions", channelExtensions)
        builder.set("properties", properties)
        builder.set("embeddedActions", embeddedActions)
        return builder.finish(with: extra)
    }
}

extension MessagePayload {
    /// Decodes a payload, choosing ``content`` by `type`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let content = try Content(reading: &reader)
        do {
            // Read into locals, then made at once by the memberwise initializer: assigning the stored properties
            // one by one made the optimizer copy the finished payload out and destroy the original, retaining and
            // releasing every member (Swift 6.3, for structs of more than four words).
            let headerText: String? = try reader.optional("headerText")
            let footerText: String? = try reader.optional("footerText")
            let actions: [Action]? = try reader.optional("actions")
            let globalActions: [Action]? = try reader.optional("globalActions")
            let keywords: [Keyword]? = try reader.optional("keywords")
            let storedVoice = try reader.optional("voice", as: Voice.self).map(Indirect.init)
            let storedFooterForm = try reader.optional("footerForm", as: ReadOnlyForm.self).map(Indirect.init)
            let channelExtensions: ChannelExtensions? = try reader.optional("channelExtensions")
            let properties: JSONObject? = try reader.optional("properties")
            let embeddedActions: [Action]? = try reader.optional("embeddedActions")
            self = MessagePayload(
                content: content, headerText: headerText, footerText: footerText, actions: actions,
                globalActions: globalActions, keywords: keywords, channelExtensions: channelExtensions,
                properties: properties, embeddedActions: embeddedActions, extra: reader.rest, storedVoice: storedVoice,
                storedFooterForm: storedFooterForm)
        } catch {
            // A type this version does not know may use the shared keys differently: keep it all, untyped.
            guard case .unknown = content else { throw error }
            self = MessagePayload(content, extra: reader.object.removing("type"))
        }
    }

    /// Creates a payload.
    public init(
        _ content: Content, headerText: String? = nil, footerText: String? = nil, actions: [Action]? = nil,
        globalActions: [Action]? = nil, keywords: [Keyword]? = nil, voice: Voice? = nil,
        footerForm: ReadOnlyForm? = nil, channelExtensions: ChannelExtensions? = nil, properties: JSONObject? = nil,
        embeddedActions: [Action]? = nil, extra: JSONObject = [:]
    ) {
        self = MessagePayload(
            content: content, headerText: headerText, footerText: footerText, actions: actions,
            globalActions: globalActions, keywords: keywords, channelExtensions: channelExtensions,
            properties: properties, embeddedActions: embeddedActions, extra: extra,
            storedVoice: voice.map(Indirect.init), storedFooterForm: footerForm.map(Indirect.init))
    }
}

extension MessagePayload {
    /// A text message.
    public static func text(_ text: String, actions: [Action]? = nil) -> MessagePayload {
        MessagePayload(.text(Text(text)), actions: actions)
    }

    /// The postback of a chosen action, with the action's label as the text the user "said".
    public static func postback(_ postback: JSONValue, text: String? = nil) -> MessagePayload {
        MessagePayload(.postback(Postback(postback, text: text)))
    }

    /// A location message.
    public static func location(_ location: Location) -> MessagePayload {
        MessagePayload(.location(location))
    }

    /// An attachment message.
    public static func attachment(_ attachment: Attachment) -> MessagePayload {
        MessagePayload(.attachment(attachment))
    }

    /// An error to show, carrying the error's code and path.
    public static func error(_ error: ParleyError) -> MessagePayload {
        MessagePayload(.error(ErrorMessage(error)))
    }

    /// The user ends the conversation.
    public static var closeSession: MessagePayload { MessagePayload(.closeSession) }

    /// The text a person would read for this payload, if it has one: the text of a text, text
    /// stream, postback, status or error payload.
    public var text: String? {
        switch content {
        case .text(let text): text.text
        case .textStream(let stream): stream.text
        case .postback(let postback): postback.text
        case .status(let status): status.text
        case .error(let error): error.errorMessage
        default: nil
        }
    }
}
