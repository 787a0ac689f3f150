import Foundation
public import ParleyCore

/// A type a ``Parameter`` holds: what a flow writes statically for it.
public protocol ParameterValue: Sendable, Hashable {
    /// The value when `json` has the parameter's JSON type, else `nil` (the validator reports the wrong type).
    init?(written json: JSONValue)
}

extension Bool: ParameterValue {
    /// `true` or `false`; anything else is `nil`.
    public init?(written json: JSONValue) {
        guard let flag = json.boolValue else { return nil }
        self = flag
    }
}

extension Int: ParameterValue {
    /// A whole number that fits an `Int`; anything else (text too) is `nil`.
    public init?(written json: JSONValue) {
        guard let number = json.intValue else { return nil }
        self = number
    }
}

extension String: ParameterValue {
    /// A string; anything else is `nil`.
    public init?(written json: JSONValue) {
        guard let text = json.stringValue else { return nil }
        self = text
    }
}

/// One parameter of a module as the flow writes it: the static value and its `…Runtime` twin
/// (`enableVADRuntime: "$[UseVAD]"`), both kept as written, with where they are in the module.
///
/// The loader decodes it once; ``resolve(with:)`` gives the value in force when the module runs, because runtime
/// fields may change until the module's `PreModuleStart` callback returns. A value of the wrong JSON type is kept in
/// ``written`` for the ``Validator`` to report, and counts as unset when the flow runs.
public struct Parameter<Value: ParameterValue>: Sendable, Hashable {
    /// Where the static value is, from the module (or prompt module) object: `recordAudioParams`,
    /// `stopRecordParams`, `maxPreSpeechSilenceLengthMs`. Its last key is the parameter's name.
    public var path: JSONPath
    /// The static value as the JSON has it; `nil` when the key is absent.
    public var written: JSONValue?
    /// The `…Runtime` twin's text (a `$[Name]` reference), when the parameter has a twin and the flow sets it.
    public var runtime: String?

    /// Creates a parameter.
    public init(path: JSONPath, written: JSONValue? = nil, runtime: String? = nil) {
        self.path = path
        self.written = written
        self.runtime = runtime
    }

    /// Reads `key` (and, with `twin`, `keyRuntime`) of `object`, which is at `at` in the module.
    init(_ key: String, of object: JSONObject?, at: [JSONPath.Component], twin: Bool = true) {
        path = JSONPath(at + [.key(key)])
        written = object?[key]
        runtime = twin ? object?[key + Keys.runtimeSuffix]?.stringValue : nil
    }

    /// The static value, when it has the parameter's type.
    public var value: Value? { written.flatMap(Value.init(written:)) }

    /// The parameter's name: the last key of ``path``.
    public var name: String {
        for component in path.components.reversed() { if case .key(let key) = component { return key } }
        return ""
    }
}

extension Parameter where Value == String {
    /// The static text with every `$[Name]` resolved (``RuntimeFields/resolve(_:)-(String)``); `nil` when it is
    /// unset, not a string, or exactly a reference to an unset field. Text parameters have no `…Runtime` twin.
    public func resolve(with fields: RuntimeFields) -> String? {
        guard case .string(let text)? = written else { return nil }
        return fields.resolve(text)
    }
}

extension Parameter where Value == Bool {
    /// The `…Runtime` twin's field when it holds a valid value (`true`/`false`, a boolean, or 0/1), else the static
    /// boolean.
    public func resolve(with fields: RuntimeFields) -> Bool? {
        if let runtime, let value = fields.resolve(.string(runtime)) {
            switch value {
            case .bool(let flag): return flag
            case .string(let text) where text.lowercased() == "true": return true
            case .string(let text) where text.lowercased() == "false": return false
            case .number(let number) where number == 0 || number == 1: return number == 1
            default: break
            }
        }
        return written?.boolValue
    }
}

extension Parameter where Value == Int {
    /// The `…Runtime` twin's field when it holds a number (or number text), else the static number.
    ///
    /// Every whole-number parameter is a length of time, a position in milliseconds or a count, so a value outside
    /// `range` (a day of milliseconds by default) is an error rather than a timer that overflows: a runtime field is
    /// data from outside the flow (a recogniser, an app), and `1e300` there must not stop the process.
    /// - Throws: ``ParleyError/Code/invalidValue`` naming the parameter when the value (static or runtime) is a
    ///   number that is not whole or outside `range`.
    public func resolve(with fields: RuntimeFields, in range: ClosedRange<Int> = 0...86_400_000)
        throws(ParleyError) -> Int?
    {
        var value = written
        if let runtime, let resolved = fields.resolve(.string(runtime)) {
            switch resolved {
            case .number: value = resolved
            case .string(let text):
                if let number = Double(text.trimmingCharacters(in: .whitespaces)) { value = .number(number) }
            default: break
            }
        }
        guard case .number(let number)? = value else { return value.flatMap(\.intValue) }
        guard let integer = Int(exactly: number), range.contains(integer) else {
            throw ParleyError(
                .invalidValue,
                "\(name) is \(JSONValue.number(number).jsonString()), "
                    + "not a whole number from \(range.lowerBound) to \(range.upperBound)",
                path: path)
        }
        return integer
    }
}
