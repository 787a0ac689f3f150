import ArgumentParser

/// A length of time given on the command line: seconds (`90`), or a number with `s`, `m`, `h` or `d` (`30m`, `1h`).
///
/// Only finite positive numbers up to ``maximumSeconds`` are durations: `1e300`, `inf`, `nan`, `0` and `-5` are not,
/// so that no option can carry a value that overflows a date or a timer later.
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// The longest duration any option takes: a year.
    static let maximumSeconds: Double = 366 * 24 * 3600

    /// The duration in seconds.
    let seconds: Double
    /// What was typed.
    let text: String

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(argument)
        var factor: Double = 1
        if let unit = argument.last, let unitFactor = units[unit] {
            number = number.dropLast()
            factor = unitFactor
        }
        // Double("1e300") and Double("inf") parse; only plain decimal digits with an optional fraction are taken.
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, let value = Double(number)
        else { return nil }
        let seconds = value * factor
        guard seconds.isFinite, seconds > 0, seconds <= Self.maximumSeconds else { return nil }
        self.seconds = seconds
        self.text = argument
    }

    /// The duration as a `Duration`.
    var duration: Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    static var defaultCompletionKind: CompletionKind { .default }
}
