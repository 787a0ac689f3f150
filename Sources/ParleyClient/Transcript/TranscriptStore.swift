public import Foundation

/// The messages of one conversation, in order, kept in memory and — when given a folder — in a JSON Lines
/// file (`transcript-<channel>-<user>.jsonl`, one ``ChatMessage`` per line, `{"id":…,"delivery":…}` lines for
/// later changes of a user message's ``DeliveryState`` and `{"replace":message}` lines for messages changed in
/// place) so that they survive a relaunch.
///
/// A ``ChatClient`` owns one per channel and user; apps read it through ``ChatClient/messages()``.
public struct TranscriptStore: Sendable {
    /// The messages, oldest first.
    public private(set) var messages: [ChatMessage] = []
    /// The file, when the store persists.
    public let file: URL?

    /// An empty store in memory.
    public init() {
        file = nil
    }

    /// A store persisted in `folder`, loaded from it. Lines that do not decode (a file cut short by a crash) are
    /// skipped, so that one bad line never loses the rest.
    /// - Throws: ``ParleyError/Code/transcriptStorage`` when the folder cannot be created or the file read.
    public init(folder: URL, channelId: String, userId: String) throws(ParleyError) {
        let name = "transcript-\(safeFileName(channelId))-\(safeFileName(userId)).jsonl"
        let file = folder.appendingPathComponent(name)
        self.file = file
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.fileExists(atPath: file.path) else { return }
            for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")) {
                guard let record = try? JSONValue(parsing: line) else { continue }
                if let replacement = record["replace"].flatMap({ try? ChatMessage(json: $0) }) {
                    if let index = messages.lastIndex(where: { $0.id == replacement.id }) {
                        messages[index] = replacement
                    }
                } else if let message = try? ChatMessage(json: record) {
                    messages.append(message)
                } else if let id = record["id"]?.stringValue,
                    let state = record["delivery"]?.stringValue.flatMap(DeliveryState.init(rawValue:)),
                    let index = messages.lastIndex(where: { $0.id == id })
                {
                    messages[index].delivery = state
                }
            }
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot read the transcript \(file.path): \(error)", underlying: error)
        }
    }

    /// Adds a message at the end.
    public mutating func append(_ message: ChatMessage) throws(ParleyError) {
        messages.append(message)
        guard let file else { return }
        try appendLine(message.jsonBytes(), to: file)
    }

    /// Records a new delivery state of a user message.
    public mutating func setDelivery(_ state: DeliveryState, of id: String) throws(ParleyError) {
        guard let index = messages.lastIndex(where: { $0.id == id }), messages[index].delivery != state else { return }
        messages[index].delivery = state
        guard let file else { return }
        try appendLine(
            JSONValue.object(["id": .string(id), "delivery": .string(state.rawValue)]).jsonBytes(), to: file)
    }

    /// Replaces the message that has `message`'s id, in its place (a streamed text growing, a form replaced).
    public mutating func replace(_ message: ChatMessage) throws(ParleyError) {
        guard let index = messages.lastIndex(where: { $0.id == message.id }) else { return }
        messages[index] = message
        guard let file else { return }
        try appendLine(JSONValue.object(["replace": message.jsonValue]).jsonBytes(), to: file)
    }

    /// The message with this id.
    public func message(id: String) -> ChatMessage? {
        messages.last { $0.id == id }
    }

    /// Removes every message (and the file's contents).
    public mutating func clear() throws(ParleyError) {
        messages.removeAll()
        guard let file else { return }
        do {
            try Data().write(to: file)
        } catch {
            throw ParleyError(.transcriptStorage, "cannot clear \(file.path): \(error)", underlying: error)
        }
    }
}
