/// A message a chat page posted to the app through the web view's script message handler.
///
/// Decoding never fails: a body that is not a known event becomes ``unknown(_:)``, so a newer or broken
/// page cannot crash the app (miibo's sample calls `fatalError` there).
///
/// ```swift
/// struct AppExtensions: Decodable, Sendable { var appAction: String? }
///
/// switch BridgeEvent<AppExtensions>(body: #"{"event":"agentLoaded"}"#) {
/// case .agentLoaded: break                    // now send setAppInfo
/// case .agentResponded(let response): print(response.utterance, response.extensions?.appAction ?? "-")
/// case .error(let error): print(error.code, error.message)
/// case .unknown(let event): print("ignored", event.body)
/// }
/// ```
public enum BridgeEvent<Extensions: Decodable & Sendable>: Sendable {
    /// The page is ready for commands: `{"event":"agentLoaded"}`. Send ``BridgeCommand/setAppInfo(apiKey:uid:)``.
    case agentLoaded
    /// The agent answered: `{"event":"agentResponded","bestResponse":{…}}`.
    case agentResponded(AgentResponse<Extensions>)
    /// The page reports an error: `{"error":{"code":…,"message":…}}`.
    case error(PageError)
    /// Anything else, kept whole.
    case unknown(UnknownBridgeEvent)
}

/// A bridge event whose extension data is taken as plain JSON.
public typealias AnyBridgeEvent = BridgeEvent<JSONValue>

extension BridgeEvent {
    /// Decodes a message body: JSON text, as miibo's page and Parley's widget post it.
    public init(body: String) {
        do {
            self.init(json: try JSONValue(parsing: body), body: body)
        } catch {
            self = .unknown(UnknownBridgeEvent(name: nil, json: nil, body: body, problem: error))
        }
    }

    /// Decodes a message body given as UTF-8 bytes.
    public init(bytes: some Collection<UInt8>) {
        self.init(body: String(decoding: bytes, as: UTF8.self))
    }

    /// Decodes a message already parsed as JSON: a JSON object, or a string holding one (a page that posts
    /// an object instead of a string gets here through the web view's conversion).
    public init(json: JSONValue) {
        if case .string(let text) = json {
            self.init(body: text)
        } else {
            self.init(json: json, body: json.jsonString())
        }
    }

    private init(json: JSONValue, body: String) {
        guard case .object(let object) = json else {
            self = .unknown(
                UnknownBridgeEvent(
                    name: nil, json: json, body: body,
                    problem: ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath()))
            )
            return
        }
        let name = object["event"]?.stringValue
        switch name {
        case "agentLoaded"?:
            self = .agentLoaded
        case "agentResponded"?:
            do {
                self = .agentResponded(try AgentResponse(event: object))
            } catch {
                self = .unknown(UnknownBridgeEvent(name: name, json: json, body: body, problem: error))
            }
        case nil where object["error"] != nil:
            self = .error(PageError(json: object["error"] ?? .null))
        case nil:
            self = .unknown(
                UnknownBridgeEvent(
                    name: nil, json: json, body: body,
                    problem: ParleyError(.missingField, "the message has neither event nor error", path: JSONPath())))
        case let other?:
            self = .unknown(UnknownBridgeEvent(name: other, json: json, body: body, problem: nil))
        }
    }
}
