/// A message from the page that is not one of the events ``BridgeEvent`` knows, kept whole.
///
/// A newer page may send events this version does not know; a broken page may send something that is
/// not JSON. Neither is fatal: the app gets this value and decides whether to log it.
public struct UnknownBridgeEvent: Sendable, Hashable {
    /// The value of the message's `event` member, when it has one.
    public var name: String?
    /// The message as JSON, when it is JSON.
    public var json: JSONValue?
    /// The message's text as received (for a body that was not text, its JSON form).
    public var body: String
    /// Why the message is not a known event, when it looked like one (a known event name with a missing
    /// member, or a body that is not a JSON object); `nil` for an event name this version does not know.
    public var problem: ParleyError?

    /// Creates an unknown event.
    public init(name: String?, json: JSONValue?, body: String, problem: ParleyError?) {
        self.name = name
        self.json = json
        self.body = body
        self.problem = problem
    }
}
