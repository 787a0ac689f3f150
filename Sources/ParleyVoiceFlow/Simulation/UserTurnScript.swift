import Foundation
public import ParleyCore

/// Scripted user turns for simulations: what the "user" does each time a flow listens.
///
/// The text form, one turn per line (blank lines and `#` comments skipped):
///
/// ```text
/// say: go to sleep          # a final hypothesis
/// say: yes | y | ye         # a final hypothesis "yes" after the partial hypotheses "y" and "ye"
/// silence                   # no input: the no-input timeout passes
/// error: microphone busy    # a recognition error (speech.engineFailed)
/// ```
public enum UserTurn: Sendable, Hashable, CustomStringConvertible {
    /// The user says `text`; `partials` come first.
    case say(String, partials: [String] = [])
    /// The user says nothing.
    case silence
    /// Recognition fails with `message`.
    case error(String)

    /// Parses a script.
    /// - Throws: `decode.invalidValue` naming the first line that is not a turn.
    public static func parse(script: String) throws(ParleyError) -> [UserTurn] {
        var turns: [UserTurn] = []
        for (number, raw) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text == "silence" {
                turns.append(.silence)
            } else if text.hasPrefix("say:") {
                let parts = text.dropFirst(4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                turns.append(.say(parts[0], partials: Array(parts.dropFirst())))
            } else if text.hasPrefix("error:") {
                turns.append(.error(text.dropFirst(6).trimmingCharacters(in: .whitespaces)))
            } else {
                throw ParleyError(
                    .invalidValue, "script line \(number + 1) is not \"say: …\", \"silence\" or \"error: …\": \(text)")
            }
        }
        return turns
    }

    /// The script form of the turn.
    public var description: String {
        switch self {
        case .say(let text, let partials): "say: " + ([text] + partials).joined(separator: " | ")
        case .silence: "silence"
        case .error(let message): "error: \(message)"
        }
    }
}
