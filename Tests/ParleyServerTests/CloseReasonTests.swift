import Testing

@testable import ParleyServer

/// A close frame's reason holds at most 123 bytes (RFC 6455 §5.5): a longer one is cut at a character's end.
@Suite struct CloseReasonTests {
    @Test func aShortReasonIsTheCodeAndTheMessage() {
        let error = ParleyError(.invalidToken, "the token is not signed for this channel")
        #expect(error.closeReason == "auth.invalidToken: the token is not signed for this channel")
    }

    @Test func aLongReasonIsCutAtACharactersEnd() {
        // "é" is two bytes: after the 17 bytes of "server.internal: ", 53 of them fill the 123 exactly; alone, 61 of
        // them (122 bytes) are the most that fit.
        let error = ParleyError(.internalError, String(repeating: "é", count: 200))
        let reason = error.closeReason
        #expect(reason == "server.internal: " + String(repeating: "é", count: 53))
        #expect(String(repeating: "é", count: 200).clippedToCloseReason.utf8.count == 122)
    }
}
