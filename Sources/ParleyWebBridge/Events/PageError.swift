/// An error a chat page reported to the app: `{"error": {"code": …, "message": …}}`.
///
/// miibo's page sends a number (`400`); Parley's widget sends a stable string such as `channel.unknown`
/// or `attachment.tooLarge` (`docs/web-bridge.md`). Both arrive as a ``Code``.
public struct PageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's code: a page's own string, or a number written in decimal.
    public var code: Code
    /// A sentence saying what went wrong; empty when the page sent none.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `error[code]: message`.
    public var description: String { "error[\(code)]: \(message)" }

    /// A page error's code. Open: any string a page sends is kept as it is.
    public struct Code: OpenString {
        /// The code as sent (a number as its decimal digits).
        public let rawValue: String

        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The page sent no code.
        public static let unspecified: Self = "unspecified"
        /// A bridge command had arguments of the wrong type (Parley's widget).
        public static let invalidArgument: Self = "bridge.invalidArgument"
        /// The server has no unauthenticated channel and the page was given none (Parley's widget).
        public static let noChannel: Self = "widget.noChannel"
        /// An attachment was empty or larger than the server accepts (Parley's widget).
        public static let attachmentTooLarge: Self = "attachment.tooLarge"
        /// The server does not accept the attachment's type (Parley's widget).
        public static let attachmentUnsupportedType: Self = "attachment.unsupportedType"
        /// An attachment upload failed for another reason (Parley's widget).
        public static let attachmentFailed: Self = "attachment.failed"
        /// The chat server could not be reached after every reconnection attempt (Parley's widget).
        public static let unreachable: Self = "socket.unreachable"
        /// The skill sent an `error` payload without an `errorCode` (Parley's widget).
        public static let skillError: Self = "skill.error"
    }
}

extension PageError {
    /// Reads `{"code": …, "message": …}`: a string or integer code (absent: ``Code/unspecified``) and a string
    /// message (absent: empty). A bare string is taken as the message.
    init(json: JSONValue) {
        switch json {
        case .string(let message):
            self.init(code: .unspecified, message: message)
        case .object(let object):
            let code: Code =
                switch object["code"] {
                case .string(let text): Code(rawValue: text)
                case .number(let number):
                    Code(rawValue: Int64(exactly: number).map { String($0) } ?? JSONValue.number(number).jsonString())
                default: .unspecified
                }
            self.init(code: code, message: object["message"]?.stringValue ?? "")
        default:
            self.init(code: .unspecified, message: json.jsonString())
        }
    }
}
