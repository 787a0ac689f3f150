import Foundation
import ParleySkills

/// The tokens a conversation's model turns used on one day (UTC), kept in the conversation's stored state
/// (`ConversationState.extra["llmTokens"]`: `{"day": "2026-11-28", "used": 1234}`), so that
/// ``LanguageModelConfiguration/maxTokensPerDay`` holds on every node of a cluster and across restarts. The state is
/// stored with the answer, in the same transaction; a conversation that ends keeps it (a new session is not a new
/// day).
struct DailyTokens: Hashable {
    /// The member of ``ConversationState/extra`` that holds the count.
    static let key = "llmTokens"

    /// The day, `yyyy-MM-dd` in UTC.
    var day: String
    /// The tokens used on ``day``, in and out.
    var used: Int

    /// The count for the day of `date`: what `state` holds for that day, else 0.
    init(in state: ConversationState, on date: Date) {
        day = Self.day(of: date)
        let stored = state.extra[Self.key]
        if stored?["day"]?.stringValue == day, let used = stored?["used"]?.intValue, used > 0 {
            self.used = used
        } else {
            used = 0
        }
    }

    /// `state` with this count in it.
    func written(into state: ConversationState) -> ConversationState {
        var state = state
        state.extra[Self.key] = ["day": .string(day), "used": .number(Double(used))]
        return state
    }

    private static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
