import Foundation

/// A string of a skill definition with `{{path}}` or `{{path | default}}` placeholders.
///
/// A path is a dotted name: a variable (`pizzaType`, `deliveryLocation.latitude`) or one of the
/// ``Scope/roots`` (`profile.name`, `postback.variables.pizzaSize`, `match.1`, `location.latitude`,
/// `input.text`). A number steps into an array. A missing or `null` value is replaced by the default,
/// or by nothing.
struct Template: Hashable, Sendable {
    /// One `{{…}}` placeholder.
    struct Placeholder: Hashable, Sendable {
        /// The dotted path, split at its dots.
        var path: [String]
        /// The text after `|`, trimmed.
        var fallback: String?
    }

    /// Literal text or a placeholder.
    enum Part: Hashable, Sendable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// The parts in order.
    var parts: [Part]

    /// Parses `text`; a string without `{{` is one literal.
    /// - Throws: ``ParleyError/Code/skillInvalidTemplate`` with an empty path, for the caller to complete.
    init(parsing text: String) throws(ParleyError) {
        parts = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw ParleyError(
                    .skillInvalidTemplate, "\"{{\" without \"}}\" in \(JSONValue.string(text))", path: JSONPath())
            }
            let inside = rest[open.upperBound..<close.lowerBound]
            let pieces = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let path = pieces[0].trimmingWhitespace()
            let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.isEmpty, segments.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
                throw ParleyError(
                    .skillInvalidTemplate,
                    "\(JSONValue.string("{{" + inside + "}}")) is not a path such as {{pizzaType}}",
                    path: JSONPath())
            }
            parts.append(
                .placeholder(Placeholder(path: segments, fallback: pieces.dropFirst().first?.trimmingWhitespace())))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
    }

    /// The placeholders in order.
    var placeholders: [Placeholder] {
        parts.compactMap { part in
            if case .placeholder(let placeholder) = part { return placeholder }
            return nil
        }
    }

    /// The placeholder, when the whole string is exactly one.
    var single: Placeholder? {
        if parts.count == 1, case .placeholder(let placeholder) = parts[0] { return placeholder }
        return nil
    }

    /// The text with every placeholder replaced by its value as text.
    func render(in scope: Scope) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal):
                text += literal
            case .placeholder(let placeholder):
                text += scope.resolve(placeholder.path).map(Self.text(of:)) ?? placeholder.fallback ?? ""
            }
        }
        return text
    }

    /// A value as text: strings as they are, whole numbers without a fraction, arrays and objects as JSON.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): Int64(exactly: number).map(String.init) ?? String(number)
        case .bool(let flag): String(flag)
        case .null: ""
        case .array, .object: value.jsonString()
        }
    }
}

/// What placeholders can name while a skill answers one message.
struct Scope {
    /// The names a path may start with besides a variable: `profile`, `input`, `postback`, `match`, `location`.
    static let roots = ["profile", "input", "postback", "match", "location"]

    /// The conversation's variables.
    var variables: JSONObject
    /// The values of ``roots`` that this message has.
    var values: JSONObject
    /// Where the skill's templates are parsed once.
    var cache = SkillCache()

    /// The value at `path`, or nil when it is missing or `null`.
    func resolve(_ path: [String]) -> JSONValue? {
        guard let first = path.first else { return nil }
        var value = Self.roots.contains(first) ? values[first] : variables[first]
        for segment in path.dropFirst() {
            switch value {
            case .object(let object): value = object[segment]
            case .array(let elements):
                value = Int(segment).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: value = nil
            }
        }
        return value?.isNull == true ? nil : value
    }

    /// `value` with every string's placeholders replaced by text: for responses.
    func fill(_ value: JSONValue) throws(ParleyError) -> JSONValue {
        try replacingTemplates(in: value) { template throws(ParleyError) in .string(template.render(in: self)) }
    }

    /// `value` evaluated for `set`: a string that is exactly one placeholder takes the value it names, with its
    /// JSON type (or the default as a string, or `null`); other strings are filled in as text.
    func evaluate(_ value: JSONValue) throws(ParleyError) -> JSONValue {
        try replacingTemplates(in: value) { template throws(ParleyError) in
            guard let single = template.single else { return .string(template.render(in: self)) }
            return resolve(single.path) ?? single.fallback.map(JSONValue.string) ?? .null
        }
    }

    /// `value` with every string that holds a placeholder replaced by what `replace` makes of its template.
    private func replacingTemplates(
        in value: JSONValue, _ replace: (Template) throws(ParleyError) -> JSONValue
    ) throws(ParleyError) -> JSONValue {
        switch value {
        case .string(let text) where text.contains("{{"):
            return try replace(cache.template(text))
        case .array(let elements):
            var replaced: [JSONValue] = []
            for element in elements { replaced.append(try replacingTemplates(in: element, replace)) }
            return .array(replaced)
        case .object(let object):
            var replaced = JSONObject()
            for member in object { replaced.append(member.key, try replacingTemplates(in: member.value, replace)) }
            return .object(replaced)
        default:
            return value
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// A skill's regular expressions and templates, compiled and parsed on first use and kept: each turn would
/// otherwise compile the regular expressions of the rules it tries and parse every template it fills (a third of a
/// scripted turn's time, docs/performance.md, `roundtrip.pizza`). At most ``limit`` of each are kept, so that text
/// from users can never grow it without bound.
final class SkillCache: @unchecked Sendable {  // every stored property is read and written holding `lock`
    static let limit = 1_024

    private struct RegexKey: Hashable {
        let pattern: String
        let caseSensitive: Bool
    }

    private let lock = NSLock()
    private var regexes: [RegexKey: Regex<AnyRegexOutput>] = [:]
    private var templates: [String: Template] = [:]

    /// `pattern` compiled, ignoring case unless `caseSensitive`.
    func regex(_ pattern: String, caseSensitive: Bool) throws -> Regex<AnyRegexOutput> {
        let key = RegexKey(pattern: pattern, caseSensitive: caseSensitive)
        if let regex = lock.withLock({ regexes[key] }) { return regex }
        let regex = try Regex(pattern).ignoresCase(!caseSensitive)
        lock.withLock {
            if regexes.count < Self.limit { regexes[key] = regex }
        }
        return regex
    }

    /// `text` parsed as a template.
    func template(_ text: String) throws(ParleyError) -> Template {
        if let template = lock.withLock({ templates[text] }) { return template }
        let template = try Template(parsing: text)
        lock.withLock {
            if templates.count < Self.limit { templates[text] = template }
        }
        return template
    }
}
