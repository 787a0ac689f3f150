import ParleySkills
import Testing

/// A streaming skill that says its pieces, then the whole text.
private struct Pieces: StreamingSkill {
    var pieces: [String]
    var finishes = true

    func stream(_ input: SkillInput, in context: SkillContext) -> AsyncThrowingStream<SkillStreamEvent, any Error> {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(.text(piece)) }
            if finishes {
                continuation.yield(.response(SkillResponse(messages: [.text(pieces.joined())])))
            }
            continuation.finish()
        }
    }
}

@Suite struct StreamingSkillTests {
    @Test func respondCollectsTheStreamIntoItsResponse() async throws {
        let response = try await Pieces(pieces: ["Hel", "lo"]).respond(
            to: .message(.text("hi")), in: SkillContext(channelId: "web", userId: "ada"))
        #expect(response.messages == [.text("Hello")])
    }

    @Test func aStreamWithoutAResponseIsSkillFailed() async throws {
        let error = await #expect(throws: ParleyError.self) {
            try await Pieces(pieces: ["Hel"], finishes: false).respond(
                to: .message(.text("hi")), in: SkillContext(channelId: "web", userId: "ada"))
        }
        #expect(error?.code == .skillFailed)
    }

    @Test func aContextHasNoHistoryUnlessGivenOne() async throws {
        #expect(try await SkillContext(channelId: "web", userId: "ada").history.recentMessages(limit: 5).isEmpty)
        let messages = (1...4).map {
            HistoryMessage(author: $0 % 2 == 1 ? .user : .skill, payload: .text("\($0)"), sequence: $0)
        }
        let context = SkillContext(channelId: "web", userId: "ada", history: InMemoryConversationHistory(messages))
        #expect(try await context.history.recentMessages(limit: 2).map(\.sequence) == [3, 4])
    }
}
