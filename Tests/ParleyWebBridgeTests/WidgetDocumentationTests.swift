import Foundation
import Testing

/// `docs/widget.md` names every setting and every string the widget reads, so that a new one cannot go undocumented.
@Suite("The widget's documentation")
struct WidgetDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The `key:` names at the start of the lines of the block that starts with `start` and ends at the first line
    /// starting with `end`.
    static func keys(in script: String, from start: String, to end: String) throws -> [String] {
        let lines = script.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) }, "no \(start) in the script")
        let last = try #require(lines[(first + 1)...].firstIndex { $0.hasPrefix(end) })
        return lines[(first + 1)..<last].compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            let name = trimmed[..<colon]
            return name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !name.isEmpty ? String(name) : nil
        }
    }

    @Test func everySettingIsDocumented() throws {
        let script = try Self.read("Sources/ParleyServer/Widget/Assets/configuration.js")
        let doc = try Self.read("docs/widget.md")
        let settings = try Self.keys(in: script, from: "export const DEFAULTS = {", to: "};")
        #expect(settings.count >= 35, "the settings were read: \(settings)")
        for setting in settings where !["colors", "strings"].contains(setting) {
            #expect(doc.contains("`\(setting)`"), "docs/widget.md does not name the setting \(setting)")
        }
        #expect(settings.contains("multiLangChat") && settings.contains("enableDefaultClientResponse"))
    }

    /// The keys the widget's modules read (`strings.odais_…`, `strings.parley_…`, and the keys in quotes that name
    /// texts, such as `"odais_speech_error"`), and those of its own table.
    static func stringKeys() throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/ParleyServer/Widget/Assets")
        var keys = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".js") {
            let script = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for match in script.matches(of: /(?:strings\.|")((?:odais|parley)_[a-z_]+)/) where !match.1.hasSuffix("_") {
                keys.insert(String(match.1))  // not a prefix, such as "odais_default_" + kind + "_message"
            }
        }
        return keys
    }

    @Test func everyStringIsDocumented() throws {
        let doc = try Self.read("docs/widget.md")
        let strings = try Self.stringKeys()
        #expect(strings.count >= 45, "the strings were read: \(strings.sorted())")
        #expect(strings.contains("parley_send") && strings.contains("parley_time_years"))
        for key in strings.sorted() {
            #expect(doc.contains("`\(key)`"), "docs/widget.md does not name the string \(key)")
        }
    }

    /// The widget's texts are ParleyUI's tables, which the server serves; the widget keeps only its own buttons'.
    @Test func theWidgetCopiesNoTableOfParleyUI() throws {
        let strings = try Self.read("Sources/ParleyServer/Widget/Assets/strings.js")
        let english = try Self.read("Sources/ParleyUI/Resources/Strings/en.lproj/Localizable.strings")
        let keys = english.matches(of: /\n"([a-z_]+)" =/).map { String($0.1) }
        #expect(keys.count >= 80, "ParleyUI's English keys were read: \(keys.count)")
        let copied = keys.filter { strings.contains("  \($0): ") }
        #expect(copied.isEmpty, "strings.js repeats ParleyUI's texts: \(copied.sorted())")
    }
}
