import Foundation
import ParleyLanguageModel
import ParleySkills
import Prometheus
import Testing

/// The daily token bound of a conversation, and the metrics a model's turns leave.
@Suite(.timeLimit(.minutes(1))) struct LanguageModelLimitsTests {
    static let day = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, 09:06 UTC

    static func context(_ state: ConversationState, at date: Date) -> SkillContext {
        SkillContext(channelId: "web", userId: "ada", state: state, now: date)
    }

    static func turn(prompt: Int, completion: Int, _ text: String) -> EndpointDouble.Reply {
        .stream([Chunk.text(text), Chunk.finish(), Chunk.usage(prompt: prompt, completion: completion), Chunk.done])
    }

    @Test func aConversationsTokensOfTheDayAreKeptInItsStateAndBoundIt() async throws {
        let endpoint = EndpointDouble([
            Self.turn(prompt: 10, completion: 15, "One."), Self.turn(prompt: 12, completion: 8, "Two."),
            Self.turn(prompt: 5, completion: 5, "Next day."),
        ])
        try await endpoint.run { url in
            var configuration = LanguageModelConfiguration(url: url, model: "tiny")
            configuration.maxTokensPerDay = 30
            let skill = try LanguageModelSkill(configuration: configuration, environment: [:], limits: EndpointLimits())
            var context = Self.context(ConversationState(), at: Self.day)

            let first = try #require(try await collect(skill.stream(.message(.text("hi")), in: context)).response)
            #expect(first.messages == [.text("One.")])
            #expect(first.state?.extra["llmTokens"] == ["day": "2026-11-18", "used": 25])
            context.apply(first)

            // 25 of 30: the turn starts, and runs to its end past the bound.
            let second = try #require(try await collect(skill.stream(.message(.text("more")), in: context)).response)
            #expect(second.messages == [.text("Two.")])
            #expect(second.state?.extra["llmTokens"] == ["day": "2026-11-18", "used": 45])
            context.apply(second)

            // Past the bound: refused without asking the model, the count unchanged.
            let third = try #require(try await collect(skill.stream(.message(.text("again")), in: context)).response)
            #expect(third.messages.map(\.errorCode) == ["llm.dailyLimit"])
            #expect(third.state == nil)
            #expect(await endpoint.requests.count == 2)

            // The next day (UTC) starts from nothing.
            context.now = Self.day.addingTimeInterval(86_400)
            let fourth = try #require(try await collect(skill.stream(.message(.text("hi")), in: context)).response)
            #expect(fourth.messages == [.text("Next day.")])
            #expect(fourth.state?.extra["llmTokens"] == ["day": "2026-11-19", "used": 10])
        }
    }

    @Test func hugeOrNegativeReportedCountsNeitherOverflowNorGiveTokensBack() async throws {
        let endpoint = EndpointDouble([
            .stream([
                Chunk.text("One."), Chunk.finish(),
                .raw(
                    #"data: {"choices":[],"usage":{"prompt_tokens":1000000000000000,"completion_tokens":-5}}"#
                        + "\n\n"),
                Chunk.done,
            ]),
            Self.turn(prompt: 1, completion: 1, "Two."),
        ])
        try await endpoint.run { url in
            var configuration = LanguageModelConfiguration(url: url, model: "tiny")
            configuration.maxTokensPerDay = 30
            let skill = try LanguageModelSkill(configuration: configuration, environment: [:], limits: EndpointLimits())
            var context = Self.context(ConversationState(), at: Self.day)
            let first = try #require(try await collect(skill.stream(.message(.text("hi")), in: context)).response)
            #expect(first.messages == [.text("One.")])
            #expect(first.state?.extra["llmTokens"]?["used"] == .number(Double(1 << 40)))
            context.apply(first)
            // Past the bound now, and still counted as such on the next turn.
            let second = try #require(try await collect(skill.stream(.message(.text("more")), in: context)).response)
            #expect(second.messages.map(\.errorCode) == ["llm.dailyLimit"])
        }
    }

    @Test func withoutADailyBoundTheStateIsLeftAlone() async throws {
        let endpoint = EndpointDouble([Self.turn(prompt: 10, completion: 15, "One.")])
        try await endpoint.run { url in
            let skill = try LanguageModelSkill(
                configuration: LanguageModelConfiguration(url: url, model: "tiny"), environment: [:],
                limits: EndpointLimits())
            let response = try await collect(
                skill.stream(.message(.text("hi")), in: Self.context(ConversationState(), at: Self.day))
            ).response
            #expect(response?.state == nil)
        }
    }

    @Test func theDailyBoundIsAPositiveNumberInTheFile() throws {
        let json = try JSONValue(parsing: #"{"url": "http://127.0.0.1:1/v1", "model": "m", "maxTokensPerDay": 0}"#)
        #expect(throws: ParleyError.self) { try LanguageModelConfiguration(json: json) }
        let kept = try LanguageModelConfiguration(
            json: try JSONValue(parsing: #"{"url": "http://127.0.0.1:1/v1", "model": "m", "maxTokensPerDay": 5000}"#))
        #expect(kept.maxTokensPerDay == 5000)
        #expect(try LanguageModelConfiguration(json: kept.jsonValue) == kept)
    }

    @Test func requestsTokensFirstTokensAndErrorsAreCountedByModel() async throws {
        let registry = PrometheusCollectorRegistry()
        let endpoint = EndpointDouble([
            Self.turn(prompt: 10, completion: 15, "One."), .stream([Chunk.text("Tw")]), .status(500),
        ])
        try await endpoint.run { url in
            let skill = try LanguageModelSkill(
                configuration: LanguageModelConfiguration(url: url, model: "tiny"), environment: [:],
                limits: EndpointLimits(), metrics: PrometheusMetricsFactory(registry: registry))
            let context = Self.context(ConversationState(), at: Self.day)
            for input in ["one", "cut", "failing"] {
                _ = try await collect(skill.stream(.message(.text(input)), in: context))
            }
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
        func value(_ name: String, _ labels: String) -> Double? {
            lines.first { $0.hasPrefix(name + "{") && $0.contains(labels) }
                .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }
        #expect(value(LanguageModelMetrics.requests, #"model="tiny""#) == 3)
        // The first turn's usage as reported, the cut one's "Tw" estimated as one token; the failed request's
        // prompt is estimated too.
        #expect(value(LanguageModelMetrics.tokens, #"direction="out""#) == 16)
        #expect((value(LanguageModelMetrics.tokens, #"direction="in""#) ?? 0) > 10)
        #expect(value(LanguageModelMetrics.firstToken + "_count", #"model="tiny""#) == 2)
        #expect(value(LanguageModelMetrics.errors, #"code="llm.streamCut""#) == 1)
        #expect(value(LanguageModelMetrics.errors, #"code="llm.failed""#) == 1)
    }
}
