import Foundation

/// A channel's speech endpoints (`docs/speech.md`, "The server"): whether its users may use the recognition socket
/// (`/voice/stream/recognize/{locale}/generic`) and text to speech (`/tts/speak`, `/tts/voices`), in which locales,
/// and the phrases recognition listens for.
///
/// Off by default: speech costs CPU per user, so an operator switches it on per channel.
///
/// ```json
/// {"id": "shop", "speech": {"enabled": true, "locales": ["en-us", "en-gb"], "phrases": ["turn on the lights"]}}
/// ```
public struct ChannelSpeech: JSONConvertible, Codable, Hashable {
    /// Whether the channel serves the speech endpoints. Default `false`.
    public var enabled: Bool
    /// The locales the channel offers, as Oracle's clients spell them in the socket's path (`en-us`, `de-de`, …;
    /// compared without case). A locale is served when it is offered here and the recognizer has a model for it or
    /// for its language (`en-gb` is heard by an `en-US` model). Default `["en-us"]`, Oracle's default.
    public var locales: [String]
    /// Phrases recognition is restricted to (PocketSphinx builds a grammar of them); empty for open dictation.
    /// Commands are far more reliable with phrases. Default none.
    public var phrases: [String]

    /// Creates a channel's speech settings.
    public init(enabled: Bool = false, locales: [String] = ["en-us"], phrases: [String] = []) {
        self.enabled = enabled
        self.locales = locales
        self.phrases = phrases
    }

    /// Speech switched on for Oracle's default locale, `en-us`.
    public static let on = ChannelSpeech(enabled: true)

    /// Decodes `{"enabled": …, "locales": […], "phrases": […]}`; every member is optional, an unknown one is an
    /// error.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        self.init(
            enabled: try reader.optional("enabled") ?? false, locales: try reader.optional("locales") ?? ["en-us"],
            phrases: try reader.optional("phrases") ?? [])
        if let unknown = reader.rest.first(where: { !$0.value.isNull }) {
            throw ParleyError(
                .invalidValue, "a channel's speech has no member \(JSONValue.string(unknown.key))",
                path: JSONPath([.key(unknown.key)]))
        }
    }

    /// The configuration-file form.
    public var jsonValue: JSONValue {
        ["enabled": .bool(enabled), "locales": locales.jsonValue, "phrases": phrases.jsonValue]
    }

    /// The offered locale matching `locale` without case, as the channel spells it; nil when it is not offered.
    func offered(_ locale: String) -> String? {
        locales.first { $0.lowercased() == locale.lowercased() }
    }
}
