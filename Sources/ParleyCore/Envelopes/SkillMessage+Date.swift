#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SkillMessage {
    /// ``createdOn`` as a date: an ISO 8601 string (with or without fractional seconds) or a
    /// number of milliseconds since 1970. `nil` when absent or in another form.
    public var createdOnDate: Date? {
        switch createdOn {
        case .number(let milliseconds)?:
            return Date(timeIntervalSince1970: milliseconds / 1000)
        case .string(let text)?:
            let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            return (try? fractional.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
        default:
            return nil
        }
    }
}
