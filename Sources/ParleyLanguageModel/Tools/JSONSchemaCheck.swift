public import ParleyCore

/// Checks a tool's arguments against its JSON Schema, before any webhook sees them.
///
/// The part of JSON Schema checked: `type` (a name or a list; `integer` is a number without a fraction), `enum`,
/// `const`, `properties`, `required`, `additionalProperties` (`false` or a schema), `items`, `minItems`,
/// `maxItems`, `minLength`, `maxLength`, `minimum`, `maximum`. Other keywords are not checked.
public enum JSONSchemaCheck {
    /// What is wrong with `value` against `schema`, each problem with its path; empty when nothing is.
    public static func problems(of value: JSONValue, against schema: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, schema, path: "$", into: &problems)
        return problems
    }

    private static func check(_ value: JSONValue, _ schema: JSONValue, path: String, into problems: inout [String]) {
        guard case .object(let rules) = schema else { return }
        if let type = rules["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            if !names.isEmpty, !names.contains(where: { matches(value, type: $0) }) {
                problems.append("\(path) is \(value.typeName), not \(names.joined(separator: " or "))")
                return
            }
        }
        if let options = rules["enum"]?.arrayValue, !options.contains(value) {
            problems.append("\(path) is none of \(JSONValue.array(options).jsonString())")
        }
        if let constant = rules["const"], constant != value {
            problems.append("\(path) is not \(constant.jsonString())")
        }
        switch value {
        case .object(let object):
            let properties = rules["properties"]?.objectValue ?? [:]
            for name in rules["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                problems.append("\(path).\(name) is missing")
            }
            for member in object {
                let memberPath = "\(path).\(member.key)"
                if let rule = properties[member.key] {
                    check(member.value, rule, path: memberPath, into: &problems)
                } else if let additional = rules["additionalProperties"] {
                    if additional == false {
                        problems.append("\(memberPath) is not allowed")
                    } else {
                        check(member.value, additional, path: memberPath, into: &problems)
                    }
                }
            }
        case .array(let items):
            if let minimum = rules["minItems"]?.intValue, items.count < minimum {
                problems.append("\(path) has fewer than \(minimum) items")
            }
            if let maximum = rules["maxItems"]?.intValue, items.count > maximum {
                problems.append("\(path) has more than \(maximum) items")
            }
            if let rule = rules["items"] {
                for (index, item) in items.enumerated() {
                    check(item, rule, path: "\(path)[\(index)]", into: &problems)
                }
            }
        case .string(let text):
            if let minimum = rules["minLength"]?.intValue, text.count < minimum {
                problems.append("\(path) is shorter than \(minimum) characters")
            }
            if let maximum = rules["maxLength"]?.intValue, text.count > maximum {
                problems.append("\(path) is longer than \(maximum) characters")
            }
        case .number(let number):
            if let minimum = rules["minimum"]?.doubleValue, number < minimum {
                problems.append("\(path) is less than \(minimum)")
            }
            if let maximum = rules["maximum"]?.doubleValue, number > maximum {
                problems.append("\(path) is more than \(maximum)")
            }
        default:
            break
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("number", .number):
            true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }
}
