import Foundation

/// What the user has entered in an edit form so far, checked the way Oracle's SDKs check it before sending:
/// required fields, text lengths and patterns, number ranges, date and time bounds, choices among the options.
///
/// ```swift
/// guard case .editForm(let form) = message.payload.content else { return }
/// var draft = FormDraft(form)
/// draft["size"] = "large"
/// if draft.problems.isEmpty { try await client.submitForm(draft) }
/// ```
///
/// Values start from each field's `value` (or `defaultValue`). ``problems`` maps field ids to the message to show
/// (the field's `clientErrorMessage`, or an English default).
public struct FormDraft: Sendable, Hashable {
    /// The form's editable fields (those with an `id`), in layout order.
    public let fields: [Field]
    /// The values entered, by field id.
    public var values: JSONObject

    /// A draft of `form`, with the fields' initial values.
    public init(_ form: MessagePayload.EditForm) {
        fields = form.allFields.filter { $0.kind.isEditable && $0.id != nil }
        values = [:]
        for field in fields {
            if let id = field.id, let initial = field.value ?? field.defaultValue, initial != .null {
                values[id] = initial
            }
        }
    }

    /// The value of the field `id`; setting `nil` clears it.
    public subscript(id: String) -> JSONValue? {
        get { values[id] }
        set { values[id] = newValue }
    }

    /// What is wrong, by field id; empty when the form can be submitted.
    public var problems: [String: String] {
        var problems: [String: String] = [:]
        for field in fields {
            if let id = field.id, let problem = field.problem(with: values[id]) { problems[id] = problem }
        }
        return problems
    }

    /// The values to submit: those set and valid (the fields with a problem are left out).
    public var validValues: JSONObject {
        var valid: JSONObject = [:]
        for field in fields {
            guard let id = field.id, let value = values[id], !Field.isEmpty(value), field.problem(with: value) == nil
            else { continue }
            valid[id] = value
        }
        return valid
    }

    /// The field with this id.
    public func field(_ id: String) -> Field? {
        fields.first { $0.id == id }
    }
}

extension Field {
    /// Why `value` cannot be submitted for this field; `nil` when it can. A field with `required` needs a value;
    /// an empty optional one is fine.
    public func problem(with value: JSONValue?) -> String? {
        guard let value, !Self.isEmpty(value) else {
            return required == true ? clientErrorMessage ?? "\(label ?? "This field") is required." : nil
        }
        guard let reason = kind.problem(with: value) else { return nil }
        return clientErrorMessage ?? reason
    }

    static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.isEmpty
        case .array(let items): items.isEmpty
        default: false
        }
    }
}

extension Field.Kind {
    /// The default message for a value this kind of field does not take.
    fileprivate func problem(with value: JSONValue) -> String? {
        switch self {
        case .textInput(let rules):
            guard case .string(let text) = value else { return "Enter text." }
            if let minimum = rules.minLength, text.count < minimum { return "Enter at least \(minimum) characters." }
            if let maximum = rules.maxLength, text.count > maximum { return "Enter at most \(maximum) characters." }
            if let pattern = rules.validationRegularExpression, !Self.matchesWhole(text, pattern) {
                return "The value is not in the expected format."
            }
            return nil
        case .numberInput(let range):
            guard let number = value.doubleValue else { return "Enter a number." }
            if let minimum = range.minValue, number < minimum { return "Enter a number of at least \(minimum.clean)." }
            if let maximum = range.maxValue, number > maximum { return "Enter a number of at most \(maximum.clean)." }
            return nil
        case .datePicker(let bounds):
            guard case .string(let date) = value, Self.isDate(date) else { return "Enter a date as YYYY-MM-DD." }
            return bounds.problem(with: date, what: "date")
        case .timePicker(let bounds):
            guard case .string(let time) = value, Self.isTime(time) else { return "Enter a time as HH:MM." }
            return bounds.problem(with: time, what: "time")
        case .singleSelect(let choices):
            return choices.allows(value) ? nil : "Choose one of the options."
        case .multiSelect(let choices):
            guard case .array(let picked) = value, picked.allSatisfy(choices.allows) else {
                return "Choose among the options."
            }
            return nil
        case .toggle(let toggle):
            return value == toggle.valueOn || value == toggle.valueOff ? nil : "Switch it on or off."
        case .text, .link, .media, .action, .unknown:
            return nil
        }
    }

    /// Whether the whole of `text` matches `pattern`; a pattern that does not compile rejects nothing (the
    /// server checks again).
    private static func matchesWhole(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    private static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    private static func isTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute)
    }
}

extension Field.Bounds {
    /// ISO dates (`YYYY-MM-DD`) and 24-hour times (`HH:MM`) order as strings.
    fileprivate func problem(with value: String, what: String) -> String? {
        if let minimum, value < minimum { return "Choose a \(what) on or after \(minimum)." }
        if let maximum, value > maximum { return "Choose a \(what) on or before \(maximum)." }
        return nil
    }
}

extension Field.Choices {
    /// Whether `value` is one of the options (an option without a `value` submits its label).
    fileprivate func allows(_ value: JSONValue) -> Bool {
        options.contains { $0.submittedValue == value }
    }
}

extension Double {
    fileprivate var clean: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
