import Testing

@testable import ParleyServer

/// The text a cluster's nodes exchange (a PostgreSQL notification's payload): every event round-trips, and a
/// payload that is not an event this version knows (a newer node's, a broken one) is ignored, never a crash.
@Suite("Cluster events")
struct ClusterEventTests {
    static let key = ConversationKey(channelId: "web", userId: "ada \u{1F355} \"quoted\"")

    @Test(arguments: [
        ClusterEvent.messages(key, outbound: 42), .userInput(key, sequence: 7),
        .toAgent(name: "Ann", frame: #"{"type":"ended"}"#), .toUser(key, frame: #"{"messagePayload":{}}"#),
        .agentQueue, .resynchronize,
    ])
    func everyEventRoundTripsThroughItsText(event: ClusterEvent) throws {
        let text = event.jsonValue.jsonString()
        #expect(ClusterEvent(json: try JSONValue(parsing: text)) == event)
    }

    @Test(arguments: [
        #"{"messages":{"channelId":"web","userId":"ada","outbound":1e300}}"#,
        #"{"messages":{"channelId":"web","userId":"ada","outbound":2.5}}"#,
        #"{"messages":{"channelId":"web","userId":"ada","outbound":"3"}}"#,
        #"{"messages":{"channelId":7,"userId":"ada","outbound":3}}"#,
        #"{"userInput":{"channelId":"web","userId":"ada","sequence":-1e19}}"#,
        #"{"toAgent":{"name":["Ann"],"frame":"x"}}"#,
        #"{"somethingNewer":{}}"#, "[]", "null", "7",
    ])
    func anUnknownOrBrokenPayloadIsIgnored(text: String) throws {
        #expect(ClusterEvent(json: try JSONValue(parsing: text)) == nil)
    }
}
