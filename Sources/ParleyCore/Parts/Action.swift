/// Something the user can choose: a button, link or icon attached to a message, card, row or form.
///
/// ```json
/// {"type": "postback", "label": "Large Pizza", "postback": {"state": "askSize", "action": "getCrust"}}
/// ```
///
/// What the action does is its ``kind``; how it is drawn is in the shared properties. An action
/// type this version does not know decodes as ``Kind/unknown(_:)`` with its members kept in ``extra``.
public struct Action: JSONConvertible, Codable, Hashable {
    /// What choosing the action does.
    public var kind: Kind
    /// The button text (`label`); an action has a label, an image, or both.
    public var label: String?
    /// The button image (`imageUrl`).
    public var imageUrl: String?
    /// An id, used by embedded actions (`id`).
    public var id: String?
    /// Emphasis (`style`).
    public var style: ActionStyle?
    /// Button, link or icon (`displayType`).
    public var displayType: ActionDisplayType?
    /// A tooltip (`tooltip`, web SDK).
    public var tooltip: String?
    /// Words that choose the action without a tap (`keywords`, postback actions).
    public var keywords: [String]?
    /// Whether to leave the action out of automatic numbering (`skipAutoNumber`).
    public var skipAutoNumber: Bool?
    /// How a voice channel speaks the action (`voice`).
    public var voice: Voice?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// What choosing an action does, by action `type`.
    public enum Kind: Sendable, Hashable {
        /// `postback`: send this postback (a string or an object) to the skill.
        case postback(JSONValue)
        /// `call`: call this phone number.
        case call(phoneNumber: String)
        /// `url`: open this web page.
        case url(String)
        /// `location`: ask for the user's location and send it.
        case location
        /// `share`: share the message.
        case share
        /// `submitForm`: submit the enclosing edit form, with this postback if any.
        case submitForm(postback: JSONValue?)
        /// `popup`: show this message (usually an edit form) in a dialog.
        indirect case popup(MessagePayload)
        /// `webview`: open this page inside the chat.
        case webview(url: String)
        /// `client`: let the app handle it (`actionType`, such as `copyMessageText`).
        case client(actionType: String?)
        /// An action type this version does not know.
        case unknown(ActionType)

        /// The wire `type`.
        public var type: ActionType {
            switch self {
            case .postback: .postback
            case .call: .call
            case .url: .url
            case .location: .location
            case .share: .share
            case .submitForm: .submitForm
            case .popup: .popup
            case .webview: .webview
            case .client: .client
            case .unknown(let type): type
            }
        }
    }

    /// Creates an action.
    public init(
        _ kind: Kind, label: String? = nil, imageUrl: String? = nil, id: String? = nil, style: ActionStyle? = nil,
        displayType: ActionDisplayType? = nil, tooltip: String? = nil, keywords: [String]? = nil,
        skipAutoNumber: Bool? = nil, voice: Voice? = nil, channelExtensions: ChannelExtensions? = nil,
        extra: JSONObject = [:]
    ) {
        self.kind = kind
        self.label = label
        self.imageUrl = imageUrl
        self.id = id
        self.style = style
        self.displayType = displayType
        self.tooltip = tooltip
        self.keywords = keywords
        self.skipAutoNumber = skipAutoNumber
        self.voice = voice
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// A postback button.
    public static func postback(_ label: String, _ postback: JSONValue) -> Action {
        Action(.postback(postback), label: label)
    }

    /// The wire `type`.
    public var type: ActionType { kind.type }

    /// Decodes an action, choosing ``kind`` by `type`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let type: ActionType = try reader.required("type")
        switch type {
        case .postback: kind = .postback(try reader.required("postback"))
        case .call: kind = .call(phoneNumber: try reader.required("phoneNumber"))
        case .url: kind = .url(try reader.required("url"))
        case .location: kind = .location
        case .share: kind = .share
        case .submitForm: kind = .submitForm(postback: try reader.optional("postback"))
        case .popup: kind = .popup(try reader.required("popupContent"))
        case .webview: kind = .webview(url: try reader.required("url"))
        case .client: kind = .client(actionType: try reader.optional("actionType"))
        default: kind = .unknown(type)
        }
        do {
            label = try reader.optional("label")
            imageUrl = try reader.optional("imageUrl")
            id = try reader.optional("id")
            style = try reader.optional("style")
            displayType = try reader.optional("displayType")
            tooltip = try reader.optional("tooltip")
            keywords = try reader.optional("keywords")
            skipAutoNumber = try reader.optional("skipAutoNumber")
            voice = try reader.optional("voice")
            channelExtensions = try reader.optional("channelExtensions")
        } catch {
            // A type this version does not know may use the shared keys differently: keep it all, untyped.
            guard case .unknown = kind else { throw error }
            self = Action(kind, extra: reader.object.removing("type"))
            return
        }
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 4 + extra.count)
        builder.set("type", type)
        builder.set("id", id)
        builder.set("label", label)
        builder.set("imageUrl", imageUrl)
        switch kind {
        case .postback(let postback): builder.set("postback", postback)
        case .call(let phoneNumber): builder.set("phoneNumber", phoneNumber)
        case .url(let url), .webview(let url): builder.set("url", url)
        case .submitForm(let postback): builder.set("postback", postback)
        case .popup(let content): builder.set("popupContent", content)
        case .client(let actionType): builder.set("actionType", actionType)
        case .location, .share, .unknown: break
        }
        builder.set("style", style)
        builder.set("displayType", displayType)
        builder.set("tooltip", tooltip)
        builder.set("keywords", keywords)
        builder.set("skipAutoNumber", skipAutoNumber)
        builder.set("voice", voice)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}
