extension MessagePayload {
    /// What kind of message a payload is, by `type`, and what only that kind has.
    public enum Content: Sendable, Hashable {
        /// `text`: a text message.
        case text(Text)
        /// `postback`: the postback of an action the user chose.
        case postback(Postback)
        /// `attachment`: an image, video, audio clip or file (`attachment`).
        case attachment(Attachment)
        /// `location`: a geographic location (`location`).
        case location(Location)
        /// `card`: cards in a carousel or list.
        case card(Cards)
        /// `raw`: a channel-specific payload.
        case raw(Raw)
        /// `table`: a table of read-only fields.
        case table(Table)
        /// `form`: read-only forms.
        case form(Form)
        /// `tableForm`: a table whose rows open forms.
        indirect case tableForm(TableForm)
        /// `editForm`: a form the user fills in.
        case editForm(EditForm)
        /// `formSubmission`: the values of a submitted edit form.
        case formSubmission(FormSubmission)
        /// `textStream`: a piece of a streamed reply.
        case textStream(TextStream)
        /// `status`: the other party is typing or idle.
        case status(Status)
        /// `closeSession`: the user ends the conversation.
        case closeSession
        /// `sessionClosed`: the server ended the session.
        case sessionClosed
        /// `inboundEvent`: an application event for the skill.
        case inboundEvent(Event)
        /// `outboundEvent`: an application event from the skill.
        case outboundEvent(Event)
        /// `suggest`: an autocomplete request; answered by ``ServerFrame/suggestions(_:)``.
        case suggest(Suggest)
        /// `command`: a command such as `humanAgent`; arguments are in ``MessagePayload/properties``.
        case command(Command)
        /// `error`: an error message to show.
        case error(ErrorMessage)
        /// `updateApplicationContextCommand`: the application's context changed.
        case updateApplicationContextCommand(ApplicationContext)
        /// `executeApplicationActionCommand`: the skill asks the application to run an action.
        case executeApplicationActionCommand(ApplicationAction)
        /// `getDebugInfoCommand`: a request for debugging information.
        case getDebugInfoCommand(DebugInfoRequest)
        /// A payload type this version does not know; its members are in ``MessagePayload/extra``.
        case unknown(PayloadType)

        /// The wire `type`.
        public var type: PayloadType {
            switch self {
            case .text: .text
            case .postback: .postback
            case .attachment: .attachment
            case .location: .location
            case .card: .card
            case .raw: .raw
            case .table: .table
            case .form: .form
            case .tableForm: .tableForm
            case .editForm: .editForm
            case .formSubmission: .formSubmission
            case .textStream: .textStream
            case .status: .status
            case .closeSession: .closeSession
            case .sessionClosed: .sessionClosed
            case .inboundEvent: .inboundEvent
            case .outboundEvent: .outboundEvent
            case .suggest: .suggest
            case .command: .command
            case .error: .error
            case .updateApplicationContextCommand: .updateApplicationContextCommand
            case .executeApplicationActionCommand: .executeApplicationActionCommand
            case .getDebugInfoCommand: .getDebugInfoCommand
            case .unknown(let type): type
            }
        }

        /// The 23 payload types this version knows.
        public static let knownTypes: Set<PayloadType> = [
            .text, .postback, .attachment, .location, .card, .raw, .table, .form, .tableForm, .editForm,
            .formSubmission, .textStream, .status, .closeSession, .sessionClosed, .inboundEvent, .outboundEvent,
            .suggest, .command, .error, .updateApplicationContextCommand, .executeApplicationActionCommand,
            .getDebugInfoCommand,
        ]

        /// Reads `type` and the members of that type.
        init(reading reader: inout FieldReader) throws(ParleyError) {
            let type: PayloadType = try reader.required("type")
            switch type {
            case .text: self = .text(try Text(reading: &reader))
            case .postback: self = .postback(try Postback(reading: &reader))
            case .attachment: self = .attachment(try reader.required("attachment"))
            case .location: self = .location(try reader.required("location"))
            case .card: self = .card(try Cards(reading: &reader))
            case .raw: self = .raw(try Raw(reading: &reader))
            case .table: self = .table(try Table(reading: &reader))
            case .form: self = .form(try Form(reading: &reader))
            case .tableForm: self = .tableForm(try TableForm(reading: &reader))
            case .editForm: self = .editForm(try EditForm(reading: &reader))
            case .formSubmission: self = .formSubmission(try FormSubmission(reading: &reader))
            case .textStream: self = .textStream(try TextStream(reading: &reader))
            case .status: self = .status(try Status(reading: &reader))
            case .closeSession: self = .closeSession
            case .sessionClosed: self = .sessionClosed
            case .inboundEvent: self = .inboundEvent(try Event(reading: &reader))
            case .outboundEvent: self = .outboundEvent(try Event(reading: &reader))
            case .suggest: self = .suggest(try Suggest(reading: &reader))
            case .command: self = .command(try Command(reading: &reader))
            case .error: self = .error(try ErrorMessage(reading: &reader))
            case .updateApplicationContextCommand:
                self = .updateApplicationContextCommand(try ApplicationContext(reading: &reader))
            case .executeApplicationActionCommand:
                self = .executeApplicationActionCommand(try ApplicationAction(reading: &reader))
            case .getDebugInfoCommand: self = .getDebugInfoCommand(try DebugInfoRequest(reading: &reader))
            default: self = .unknown(type)
            }
        }

        /// Writes the members of this type (not `type` itself).
        func write(to builder: inout ObjectBuilder) {
            switch self {
            case .text(let content): content.write(to: &builder)
            case .postback(let content): content.write(to: &builder)
            case .attachment(let attachment): builder.set("attachment", attachment)
            case .location(let location): builder.set("location", location)
            case .card(let content): content.write(to: &builder)
            case .raw(let content): content.write(to: &builder)
            case .table(let content): content.write(to: &builder)
            case .form(let content): content.write(to: &builder)
            case .tableForm(let content): content.write(to: &builder)
            case .editForm(let content): content.write(to: &builder)
            case .formSubmission(let content): content.write(to: &builder)
            case .textStream(let content): content.write(to: &builder)
            case .status(let content): content.write(to: &builder)
            case .inboundEvent(let content), .outboundEvent(let content): content.write(to: &builder)
            case .suggest(let content): content.write(to: &builder)
            case .command(let content): content.write(to: &builder)
            case .error(let content): content.write(to: &builder)
            case .updateApplicationContextCommand(let content): content.write(to: &builder)
            case .executeApplicationActionCommand(let content): content.write(to: &builder)
            case .getDebugInfoCommand(let content): content.write(to: &builder)
            case .closeSession, .sessionClosed, .unknown: break
            }
        }
    }
}

/// The members one payload type adds to a payload object.
protocol PayloadContent: Sendable, Hashable {
    /// Reads this type's members.
    init(reading reader: inout FieldReader) throws(ParleyError)
    /// Writes this type's members.
    func write(to builder: inout ObjectBuilder)
}
