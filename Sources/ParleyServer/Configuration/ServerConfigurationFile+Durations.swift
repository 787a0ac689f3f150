extension ServerConfigurationFile {
    /// A duration of the file: seconds (`"90"`), or a number with `s`, `m`, `h` or `d` (`"30m"`, `"90d"`), positive
    /// and at most a year, as `parley serve`'s duration options take them.
    /// - Throws: ``ParleyError`` `decode.invalidValue` at `key` for anything else (`"1e300"`, `"0"`, `"-5"`).
    static func duration(_ text: String, key: String) throws(ParleyError) -> Duration {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var factor: Double = 1
        if let unit = text.last, let unitFactor = units[unit] {
            number = number.dropLast()
            factor = unitFactor
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, let value = Double(number), (value * factor).isFinite,
            value * factor > 0, value * factor <= 366 * 24 * 3600
        else {
            throw ParleyError(
                .invalidValue, "\(key) is a duration such as \"90s\", \"30m\", \"12h\" or \"90d\", at most a year",
                path: JSONPath([.key(key)]))
        }
        return .milliseconds(Int64((value * factor * 1000).rounded()))
    }
}
