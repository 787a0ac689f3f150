import Foundation

extension ChatClient {
    /// The chat language the user chose (a tag of `multiLangChat.supportedLanguages`, or any tag without a
    /// menu); `nil` when the skill detects the language from what the user writes (Oracle's "Detect Language").
    public var chatLanguage: String? { language }

    /// Chooses the chat language (Oracle's `setPrimaryLanguage(primaryLanguage:)`): `nil` or `"und"` lets the skill
    /// detect it; with `multiLangChat.supportedLanguages`, a tag that matches none of them (exactly, or by its
    /// language part: `fr-CA` matches `fr`) also means detection.
    ///
    /// A change starts the conversation over in the new language: the transcript is cleared
    /// (``ChatEvent/transcriptCleared``), ``ChatEvent/languageChanged(_:)`` reports the choice, then a profile
    /// update with the `languageTag` (`"und"` for detection) goes to the skill, and `initUserHiddenMessage` again. With
    /// a `storageFolder` the choice is kept, and the next launch starts with it instead of `primaryLanguage`.
    public func setPrimaryLanguage(_ requested: String?) async throws(ParleyError) {
        try checkInitialized()
        let chosen = Self.resolveLanguage(requested, supported: configuration.multiLangChat?.supportedLanguages ?? [])
        guard chosen != language else { return }
        language = chosen
        try saveLanguage()
        try transcript.clear()
        emit(.transcriptCleared)
        emit(.languageChanged(chosen))
        endWaitingForReply()
        setTyping(nil)
        try await updateProfile(Profile(languageTag: chosen ?? Self.undetermined))
        if let hidden = configuration.initUserHiddenMessage {
            _ = try await send(userMessage(.text(hidden)), record: false)
        }
    }

    /// The tag Oracle uses for "detect the language".
    static let undetermined = "und"

    /// The language `requested` selects among `supported`; `nil` for detection.
    static func resolveLanguage(_ requested: String?, supported: [SupportedLanguage]) -> String? {
        guard let requested, !requested.isEmpty, requested.lowercased() != undetermined else { return nil }
        guard !supported.isEmpty else { return requested }
        let wanted = requested.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = supported.first(where: { $0.lang.lowercased() == wanted }) { return exact.lang }
        let base = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return supported.first(where: { $0.lang.lowercased() == base })?.lang
    }

    /// The language to start with: the choice kept in the storage folder, else `multiLangChat.primaryLanguage`.
    func loadLanguage() {
        if let file = languageFile, let data = try? Data(contentsOf: file), let saved = try? JSONValue(parsing: data),
            let entry = saved["language"]
        {
            language = entry.stringValue
            return
        }
        language = Self.resolveLanguage(
            configuration.multiLangChat?.primaryLanguage,
            supported: configuration.multiLangChat?.supportedLanguages ?? [])
    }

    private func saveLanguage() throws(ParleyError) {
        guard let file = languageFile else { return }
        let record = JSONValue.object(["language": language.map(JSONValue.string) ?? .null])
        do {
            try Data(record.jsonBytes()).write(to: file, options: .atomic)
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot keep the chat language in \(file.path): \(error.localizedDescription)",
                underlying: error)
        }
    }

    /// `language-<channel>-<user>.json` in the storage folder: `{"language":"fr"}`, or `null` for detection.
    private var languageFile: URL? {
        configuration.storageFolder?.appendingPathComponent(
            "language-\(safeFileName(identity.channelId))-\(safeFileName(identity.userId)).json")
    }
}
