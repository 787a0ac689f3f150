/// A recognised utterance.
public struct SpeechResult: Sendable, Hashable {
    /// The recognition request's id (Oracle's `requestId`): sent as `sdkMetadata.speechId` with the message.
    public var requestId: String
    /// The best hypothesis.
    public var text: String
    /// The n-best list, best first; the first is ``text``.
    public var alternatives: [String]

    /// A result.
    public init(requestId: String, text: String, alternatives: [String] = []) {
        self.requestId = requestId
        self.text = text
        self.alternatives = alternatives.isEmpty ? [text] : alternatives
    }
}
