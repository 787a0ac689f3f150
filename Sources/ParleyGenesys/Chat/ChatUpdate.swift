import Foundation

/// The body of a GMS chat answer or Comet event (`data.message`): the chat's state and new transcript lines.
///
/// ```json
/// {"startedAt": "2014-05-02T16:27:38Z", "chatIxnState": "TRANSCRIPT", "chatSessionId": "000FRa9NYM9A001K",
///  "transcriptToShow": [["Message.Text", "Stan", "Hello.", "8", "CLIENT"]], "transcriptPosition": "2",
///  "chatServiceMessage": "Chat service is available"}
/// ```
///
/// `transcriptPosition` decodes from a string (as GMS sends it) or a number. Lines get positions counting back
/// from it: the last line is at `transcriptPosition`.
public struct ChatUpdate: JSONConvertible, Codable, Hashable {
    /// `chatIxnState`.
    public var state: ChatInteractionState?
    /// `chatSessionId`.
    public var chatSessionID: String?
    /// `transcriptPosition`: the position of the last line.
    public var transcriptPosition: Int?
    /// `transcriptToShow`, with positions.
    public var entries: [TranscriptEntry]
    /// `chatServiceMessage`.
    public var serviceMessage: String?
    /// `startedAt`.
    public var startedAt: String?
    /// The object as received (verbose answers carry `_chatIxnAPI_*_URL` and more).
    public let jsonValue: JSONValue

    /// Decodes the object.
    /// - Throws: ``ParleyError/Code/typeMismatch`` when it is not an object, or a line is not an array.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else {
            throw ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath())
        }
        let fields = LenientObject(object)
        state = fields.string("chatIxnState").map(ChatInteractionState.init(rawValue:))
        chatSessionID = fields.string("chatSessionId")
        transcriptPosition = fields.int("transcriptPosition")
        serviceMessage = fields.string("chatServiceMessage")
        startedAt = fields.string("startedAt")
        jsonValue = json
        var entries: [TranscriptEntry] = []
        for (index, element) in (fields["transcriptToShow"]?.arrayValue ?? []).enumerated() {
            do { entries.append(try TranscriptEntry(json: element)) } catch {
                throw error.within(.key("transcriptToShow"), .index(index))
            }
        }
        if let last = transcriptPosition {
            for index in entries.indices { entries[index].position = last - (entries.count - 1 - index) }
        }
        self.entries = entries
    }

    /// A ready-made action URL of a verbose answer, such as `_chatIxnAPI_SEND_URL`.
    public func actionURL(_ name: String) -> String? {
        LenientObject(jsonValue)?.string("_chatIxnAPI_\(name)_URL")
    }

    /// Equal when the JSON received is.
    public static func == (lhs: ChatUpdate, rhs: ChatUpdate) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}

/// A Comet delivery on `/_genesys`: `{"message": ChatUpdate, "id": …, "tag": "service.chat.refresh.<id>"}`.
public struct ChatNotification: JSONConvertible, Codable, Hashable {
    /// The update (`message`).
    public var update: ChatUpdate
    /// The notification's id (`id`).
    public var id: String?
    /// `tag`, such as `service.chat.refresh.<serviceId>`.
    public var tag: String?
    /// The object as received.
    public let jsonValue: JSONValue

    /// Decodes the `data` of a `/_genesys` event.
    public init(json: JSONValue) throws(ParleyError) {
        guard let fields = LenientObject(json) else {
            throw ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath())
        }
        var message = fields["message"] ?? .null
        if case .string(let text) = message { message = try JSONValue(parsingLeniently: text) }
        do { update = try ChatUpdate(json: message) } catch { throw error.within(.key("message")) }
        id = fields.string("id")
        tag = fields.string("tag")
        jsonValue = json
    }

    /// The service id at the end of ``tag``.
    public var serviceID: String? {
        guard let tag, let range = tag.range(of: "service.chat.refresh.") else { return nil }
        return String(tag[range.upperBound...])
    }

    /// Equal when the JSON received is.
    public static func == (lhs: ChatNotification, rhs: ChatNotification) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}
