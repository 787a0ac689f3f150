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
            let data = try Data(contentsOf: file)
            for record in Self.records(in: data) {
                switch record {
                case .message(let message):
                    messages.append(message)
                case .replacement(let replacement):
                    if let index = messages.lastIndex(where: { $0.id == replacement.id }) {
                        messages[index] = replacement
                    }
                case .delivery(let id, let state):
                    if let index = messages.lastIndex(where: { $0.id == id }) { messages[index].delivery = state }
                case .unreadable:
                    continue
                }
            }
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot read the transcript \(file.path): \(error)", underlying: error)
        }
    }

    /// One line of the file.
    private enum Record: Sendable {
        case message(ChatMessage)
        case replacement(ChatMessage)
        case delivery(id: String, DeliveryState)
        case unreadable
    }

    /// Decodes the file's lines, on every core for long transcripts (decoding is the cost of a load; applying the
    /// records in order stays sequential).
    private static func records(in data: Data) -> [Record] {
        // Lines as ranges of one byte array (`Data.split` costs as much as decoding).
        let bytes = [UInt8](data)
        var found: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if index > start { found.append(bytes[start..<index]) }
            start = index + 1
        }
        if start < bytes.count { found.append(bytes[start...]) }
        let lines = found
        let parts = lines.count < 2_000 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
        guard parts > 1 else { return lines.map(record) }
        var records = [Record](repeating: .unreadable, count: lines.count)
        records.withUnsafeMutableBufferPointer { buffer in
            // Each part writes its own range of the buffer.
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = (lines.count * part / parts)..<(lines.count * (part + 1) / parts)
                for index in range { output[index] = record(lines[index]) }
            }
        }
        return records
    }

    private static func record(_ line: ArraySlice<UInt8>) -> Record {
        guard let json = try? JSONValue(parsing: line) else { return .unreadable }
        if let replacement = json["replace"] {
            return (try? ChatMessage(json: replacement)).map(Record.replacement) ?? .unreadable
        }
        if let message = try? ChatMessage(json: json) { return .message(message) }
        if let id = json["id"]?.stringValue,
            let state = json["delivery"]?.stringValue.flatMap(DeliveryState.init(rawValue:))
        {
            return .delivery(id: id, state)
        }
        return .unreadable
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
