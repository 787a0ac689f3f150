// The open string enumerations of the message model. Any string decodes and encodes back unchanged;
// the `static let`s are the values the Oracle protocol documents (see docs/protocol.md).

/// The `type` of a message payload.
public struct PayloadType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A text message, possibly with actions.
    public static let `text`: Self = "text"
    /// The postback of an action the user chose.
    public static let postback: Self = "postback"
    /// An image, video, audio clip or file.
    public static let attachment: Self = "attachment"
    /// A geographic location.
    public static let location: Self = "location"
    /// Cards in a horizontal carousel or a vertical list.
    public static let card: Self = "card"
    /// A channel-specific payload.
    public static let raw: Self = "raw"
    /// A table of read-only fields.
    public static let table: Self = "table"
    /// Read-only forms.
    public static let form: Self = "form"
    /// A table whose rows open forms.
    public static let tableForm: Self = "tableForm"
    /// A form the user fills in.
    public static let editForm: Self = "editForm"
    /// The values of a submitted form.
    public static let formSubmission: Self = "formSubmission"
    /// A piece of a streamed text reply.
    public static let textStream: Self = "textStream"
    /// A typing status: the other side is responding or listening.
    public static let status: Self = "status"
    /// The user ends the conversation.
    public static let closeSession: Self = "closeSession"
    /// The server ended the session.
    public static let sessionClosed: Self = "sessionClosed"
    /// An application event sent to the skill.
    public static let inboundEvent: Self = "inboundEvent"
    /// An application event sent by the skill.
    public static let outboundEvent: Self = "outboundEvent"
    /// An autocomplete request.
    public static let suggest: Self = "suggest"
    /// A command such as `repeat` or `humanAgent`.
    public static let command: Self = "command"
    /// An error message to show.
    public static let error: Self = "error"
    /// The application context changed (co-pilot).
    public static let updateApplicationContextCommand: Self = "updateApplicationContextCommand"
    /// The skill asks the application to run an action.
    public static let executeApplicationActionCommand: Self = "executeApplicationActionCommand"
    /// A request for debugging information.
    public static let getDebugInfoCommand: Self = "getDebugInfoCommand"
}

/// The `type` of an action.
public struct ActionType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Sends a postback to the skill.
    public static let postback: Self = "postback"
    /// Calls a phone number.
    public static let call: Self = "call"
    /// Opens a web page.
    public static let url: Self = "url"
    /// Asks for the user's location and sends it.
    public static let location: Self = "location"
    /// Shares the message.
    public static let share: Self = "share"
    /// Submits the enclosing edit form.
    public static let submitForm: Self = "submitForm"
    /// Shows a message (usually an edit form) in a dialog.
    public static let popup: Self = "popup"
    /// Opens a web page inside the chat.
    public static let webview: Self = "webview"
    /// Handled by the client app itself.
    public static let client: Self = "client"
}

/// The `displayType` of a form field.
public struct FieldDisplayType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Read-only text.
    public static let `text`: Self = "text"
    /// Read-only link.
    public static let `link`: Self = "link"
    /// An action button inside a form.
    public static let action: Self = "action"
    /// Read-only image, video or audio.
    public static let media: Self = "media"
    /// Pick one option.
    public static let singleSelect: Self = "singleSelect"
    /// Pick several options.
    public static let multiSelect: Self = "multiSelect"
    /// Pick a date (`yyyy-mm-dd`).
    public static let datePicker: Self = "datePicker"
    /// Pick a time (`hh:mm`, 24-hour).
    public static let timePicker: Self = "timePicker"
    /// Switch between two values.
    public static let toggle: Self = "toggle"
    /// Type text.
    public static let textInput: Self = "textInput"
    /// Type a number.
    public static let numberInput: Self = "numberInput"
}

/// How cards are laid out.
public struct CardLayout: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A carousel.
    public static let horizontal: Self = "horizontal"
    /// A list.
    public static let vertical: Self = "vertical"
}

/// The kind of an attachment.
public struct AttachmentType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A picture.
    public static let image: Self = "image"
    /// A video.
    public static let video: Self = "video"
    /// A sound recording.
    public static let audio: Self = "audio"
    /// Any other file.
    public static let `file`: Self = "file"
}

/// The kind of a media field.
public struct MediaType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A picture.
    public static let image: Self = "image"
    /// A video.
    public static let video: Self = "video"
    /// A sound recording.
    public static let audio: Self = "audio"
}

/// How an action is emphasised.
public struct ActionStyle: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The main action.
    public static let primary: Self = "primary"
    /// A destructive action.
    public static let danger: Self = "danger"
    /// An ordinary action.
    public static let `default`: Self = "default"
}

/// How an action is drawn.
public struct ActionDisplayType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A button.
    public static let button: Self = "button"
    /// A link.
    public static let `link`: Self = "link"
    /// An icon.
    public static let icon: Self = "icon"
}

/// Horizontal alignment of a field or column.
public struct Alignment: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Left.
    public static let `left`: Self = "left"
    /// Centred.
    public static let center: Self = "center"
    /// Right.
    public static let `right`: Self = "right"
}

/// Where a `textStream` payload is in its stream.
public struct StreamState: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The first piece.
    public static let start: Self = "start"
    /// A further piece.
    public static let running: Self = "running"
    /// The last piece, with the whole text.
    public static let end: Self = "end"
}

/// Whether the other party is typing (`status` payload).
public struct TypingStatus: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Typing: show the indicator.
    public static let responding: Self = "RESPONDING"
    /// Idle: hide the indicator.
    public static let listening: Self = "LISTENING"
}

/// The `command` of a command payload.
public struct CommandType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Repeat the last message.
    public static let `repeat`: Self = "repeat"
    /// Hand over to a human agent.
    public static let humanAgent: Self = "humanAgent"
    /// Leave the conversation.
    public static let `exit`: Self = "exit"
    /// Go to the start.
    public static let `home`: Self = "home"
    /// Go back one step.
    public static let goBack: Self = "goBack"
    /// Hold the conversation.
    public static let hold: Self = "hold"
    /// Resume the conversation.
    public static let resume: Self = "resume"
    /// Nothing to show (the web SDK hides it).
    public static let noReply: Self = "noReply"
    /// An application-defined command.
    public static let `custom`: Self = "custom"
    /// The application context changed.
    public static let updateApplicationContext: Self = "updateApplicationContext"
    /// Run an application action.
    public static let executeApplicationAction: Self = "executeApplicationAction"
}

/// How select options are drawn.
public struct SelectLayoutStyle: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A drop-down list.
    public static let list: Self = "list"
    /// Radio buttons (single select).
    public static let radioGroup: Self = "radioGroup"
    /// Checkboxes (multi select).
    public static let checkboxes: Self = "checkboxes"
}

/// The keyboard and masking of a text input.
public struct InputStyle: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Plain text.
    public static let `text`: Self = "text"
    /// A phone number.
    public static let tel: Self = "tel"
    /// A URL.
    public static let url: Self = "url"
    /// An e-mail address.
    public static let email: Self = "email"
    /// A secret.
    public static let password: Self = "password"
}

/// A font size.
public struct FontSize: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Small.
    public static let small: Self = "small"
    /// Medium.
    public static let medium: Self = "medium"
    /// Large.
    public static let large: Self = "large"
}

/// A font weight.
public struct FontWeight: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Light.
    public static let light: Self = "light"
    /// Medium.
    public static let medium: Self = "medium"
    /// Bold.
    public static let bold: Self = "bold"
}

/// Space above a field.
public struct Spacing: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// None.
    public static let none: Self = "none"
    /// Medium.
    public static let medium: Self = "medium"
    /// Large.
    public static let large: Self = "large"
}

/// How wide a form column is.
public struct ColumnWidth: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// As wide as its content.
    public static let auto: Self = "auto"
    /// The remaining width.
    public static let stretch: Self = "stretch"
}

/// Vertical alignment of a form column.
public struct VerticalAlignment: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Top.
    public static let top: Self = "top"
    /// Centre.
    public static let center: Self = "center"
    /// Bottom.
    public static let bottom: Self = "bottom"
}

/// Who changed the application context.
public struct ContextSource: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates the value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The chat window.
    public static let chatWindow: Self = "chatWindow"
    /// The compact chat.
    public static let compactChat: Self = "compactChat"
    /// An embedded UI widget.
    public static let uiWidget: Self = "UIWidget"
    /// The skill.
    public static let skill: Self = "skill"
}
