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
        let script = try Self.read("Sources/ParleyServer/Widget/Assets/parley-widget.js")
        let doc = try Self.read("docs/widget.md")
        let settings = try Self.keys(in: script, from: "  var DEFAULTS = {", to: "  };")
        #expect(settings.count >= 35, "the settings were read: \(settings)")
        for setting in settings where !["colors", "strings"].contains(setting) {
            #expect(doc.contains("`\(setting)`"), "docs/widget.md does not name the setting \(setting)")
        }
        #expect(settings.contains("multiLangChat") && settings.contains("enableDefaultClientResponse"))
    }

    @Test func everyStringIsDocumented() throws {
        let script = try Self.read("Sources/ParleyServer/Widget/Assets/parley-widget.js")
        let doc = try Self.read("docs/widget.md")
        let strings = try Self.keys(in: script, from: "    en: {", to: "    }")
        #expect(strings.count >= 45, "the strings were read: \(strings)")
        for key in strings {
            #expect(doc.contains("`\(key)`"), "docs/widget.md does not name the string \(key)")
        }
    }
}
