import Foundation

/// What a state or a transition says (`say`): one list of payloads, or lists by language.
///
/// ```json
/// "say": [{"type": "text", "text": "Which crust?"}]
/// "say": {"en": [{"type": "text", "text": "Which crust?"}], "fr": [{"type": "text", "text": "Quelle pâte ?"}]}
/// ```
///
/// In the second form the conversation's language — the profile's `languageTag` — picks the list: the tag
/// itself (`fr-CA`), then its language (`fr`), then the first list.
public struct Responses: JSONConvertible, Hashable {
    /// A list of payloads for one language.
    public struct Translation: Sendable, Hashable {
        /// The BCP 47 tag it is for, such as `fr` or `fr-CA`.
        public let language: String
        /// What is said in that language.
        public let payloads: [MessagePayload]
    }

    /// The lists by language, in file order; empty when the file gives one list for every language.
    public let translations: [Translation]
    /// The list said when no translation fits: the one list, or the first translation's.
    public let payloads: [MessagePayload]

    /// One list for every language.
    public init(_ payloads: [MessagePayload]) {
        self.init(payloads: payloads, translations: [])
    }

    private init(payloads: [MessagePayload], translations: [Translation]) {
        self.payloads = payloads
        self.translations = translations
    }

    /// Whether nothing is said.
    public var isEmpty: Bool { payloads.isEmpty && translations.allSatisfy(\.payloads.isEmpty) }

    /// The list for a conversation in `languageTag`, and the tag of the translation chosen (`nil` for the one
    /// list).
    public func payloads(for languageTag: String?) -> (language: String?, payloads: [MessagePayload]) {
        guard let first = translations.first else { return (nil, payloads) }
        if let tag = languageTag?.lowercased().replacingOccurrences(of: "_", with: "-") {
            if let exact = translations.first(where: { $0.language.lowercased() == tag }) {
                return (exact.language, exact.payloads)
            }
            let base = tag.split(separator: "-").first.map(String.init) ?? tag
            if let sameLanguage = translations.first(where: { $0.language.lowercased() == base }) {
                return (sameLanguage.language, sameLanguage.payloads)
            }
        }
        return (first.language, first.payloads)
    }

    /// Decodes an array of payloads, or an object of such arrays keyed by language tag.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else {
            self.init(try [MessagePayload](json: json))
            return
        }
        if object["type"] != nil || object.contains(where: { $0.value.arrayValue == nil }) {
            throw ParleyError(
                .typeMismatch,
                "expected a list of payloads, or an object of such lists keyed by language tag"
                    + (object["type"] != nil ? "; found one payload: put it in [ ]" : ""))
        }
        var translations: [Translation] = []
        for member in object {
            do {
                translations.append(
                    Translation(language: member.key, payloads: try [MessagePayload](json: member.value)))
            } catch {
                throw error.within(.key(member.key))
            }
        }
        self.init(payloads: translations.first?.payloads ?? [], translations: translations)
    }

    /// The file form.
    public var jsonValue: JSONValue {
        guard !translations.isEmpty else { return payloads.jsonValue }
        return .object(JSONObject(translations.map { JSONObject.Member($0.language, $0.payloads.jsonValue) }))
    }
}
