import Foundation
public import ParleyCore

/// Words a synthesiser speaks differently: as an alias ("Qatar" → "Kah-Tar") or as IPA phonemes
/// ("Xavier" → "ˈzeɪ.vi.ər").
///
/// The file form is one `word: replacement` per line; lines starting with `#` and blank lines are ignored:
///
/// ```swift
/// var pronunciations = Pronunciations()
/// try pronunciations.loadAliases(from: "Qatar: Kah-Tar\n#Versailles: Ver-sigh\n")
/// pronunciations.apply(to: "Flights to Qatar")   // "Flights to Kah-Tar"
/// ```
public struct Pronunciations: Sendable, Hashable {
    /// Word → alias.
    public var aliases: [String: String]
    /// Word → IPA phonemes.
    public var phonemes: [String: String]

    /// Creates a set of pronunciations.
    public init(aliases: [String: String] = [:], phonemes: [String: String] = [:]) {
        self.aliases = aliases
        self.phonemes = phonemes
    }

    /// Parses `word: replacement` lines; `#` lines and blank lines are skipped, words and replacements trimmed.
    /// - Throws: `speech.badPronunciationLine` naming the first line without a colon.
    public static func parse(_ text: String) throws(ParleyError) -> [String: String] {
        var entries: [String: String] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw ParleyError(.badPronunciationLine, "line \(number + 1) has no colon: \(line)")
            }
            let word = line[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            let replacement = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !word.isEmpty, !replacement.isEmpty else {
                throw ParleyError(.badPronunciationLine, "line \(number + 1) needs a word and a replacement: \(line)")
            }
            entries[word] = replacement
        }
        return entries
    }

    /// Adds the aliases of an alias file's text.
    public mutating func loadAliases(from text: String) throws(ParleyError) {
        aliases.merge(try Self.parse(text)) { _, new in new }
    }

    /// Adds the phonemes of an IPA phoneme file's text.
    public mutating func loadPhonemes(from text: String) throws(ParleyError) {
        phonemes.merge(try Self.parse(text)) { _, new in new }
    }

    /// `text` with every whole-word alias replaced (longest words first; keys are trimmed, so the seed's
    /// `"Versailles "` matches `Versailles`).
    public func apply(to text: String) -> String {
        var result = text
        for (word, alias) in aliases.sorted(by: { $0.key.count > $1.key.count }) {
            result = Self.replaceWord(
                word.trimmingCharacters(in: .whitespaces), with: alias.trimmingCharacters(in: .whitespaces), in: result)
        }
        return result
    }

    /// Replaces whole-word occurrences of `word` (case-sensitive) in `text`.
    static func replaceWord(_ word: String, with replacement: String, in text: String) -> String {
        guard !word.isEmpty else { return text }
        var output = ""
        var rest = text[...]
        while let range = rest.range(of: word) {
            let before = range.lowerBound == rest.startIndex ? nil : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            let isWord = !(before?.isLetter ?? false) && !(after?.isLetter ?? false)
            output += rest[..<range.lowerBound]
            output += isWord ? replacement : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
