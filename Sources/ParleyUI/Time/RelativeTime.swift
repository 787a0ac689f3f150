/// How long ago a message came, in the buckets of Oracle's relative timestamps (`timestampMode` `relative`):
/// the label changes every 10 s, then every minute, hour, day, month and year.
///
/// | elapsed | value | English |
/// |---|---|---|
/// | under 10 s | ``justNow`` | Just now |
/// | 10 s to 1 min | ``moments`` | A few moments ago |
/// | 1 min to 1 h | ``minutes(_:)`` | 5 min ago |
/// | 1 h to 24 h | ``hours(_:)`` | 3 hr ago |
/// | 1 day to 30 days | ``days(_:)`` | 2 days ago |
/// | 30 days to 365 days | ``months(_:)`` (30-day months) | 4 months ago |
/// | 365 days and more | ``years(_:)`` (365-day years) | 1 year ago |
public enum RelativeTime: Sendable, Hashable {
    /// Under 10 seconds.
    case justNow
    /// 10 seconds to a minute.
    case moments
    /// Whole minutes, 1 to 59.
    case minutes(Int)
    /// Whole hours, 1 to 23.
    case hours(Int)
    /// Whole days, 1 to 29.
    case days(Int)
    /// Whole 30-day months, 1 to 12.
    case months(Int)
    /// Whole 365-day years, 1 and more.
    case years(Int)

    static let minute = 60.0
    static let hour = 3600.0
    static let day = 86400.0
    static let month = 30 * day
    static let year = 365 * day

    /// The bucket of `elapsed` seconds (a negative time counts as zero).
    public init(elapsed: Double) {
        let seconds = max(elapsed, 0)
        switch seconds {
        case ..<10: self = .justNow
        case ..<Self.minute: self = .moments
        case ..<Self.hour: self = .minutes(Int(seconds / Self.minute))
        case ..<Self.day: self = .hours(Int(seconds / Self.hour))
        case ..<Self.month: self = .days(Int(seconds / Self.day))
        case ..<Self.year: self = .months(max(1, Int(seconds / Self.month)))
        default: self = .years(Int(seconds / Self.year))
        }
    }

    /// The elapsed time, in seconds, at which the label changes next (after `elapsed`).
    public static func nextChange(after elapsed: Double) -> Double {
        let seconds = max(elapsed, 0)
        switch RelativeTime(elapsed: seconds) {
        case .justNow: return 10
        case .moments: return minute
        case .minutes(let count): return Double(count + 1) * minute
        case .hours(let count): return Double(count + 1) * hour
        case .days(let count): return Double(count + 1) * day
        case .months(let count): return min(Double(count + 1) * month, year)
        case .years(let count): return Double(count + 1) * year
        }
    }

    /// The label in `strings`' language (`parley_time_*` keys).
    public func text(_ strings: Strings) -> String {
        switch self {
        case .justNow: strings[.timeNow]
        case .moments: strings[.timeMoments]
        case .minutes(let count): count == 1 ? strings[.timeMinute] : strings.format(.timeMinutes, count)
        case .hours(let count): count == 1 ? strings[.timeHour] : strings.format(.timeHours, count)
        case .days(let count): count == 1 ? strings[.timeDay] : strings.format(.timeDays, count)
        case .months(let count): count == 1 ? strings[.timeMonth] : strings.format(.timeMonths, count)
        case .years(let count): count == 1 ? strings[.timeYear] : strings.format(.timeYears, count)
        }
    }
}
