/// A field of a table row, a form or an edit form.
///
/// Read-only fields (`text`, `link`, `media`, `action`) show a ``value``; editable fields
/// (`singleSelect`, `multiSelect`, `datePicker`, `timePicker`, `toggle`, `textInput`,
/// `numberInput`) have an ``id`` under which their value is submitted. The `displayType`
/// chooses the ``kind``; one this version does not know decodes as ``Kind/unknown(_:)``.
///
/// ```json
/// {"displayType": "textInput", "id": "subject", "label": "Subject", "required": true, "maxLength": 80}
/// ```
public struct Field: JSONConvertible, Codable, Hashable {
    /// The kind of field and what only that kind has.
    public var kind: Kind
    /// The field's id; required for editable fields, the key of its value in a form submission (`id`).
    public var id: String?
    /// The label (`label`).
    public var label: String?
    /// A read-only field's value, or a link or media field's URL (`value`).
    public var value: JSONValue?
    /// An editable field's initial value (`defaultValue`).
    public var defaultValue: JSONValue?
    /// A table cell's width in percent (`width`).
    public var width: Double?
    /// Alignment (`alignment`).
    public var alignment: Alignment?
    /// Space above the field in a column (`marginTop`).
    public var marginTop: Spacing?
    /// The label's size (`labelFontSize`).
    public var labelFontSize: FontSize?
    /// The label's weight (`labelFontWeight`).
    public var labelFontWeight: FontWeight?
    /// A hint shown in an empty editable field (`placeholder`).
    public var placeholder: String?
    /// Whether an editable field must be filled before submitting (`required`).
    public var required: Bool?
    /// The message to show when client-side validation fails (`clientErrorMessage`).
    public var clientErrorMessage: String?
    /// A validation message from the skill (`serverErrorMessage`).
    public var serverErrorMessage: String?
    /// Whether a change submits the form at once, as a partial submission (`autoSubmit`).
    public var autoSubmit: Bool?
    /// A message shown when the pointer hovers over the field (`onHoverPopupContent`, web SDK).
    public var onHoverPopupContent: MessagePayload?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// The kind of a field, by `displayType`, with what only that kind has.
    public enum Kind: Sendable, Hashable {
        /// `text`: read-only text.
        case text(TextStyle = TextStyle())
        /// `link`: a read-only link to ``Field/value``.
        case link(LinkStyle = LinkStyle())
        /// `media`: a read-only image, video or audio clip at ``Field/value`` (`mediaType`).
        case media(MediaType)
        /// `action`: a button (`action`).
        case action(Action)
        /// `singleSelect`: pick one option.
        case singleSelect(Choices)
        /// `multiSelect`: pick several options; submits an array.
        case multiSelect(Choices)
        /// `datePicker`: pick a date, `yyyy-mm-dd` (`minDate`, `maxDate`).
        case datePicker(Bounds = Bounds())
        /// `timePicker`: pick a time, `hh:mm` in 24 hours (`minTime`, `maxTime`).
        case timePicker(Bounds = Bounds())
        /// `toggle`: switch between two values.
        case toggle(Toggle)
        /// `textInput`: type text.
        case textInput(TextInput = TextInput())
        /// `numberInput`: type a number (`minValue`, `maxValue`).
        case numberInput(NumberRange = NumberRange())
        /// A display type this version does not know.
        case unknown(FieldDisplayType)

        /// The wire `displayType`.
        public var displayType: FieldDisplayType {
            switch self {
            case .text: .text
            case .link: .link
            case .media: .media
            case .action: .action
            case .singleSelect: .singleSelect
            case .multiSelect: .multiSelect
            case .datePicker: .datePicker
            case .timePicker: .timePicker
            case .toggle: .toggle
            case .textInput: .textInput
            case .numberInput: .numberInput
            case .unknown(let displayType): displayType
            }
        }

        /// Whether the user fills the field in (and it is submitted).
        public var isEditable: Bool {
            switch self {
            case .singleSelect, .multiSelect, .datePicker, .timePicker, .toggle, .textInput, .numberInput: true
            case .text, .link, .media, .action, .unknown: false
            }
        }
    }

    /// How a read-only text field is drawn.
    public struct TextStyle: Sendable, Hashable {
        /// Show only this many characters, then "…" (`truncateAt`).
        public var truncateAt: Int?
        /// Size (`fontSize`).
        public var fontSize: FontSize?
        /// Weight (`fontWeight`).
        public var fontWeight: FontWeight?
        /// Creates a text style.
        public init(truncateAt: Int? = nil, fontSize: FontSize? = nil, fontWeight: FontWeight? = nil) {
            self.truncateAt = truncateAt
            self.fontSize = fontSize
            self.fontWeight = fontWeight
        }
    }

    /// How a link field is drawn.
    public struct LinkStyle: Sendable, Hashable {
        /// The link text (`linkLabel`).
        public var linkLabel: String?
        /// An image to show as the link (`imageUrl`).
        public var imageUrl: String?
        /// Creates a link style.
        public init(linkLabel: String? = nil, imageUrl: String? = nil) {
            self.linkLabel = linkLabel
            self.imageUrl = imageUrl
        }
    }

    /// The options of a select field.
    public struct Choices: Sendable, Hashable {
        /// The options (`options`).
        public var options: [SelectOption]
        /// List, radio group or checkboxes (`layoutStyle`).
        public var layoutStyle: SelectLayoutStyle?
        /// Creates select options.
        public init(options: [SelectOption], layoutStyle: SelectLayoutStyle? = nil) {
            self.options = options
            self.layoutStyle = layoutStyle
        }
    }

    /// The earliest and latest value of a date or time picker.
    public struct Bounds: Sendable, Hashable {
        /// The earliest value (`minDate` or `minTime`).
        public var minimum: String?
        /// The latest value (`maxDate` or `maxTime`).
        public var maximum: String?
        /// Creates bounds.
        public init(minimum: String? = nil, maximum: String? = nil) {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// The two values of a toggle.
    public struct Toggle: Sendable, Hashable {
        /// The value when on (`valueOn`).
        public var valueOn: JSONValue
        /// The value when off (`valueOff`).
        public var valueOff: JSONValue
        /// The label of the on state (`labelOn`).
        public var labelOn: String?
        /// The label of the off state (`labelOff`).
        public var labelOff: String?
        /// Creates toggle values.
        public init(valueOn: JSONValue, valueOff: JSONValue, labelOn: String? = nil, labelOff: String? = nil) {
            self.valueOn = valueOn
            self.valueOff = valueOff
            self.labelOn = labelOn
            self.labelOff = labelOff
        }
    }

    /// The rules of a text input.
    public struct TextInput: Sendable, Hashable {
        /// A regular expression the text must match (`validationRegularExpression`).
        public var validationRegularExpression: String?
        /// Whether the input has several lines (`multiLine`).
        public var multiLine: Bool?
        /// The fewest characters (`minLength`).
        public var minLength: Int?
        /// The most characters (`maxLength`).
        public var maxLength: Int?
        /// Keyboard and masking (`inputStyle`).
        public var inputStyle: InputStyle?
        /// Creates text-input rules.
        public init(
            validationRegularExpression: String? = nil, multiLine: Bool? = nil, minLength: Int? = nil,
            maxLength: Int? = nil, inputStyle: InputStyle? = nil
        ) {
            self.validationRegularExpression = validationRegularExpression
            self.multiLine = multiLine
            self.minLength = minLength
            self.maxLength = maxLength
            self.inputStyle = inputStyle
        }
    }

    /// The smallest and largest value of a number input.
    public struct NumberRange: Sendable, Hashable {
        /// The smallest value (`minValue`).
        public var minValue: Double?
        /// The largest value (`maxValue`).
        public var maxValue: Double?
        /// Creates a range.
        public init(minValue: Double? = nil, maxValue: Double? = nil) {
            self.minValue = minValue
            self.maxValue = maxValue
        }
    }

    /// Creates a field.
    public init(
        _ kind: Kind, id: String? = nil, label: String? = nil, value: JSONValue? = nil, defaultValue: JSONValue? = nil,
        width: Double? = nil, alignment: Alignment? = nil, placeholder: String? = nil, required: Bool? = nil,
        autoSubmit: Bool? = nil, extra: JSONObject = [:]
    ) {
        self.kind = kind
        self.id = id
        self.label = label
        self.value = value
        self.defaultValue = defaultValue
        self.width = width
        self.alignment = alignment
        self.placeholder = placeholder
        self.required = required
        self.autoSubmit = autoSubmit
        self.extra = extra
    }

    /// Decodes a field, choosing ``kind`` by `displayType`; editable fields require `id`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let displayType: FieldDisplayType = try reader.required("displayType")
        switch displayType {
        case .text:
            kind = .text(
                TextStyle(
                    truncateAt: try reader.optional("truncateAt"), fontSize: try reader.optional("fontSize"),
                    fontWeight: try reader.optional("fontWeight")))
        case .link:
            kind = .link(
                LinkStyle(linkLabel: try reader.optional("linkLabel"), imageUrl: try reader.optional("imageUrl")))
        case .media: kind = .media(try reader.required("mediaType"))
        case .action: kind = .action(try reader.required("action"))
        case .singleSelect, .multiSelect:
            let choices = Choices(
                options: try reader.required("options"), layoutStyle: try reader.optional("layoutStyle"))
            kind = displayType == .singleSelect ? .singleSelect(choices) : .multiSelect(choices)
        case .datePicker:
            kind = .datePicker(Bounds(minimum: try reader.optional("minDate"), maximum: try reader.optional("maxDate")))
        case .timePicker:
            kind = .timePicker(Bounds(minimum: try reader.optional("minTime"), maximum: try reader.optional("maxTime")))
        case .toggle:
            kind = .toggle(
                Toggle(
                    valueOn: try reader.required("valueOn"), valueOff: try reader.required("valueOff"),
                    labelOn: try reader.optional("labelOn"), labelOff: try reader.optional("labelOff")))
        case .textInput:
            kind = .textInput(
                TextInput(
                    validationRegularExpression: try reader.optional("validationRegularExpression"),
                    multiLine: try reader.optional("multiLine"), minLength: try reader.optional("minLength"),
                    maxLength: try reader.optional("maxLength"), inputStyle: try reader.optional("inputStyle")))
        case .numberInput:
            kind = .numberInput(
                NumberRange(minValue: try reader.optional("minValue"), maxValue: try reader.optional("maxValue")))
        default:
            kind = .unknown(displayType)
        }
        do {
            id = kind.isEditable ? try reader.required("id") : try reader.optional("id")
            label = try reader.optional("label")
            value = try reader.optional("value")
            defaultValue = try reader.optional("defaultValue")
            width = try reader.optional("width")
            alignment = try reader.optional("alignment")
            marginTop = try reader.optional("marginTop")
            labelFontSize = try reader.optional("labelFontSize")
            labelFontWeight = try reader.optional("labelFontWeight")
            placeholder = try reader.optional("placeholder")
            required = try reader.optional("required")
            clientErrorMessage = try reader.optional("clientErrorMessage")
            serverErrorMessage = try reader.optional("serverErrorMessage")
            autoSubmit = try reader.optional("autoSubmit")
            onHoverPopupContent = try reader.optional("onHoverPopupContent")
            channelExtensions = try reader.optional("channelExtensions")
        } catch {
            // A display type this version does not know may use the shared keys differently: keep it all, untyped.
            guard case .unknown = kind else { throw error }
            self = Field(kind, extra: reader.object.removing("displayType"))
            return
        }
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 4 + extra.count)
        builder.set("displayType", kind.displayType)
        builder.set("id", id)
        builder.set("label", label)
        builder.set("value", value)
        builder.set("defaultValue", defaultValue)
        switch kind {
        case .text(let style):
            builder.set("truncateAt", style.truncateAt)
            builder.set("fontSize", style.fontSize)
            builder.set("fontWeight", style.fontWeight)
        case .link(let style):
            builder.set("linkLabel", style.linkLabel)
            builder.set("imageUrl", style.imageUrl)
        case .media(let mediaType):
            builder.set("mediaType", mediaType)
        case .action(let action):
            builder.set("action", action)
        case .singleSelect(let choices), .multiSelect(let choices):
            builder.set("options", choices.options)
            builder.set("layoutStyle", choices.layoutStyle)
        case .datePicker(let bounds):
            builder.set("minDate", bounds.minimum)
            builder.set("maxDate", bounds.maximum)
        case .timePicker(let bounds):
            builder.set("minTime", bounds.minimum)
            builder.set("maxTime", bounds.maximum)
        case .toggle(let toggle):
            builder.set("valueOn", toggle.valueOn)
            builder.set("valueOff", toggle.valueOff)
            builder.set("labelOn", toggle.labelOn)
            builder.set("labelOff", toggle.labelOff)
        case .textInput(let input):
            builder.set("validationRegularExpression", input.validationRegularExpression)
            builder.set("multiLine", input.multiLine)
            builder.set("minLength", input.minLength)
            builder.set("maxLength", input.maxLength)
            builder.set("inputStyle", input.inputStyle)
        case .numberInput(let range):
            builder.set("minValue", range.minValue)
            builder.set("maxValue", range.maxValue)
        case .unknown:
            break
        }
        builder.set("width", width)
        builder.set("alignment", alignment)
        builder.set("marginTop", marginTop)
        builder.set("labelFontSize", labelFontSize)
        builder.set("labelFontWeight", labelFontWeight)
        builder.set("placeholder", placeholder)
        builder.set("required", required)
        builder.set("clientErrorMessage", clientErrorMessage)
        builder.set("serverErrorMessage", serverErrorMessage)
        builder.set("autoSubmit", autoSubmit)
        builder.set("onHoverPopupContent", onHoverPopupContent)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}

/// An option of a select field (`options[]`).
public struct SelectOption: JSONConvertible, Codable, Hashable {
    /// The text shown (`label`).
    public var label: String
    /// The value submitted (`value`); the label when absent.
    public var value: JSONValue?
    /// An image (`imageUrl`).
    public var imageUrl: String?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates an option.
    public init(
        label: String, value: JSONValue? = nil, imageUrl: String? = nil, channelExtensions: ChannelExtensions? = nil,
        extra: JSONObject = [:]
    ) {
        self.label = label
        self.value = value
        self.imageUrl = imageUrl
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// The value submitted when the option is chosen.
    public var submittedValue: JSONValue { value ?? .string(label) }

    /// Decodes an option; `label` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        label = try reader.required("label")
        value = try reader.optional("value")
        imageUrl = try reader.optional("imageUrl")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("label", label)
        builder.set("value", value)
        builder.set("imageUrl", imageUrl)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}
