import Foundation

/// The texts of a chat screen in one language: ParleyUI's tables (English, French, Spanish) with the app's
/// overrides on top.
///
/// ```swift
/// var overrides = StringOverrides()
/// overrides[.chatTitle] = "Pizza Bot"                          // every language
/// overrides[.typingStatus, locale: "fr"] = "Un instant…"       // French only
/// let strings = Strings(locale: "fr-CA", overrides: overrides)
/// print(strings[.typingStatus], strings[.chatTitle])            // "Un instant…" "Pizza Bot"
/// ```
///
/// A lookup tries, in order: the override for the locale (the exact tag, such as `fr-CA`, then its language,
/// `fr`), the override for every locale, ParleyUI's table for the locale (exact, then language), ParleyUI's
/// English table, and finally the key itself. Tags are compared without case, with `_` read as `-`.
public struct Strings: Sendable, Hashable {
    /// The language the texts are for: a BCP 47 tag such as `fr` or `es-MX`.
    public var locale: String
    /// The app's texts, which win over ParleyUI's.
    public var overrides: StringOverrides

    /// The texts for `locale` with `overrides` on top.
    public init(locale: String = "en", overrides: StringOverrides = StringOverrides()) {
        self.locale = locale
        self.overrides = overrides
    }

    /// The text of `key`.
    public subscript(key: StringKey) -> String {
        let tags = Self.candidates(for: locale)
        for tag in tags {
            if let text = overrides.byLocale[tag]?[key] { return text }
        }
        if let text = overrides.all[key] { return text }
        for tag in tags {
            if let text = Self.bundled[tag]?[key.rawValue] { return text }
        }
        return Self.bundled["en"]?[key.rawValue] ?? key.rawValue
    }

    /// The text of `key` with `{0}`, `{1}`… replaced by `arguments`.
    public func format(_ key: StringKey, _ arguments: any CustomStringConvertible...) -> String {
        var text = self[key]
        for (position, argument) in arguments.enumerated() {
            text = text.replacingOccurrences(of: "{\(position)}", with: argument.description)
        }
        return text
    }

    /// The client's default responses for a slow skill in this language, for
    /// ``ScreenOptions/defaultResponseStrings`` (the client itself has only Oracle's English ones).
    public var defaultResponseStrings: DefaultResponseStrings {
        DefaultResponseStrings(
            greeting: self[.defaultGreetingMessage], wait: self[.defaultWaitMessage], sorry: self[.defaultSorryMessage])
    }

    /// The languages ParleyUI has tables for.
    public static var bundledLocales: [String] { bundled.keys.sorted() }

    /// ParleyUI's table for `locale` (exactly that tag, as ParleyUI names it: `en`, `fr`, `es`), by key.
    public static func bundledTable(for locale: String) -> [String: String]? {
        bundled[normalized(locale)]
    }

    /// `fr-CA` → `["fr-ca", "fr"]`.
    static func candidates(for locale: String) -> [String] {
        let tag = normalized(locale)
        let language = tag.split(separator: "-").first.map(String.init) ?? tag
        return language == tag ? [tag] : [tag, language]
    }

    /// Lower case, `_` as `-`.
    static func normalized(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// Every `<tag>.lproj/Localizable.strings` under the bundle's `Strings` folder, by tag. The files are copied
    /// into the bundle unchanged (not compiled to binary property lists), so the same reader works on Linux and
    /// Apple platforms, and a lookup in one language does not depend on the process's preferred languages.
    static let bundled: [String: [String: String]] = {
        guard let folder = Bundle.module.url(forResource: "Strings", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [:] }
        var tables: [String: [String: String]] = [:]
        for name in names where name.hasSuffix(".lproj") {
            let file = folder.appendingPathComponent(name).appendingPathComponent("Localizable.strings")
            guard let text = try? String(contentsOf: file, encoding: .utf8),
                let table = try? StringsFile.parse(text)
            else { continue }
            tables[normalized(String(name.dropLast(".lproj".count)))] = table
        }
        return tables
    }()
}

/// The app's own texts: for every language, or for one.
///
/// ```swift
/// var overrides = StringOverrides()
/// overrides[.writeAMessage] = "Ask about pizza"
/// overrides[.writeAMessage, locale: "es"] = "Pregunta sobre pizzas"
/// try overrides.load(stringsFile: #""odais_ok" = "D'accord";"#, locale: "fr")
/// ```
public struct StringOverrides: Sendable, Hashable {
    /// Texts for every language, by key.
    public var all: [StringKey: String]
    /// Texts for one language, by normalised tag (lower case, `-`), then by key.
    public private(set) var byLocale: [String: [StringKey: String]]

    /// Overrides; `byLocale`'s tags are normalised.
    public init(_ all: [StringKey: String] = [:], byLocale: [String: [StringKey: String]] = [:]) {
        self.all = all
        self.byLocale = [:]
        for (tag, texts) in byLocale {
            self.byLocale[Strings.normalized(tag), default: [:]].merge(texts) { $1 }
        }
    }

    /// The override of `key` for every language.
    public subscript(key: StringKey) -> String? {
        get { all[key] }
        set { all[key] = newValue }
    }

    /// The override of `key` for `locale` only.
    public subscript(key: StringKey, locale locale: String) -> String? {
        get { byLocale[Strings.normalized(locale)]?[key] }
        set { byLocale[Strings.normalized(locale), default: [:]][key] = newValue }
    }

    /// Adds every entry of a `.strings` text, for `locale` or (when `nil`) for every language.
    /// - Throws: ``ParleyError/Code/stringsFileInvalid`` when the text does not parse; nothing is added.
    public mutating func load(stringsFile text: String, locale: String? = nil) throws(ParleyError) {
        let entries = try StringsFile.parse(text)
        for (key, value) in entries {
            if let locale {
                self[StringKey(rawValue: key), locale: locale] = value
            } else {
                self[StringKey(rawValue: key)] = value
            }
        }
    }
}
