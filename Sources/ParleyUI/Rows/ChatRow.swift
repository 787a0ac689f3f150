public import Foundation

/// One row of the message list, top to bottom: day headers, messages, uploads in progress and, last, the typing
/// indicator. A list view draws ``ChatViewModel/rows`` with one `ForEach`; each row's ``id`` is stable while it
/// stays on screen (a message keeps its id when it is updated or its delivery changes).
public enum ChatRow: Sendable, Hashable, Identifiable {
    /// The date before the first message of a day (relative timestamps only, as in Oracle's SDK).
    case dayHeader(DayHeader)
    /// A message from the user, the skill or an agent.
    case message(MessageRow)
    /// A file the user is sending: uploading, or failed and waiting for a retry.
    case upload(UploadRow)
    /// Someone is typing on the other side (`showTypingStatus`).
    case typing(TypingRow)

    /// A stable id: `day-<date>`, the message's id, `upload-<n>`, `typing`.
    public var id: String {
        switch self {
        case .dayHeader(let header): header.id
        case .message(let message): message.id
        case .upload(let upload): upload.id
        case .typing: "typing"
        }
    }

    /// The message, when the row is one.
    public var message: MessageRow? {
        if case .message(let message) = self { message } else { nil }
    }
}

/// A date header: the first message of a day, with its date and time formatted by `timestampFormat` (Oracle: "an
/// absolute timestamp displays before the first message of the day as a header").
public struct DayHeader: Sendable, Hashable, Identifiable {
    /// `day-<yyyy-MM-dd>` in the screen's time zone.
    public var id: String
    /// The start of the day, in the screen's time zone.
    public var day: Date
    /// What the header says.
    public var text: String
}

/// Who a bubble is from, as a screen draws it.
public enum Sender: Sendable, Hashable {
    /// The user of this app (a bubble on the trailing side).
    case user
    /// The skill, including the client's own default responses for a slow skill.
    case skill
    /// A live agent.
    case agent
}

/// Where a message stands in a run of consecutive messages from the same sender (and, for agents, the same agent)
/// on the same day: a view rounds corners and shows the avatar and name once per run.
public enum GroupPosition: Sendable, Hashable {
    /// Alone.
    case single
    /// The first of several.
    case first
    /// Between the first and the last.
    case middle
    /// The last of several.
    case last

    /// Whether the run starts here (the avatar and the sender's name go here).
    public var startsGroup: Bool { self == .single || self == .first }
}

/// A picture for a sender: the app's asset or a URL (`botAvatar`, `agentAvatar`, `personAvatar`, the agent's
/// `avatarImage`), or the agent's initials on a coloured disc when there is no image.
public enum Avatar: Sendable, Hashable {
    /// An asset name of the app, or an image URL.
    case image(String)
    /// Initials, with the colours the server or `setAgentDetails` gave (`nil`: the view's defaults).
    case initials(String, text: RGBA?, background: RGBA?)
}

/// A message bubble and what goes with it.
public struct MessageRow: Sendable, Hashable, Identifiable {
    /// The transcript entry's id (``ChatMessage/id``).
    public var id: String
    /// Who sent it.
    public var sender: Sender
    /// Whether the client made it itself (a default response for a slow skill, `enableDefaultClientResponse`).
    public var isClientResponse: Bool
    /// What the bubble shows.
    public var content: MessageContent
    /// Text above the content (`headerText`).
    public var headerText: String?
    /// Text below the content (`footerText`).
    public var footerText: String?
    /// The message's buttons (`actions`), laid out as ``ActionsLayout/local`` says.
    public var actions: [ActionItem]
    /// The buttons below the message (`globalActions`), laid out as ``ActionsLayout/global`` says.
    public var globalActions: [ActionItem]
    /// How ``actions`` are laid out.
    public var actionsLayout: ActionsLayout.Direction
    /// How ``globalActions`` are laid out.
    public var globalActionsLayout: ActionsLayout.Direction
    /// When the client sent or received it.
    public var date: Date
    /// The timestamp to show, or `nil`: every message with `absolute` timestamps, only the latest with `relative`
    /// ones, none without `enableTimestamp`.
    public var timestamp: String?
    /// The sender's avatar, on the first message of a run (``GroupPosition/startsGroup``); `nil` when there is
    /// none to show.
    public var avatar: Avatar?
    /// The agent's name, on the first message of a run of agent messages.
    public var senderName: String?
    /// The colour of ``senderName`` (`agentSession.nameTextColor`).
    public var senderNameColor: RGBA?
    /// Where it stands in its run.
    public var groupPosition: GroupPosition
    /// For the user's messages: where the message is on its way.
    public var delivery: DeliveryState?
    /// What to show for ``delivery`` (`parley_delivery_*`), or `nil`.
    public var deliveryText: String?
    /// Whether a retry button is shown (the message failed: ``ChatViewModel/retry(_:)``).
    public var canRetry: Bool
    /// What VoiceOver reads (`odais_access_label_*`).
    public var accessibilityLabel: String
    /// The transcript entry, for anything the row does not carry.
    public var message: ChatMessage
}

/// What a message bubble shows, by payload type.
public enum MessageContent: Sendable, Hashable {
    /// A text, a postback's label (what the user chose) or a streamed text (`isStreaming` until its `end`).
    case text(String, isStreaming: Bool)
    /// Cards in a horizontal carousel or a vertical list.
    case cards(CardsContent)
    /// An edit form the user fills in; the values are in ``ChatViewModel/formDrafts``.
    case editForm(EditFormContent)
    /// Read-only forms (`form`), a table (`table`) or a table of forms (`tableForm`): drawn from the payload.
    case readOnly(MessagePayload.Content)
    /// An image, video, audio clip or file.
    case attachment(AttachmentContent)
    /// A place.
    case location(Location)
    /// A channel-specific payload (`raw`): the app draws it or not.
    case raw(JSONValue)
    /// An error the skill or server sent.
    case error(String)
    /// A payload type this version does not know, as JSON.
    case unknown(type: String, payload: JSONValue)
}

/// Cards and their layout.
public struct CardsContent: Sendable, Hashable {
    /// `horizontal` (a carousel) or `vertical` (a list); an unknown layout is drawn vertically.
    public var layout: CardLayout
    /// The cards.
    public var cards: [CardItem]
}

/// One card.
public struct CardItem: Sendable, Hashable, Identifiable {
    /// `<message id>/card/<index>`.
    public var id: String
    /// The first line.
    public var title: String
    /// The text under it.
    public var description: String?
    /// A picture.
    public var imageUrl: String?
    /// The page a tap on the card opens (``ChatViewModel/open(_:)``).
    public var url: String?
    /// The card's buttons, laid out as ``ActionsLayout/card`` says.
    public var actions: [ActionItem]
    /// What VoiceOver reads.
    public var accessibilityLabel: String
}

/// An edit form.
public struct EditFormContent: Sendable, Hashable {
    /// The form as the skill sent it (fields, layout rows, title, error message).
    public var form: MessagePayload.EditForm
    /// The form's actions (`submitForm` and others), laid out as ``ActionsLayout/form`` says.
    public var actions: [ActionItem]
    /// Whether the form can still be filled in and submitted (`disablePastActions`).
    public var isEnabled: Bool
}

/// An attachment.
public struct AttachmentContent: Sendable, Hashable {
    /// `image`, `video`, `audio` or `file`.
    public var type: AttachmentType
    /// Where to download it.
    public var url: String
    /// Its title or file name.
    public var title: String?
}

/// A button: an action with what a view needs to draw it and whether it may be used.
public struct ActionItem: Sendable, Hashable, Identifiable {
    /// `<message id>/<where>/<index>`, stable while the message stays.
    public var id: String
    /// The action as the skill sent it; ``ChatViewModel/perform(_:)`` takes the item.
    public var action: Action
    /// The label.
    public var label: String?
    /// The image.
    public var imageUrl: String?
    /// Whether it may be used: `disablePastActions` disables the actions of messages the user answered.
    public var isEnabled: Bool

    /// A button for `action`; the label and image are the action's unless given. For what ``RowBuilder`` leaves in
    /// a payload (the actions of a read-only form's fields), and for previews.
    public init(
        id: String, action: Action, label: String? = nil, imageUrl: String? = nil, isEnabled: Bool = true
    ) {
        self.id = id
        self.action = action
        self.label = label ?? action.label
        self.imageUrl = imageUrl ?? action.imageUrl
        self.isEnabled = isEnabled
    }
}

/// A file being sent.
public struct UploadRow: Sendable, Hashable, Identifiable {
    /// Where the upload is.
    public enum State: Sendable, Hashable {
        /// Uploading; the fraction sent, 0 to 1.
        case uploading(progress: Double)
        /// It failed: the message to show (`odais_file_not_supported`, `odais_file_size_warning` or
        /// `parley_upload_failed`) and the error.
        case failed(message: String, error: ParleyError)
    }

    /// `upload-<n>`.
    public var id: String
    /// The file's name.
    public var fileName: String
    /// Its MIME type.
    public var mimeType: String
    /// Its size in bytes.
    public var size: Int
    /// Where it is.
    public var state: State
    /// What to show under it (`parley_uploading`, or the failure).
    public var statusText: String
    /// Whether a retry button is shown (a failure that may pass on a second try: not a type or size refusal).
    public var canRetry: Bool
    /// Whether a cancel button is shown (``ChatViewModel/cancelUpload(_:)``): the upload is under way.
    public var canCancel: Bool
}

/// Who is typing on the other side.
public struct TypingRow: Sendable, Hashable {
    /// The skill or an agent.
    public var sender: Sender
    /// `odais_typing_status`.
    public var text: String
    /// The agent's name, when an agent types.
    public var name: String?
    /// The agent's avatar, or the skill's.
    public var avatar: Avatar?
}
