/// Phrases as a JSGF grammar: how PocketSphinx is restricted to the phrases a request expects.
enum PhraseGrammar {
    /// A JSGF grammar accepting exactly `phrases` (already normalised).
    static func jsgf(for phrases: [String]) -> String {
        "#JSGF V1.0;\ngrammar parley;\npublic <phrase> = " + phrases.joined(separator: " | ") + ";\n"
    }

    /// Lowercase words of letters, digits and apostrophes: what the en-US dictionary spells.
    static func normalize(_ phrase: String) -> String {
        phrase.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }).joined(
            separator: " ")
    }
}
