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
    /// What could not be read when the store was loaded (``ParleyError/Code/clientRecordDamaged``): the file as it
    /// was is kept aside, named in the error, and the readable messages are written back. ``ChatClient`` logs these.
    public private(set) var damaged: [ParleyError] = []

    /// An empty store in memory.
    public init() {
        file = nil
    }

    /// A store persisted in `folder`, loaded from it. Lines that do not decode (a file cut short by a crash, a damaged
    /// line) never lose the rest, and are not lost either: the file as it was is moved aside
    /// (`….damaged-<time>`), the messages that could be read are written to a new file, and ``damaged`` says so.
    /// - Throws: ``ParleyError/Code/transcriptStorage`` when the folder cannot be created or the file read.
    public init(folder: URL, channelId: String, userId: String) throws(ParleyError) {
        let name = "transcript-\(safeFileName(channelId))-\(safeFileName(userId)).jsonl"
        let file = folder.appendingPathComponent(name)
        self.file = file
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.fileExists(atPath: file.path) else { return }
            var unreadable = 0
            defer {
                if unreadable > 0 { keepDamaged(lines: unreadable) }
            }
            Self.forEachRecord(in: try Data(contentsOf: file)) { (record: consuming Record) in
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
                    unreadable += 1
                }
            }
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot read the transcript \(file.path): \(error)", underlying: error)
        }
    }

    /// Moves the file aside and writes the messages read from it to a new one (the load found `lines` unreadable).
    private mutating func keepDamaged(lines: Int) {
        guard let file else { return }
        do {
            let kept = try DamagedRecord.moveAside(file)
            damaged.append(DamagedRecord.error("\(lines) line(s) of the transcript", kept: kept, reason: "not JSON"))
            let text = messages.map { String(decoding: $0.jsonBytes(), as: UTF8.self) + "\n" }.joined()
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch let error as ParleyError {
            damaged.append(error)
        } catch {
            damaged.append(
                ParleyError(.transcriptStorage, "cannot rewrite the transcript \(file.path)", underlying: error))
        }
    }

    /// One line of the file.
    private enum Record: Sendable {
        case message(ChatMessage)
        case replacement(ChatMessage)
        case delivery(id: String, DeliveryState)
        case unreadable
    }

    /// Decodes the file's lines, on every core for long transcripts (decoding is the cost of a load), and hands each
    /// record to `apply`, in order, on the calling thread.
    private static func forEachRecord(in data: Data, _ apply: (consuming Record) -> Void) {
        // Lines as ranges of one byte array (`Data.split` costs as much as decoding).
        let bytes = [UInt8](data)
        var found: [ArraySlice<UInt8>] = []
        found.reserveCapacity(bytes.count / 256)
        // `memchr` finds the line ends many bytes at a time: a loop over bytes was a sixth of a load, on one core.
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? buffer.count
                if end > start { found.append(bytes[start..<end]) }
                start = end + 1
            }
        }
        let lines = found
        guard lines.count >= 2_000, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            for line in lines { apply(record(line)) }
            return
        }
        // Records are decoded into memory of their own and moved out of it once, in order: an array of them would be
        // filled with placeholders first, and each record copied out of it and freed twice.
        let records = UnsafeMutableBufferPointer<Record>.allocate(capacity: lines.count)
        defer { records.deallocate() }
        nonisolated(unsafe) let output = records
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, 8)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            // Each part initializes its own range.
            for index in (lines.count * part / parts)..<(lines.count * (part + 1) / parts) {
                output.initializeElement(at: index, to: record(lines[index]))
            }
        }
        for index in records.indices { apply(records.moveElement(from: index)) }
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
