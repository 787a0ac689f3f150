import Foundation
import Observation
import ParleyServerTesting
import ParleyUI
import Testing

/// Waits, without polling or sleeping, until `condition` holds: it is checked now and again after every change of
/// an observed property it reads (the way a SwiftUI view is redrawn). When the suite's time limit cancels the test,
/// the wait ends with an issue.
@MainActor
func waitUntil(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @MainActor () -> Bool
) async {
    while !condition() {
        // The check above and the tracking below run on the main actor with no suspension between them, so a change
        // cannot slip in between: the next change of anything `condition` reads ends this round.
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        _ = withObservationTracking {
            condition()
        } onChange: {
            continuation.yield()
        }
        var iterator = changes.makeAsyncIterator()
        guard await iterator.next() != nil, !Task.isCancelled else {
            Issue.record("cancelled while waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// The chat client a model shows (every model of these tests shows one).
@MainActor
func client(_ model: ChatViewModel) -> ChatClient {
    guard let client = model.conversation as? ChatClient else { preconditionFailure("the model shows a ChatClient") }
    return client
}

extension ChatViewModel {
    /// The message rows.
    var messageRows: [MessageRow] { rows.compactMap(\.message) }

    /// The texts of the message rows (cards as their titles joined by `|`).
    var texts: [String] {
        messageRows.map { row in
            switch row.content {
            case .text(let text, _): text
            case .cards(let cards): cards.cards.map(\.title).joined(separator: "|")
            case .editForm(let form): "form: \(form.form.title ?? "")"
            case .attachment(let attachment): "attachment: \(attachment.title ?? attachment.url)"
            case .location(let location): "location: \(location.latitude),\(location.longitude)"
            default: "other"
            }
        }
    }

    /// The typing row, if any.
    var typingRow: TypingRow? {
        rows.lazy.compactMap { if case .typing(let typing) = $0 { typing } else { nil } }.first
    }

    /// The upload rows.
    var uploadRows: [UploadRow] {
        rows.compactMap { if case .upload(let upload) = $0 { upload } else { nil } }
    }

    /// The day headers.
    var dayHeaders: [DayHeader] {
        rows.compactMap { if case .dayHeader(let header) = $0 { header } else { nil } }
    }
}

/// A user message, a skill message or an agent message at a date, for row tests without a server.
enum Make {
    static func user(_ text: String, at date: Date, id: String = UUID().uuidString, delivery: DeliveryState? = nil)
        -> ChatMessage
    {
        ChatMessage(id: id, date: date, envelope: .user(UserMessage(payload: .text(text))), delivery: delivery)
    }

    static func skill(_ payload: MessagePayload, at date: Date, id: String = UUID().uuidString) -> ChatMessage {
        ChatMessage(id: id, date: date, envelope: .skill(SkillMessage(payload: payload)))
    }

    static func agent(_ text: String, name: String?, at date: Date, extensions: ChannelExtensions? = nil)
        -> ChatMessage
    {
        var payload = MessagePayload.text(text)
        payload.channelExtensions = extensions ?? name.map { ["agentSession": ["name": .string($0)]] }
        return ChatMessage(date: date, envelope: .skill(SkillMessage(payload: payload, source: .agent)))
    }
}

/// 14 November 2023, 22:13:20 UTC.
let referenceDate = Date(timeIntervalSince1970: 1_700_000_000)
let utc = TimeZone(identifier: "UTC") ?? .current

extension IntentOutcome {
    /// The error's code when the intent failed.
    var failureCode: ParleyError.Code? {
        if case .failed(let error) = self { error.code } else { nil }
    }
}
