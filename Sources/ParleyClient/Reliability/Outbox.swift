import Foundation

/// One frame waiting to be delivered.
struct OutboxItem: Sendable, Hashable {
    /// The frame's `clientMessageId`.
    var id: String
    /// The frame: a user message or a profile update, with `clientMessageId`.
    var frame: JSONValue
    /// `pending` or `sent`; acknowledged and failed items leave the outbox.
    var state: DeliveryState
    /// How many times it was written to a socket.
    var attempts: Int
    /// The transcript entry that shows it, if any (the hidden init message and profile updates have none).
    var transcriptId: String?

    var jsonValue: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "frame": frame, "attempts": .number(Double(attempts)),
        ]
        if let transcriptId { object["transcriptId"] = .string(transcriptId) }
        return .object(object)
    }

    init(id: String, frame: JSONValue, state: DeliveryState = .pending, attempts: Int = 0, transcriptId: String?) {
        self.id = id
        self.frame = frame
        self.state = state
        self.attempts = attempts
        self.transcriptId = transcriptId
    }

    init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let frame = json["frame"] else { return nil }
        self.init(
            id: id, frame: frame, attempts: json["attempts"]?.intValue ?? 0,
            transcriptId: json["transcriptId"]?.stringValue)
    }
}

/// The client's durable side of delivery, for one channel and user: the frames not yet acknowledged, in order,
/// the last sequence number received in order, and whether the conversation's opening was queued.
///
/// With a folder it is an append-only JSON Lines log (`outbox-<channel>-<user>.jsonl`): `{"add":item}`,
/// `{"remove":id}`, `{"lastSequence":n}`, `{"started":true}`. Loading folds the log and rewrites it compactly. A line
/// that cannot be read (cut short by a crash, or damaged) is never dropped silently: the file as it was is moved
/// aside (`….damaged-<time>`) before the rewrite, and the error is in ``damaged`` for the client to log.
struct Outbox: Sendable {
    private(set) var items: [OutboxItem] = []
    private(set) var lastSequence = 0
    /// Whether ``lastSequence`` is a place in the server's numbering (after the first welcome). Before that the
    /// client asks for no replay and starts where the server is.
    private(set) var synced = false
    private(set) var started = false
    /// What could not be read when the outbox was loaded: the file as it was is kept aside
    /// (``DamagedRecord``), and the client logs these.
    private(set) var damaged: [ParleyError] = []
    let file: URL?

    init() {
        file = nil
    }

    init(folder: URL, channelId: String, userId: String) throws(ParleyError) {
        let file = folder.appendingPathComponent("outbox-\(safeFileName(channelId))-\(safeFileName(userId)).jsonl")
        self.file = file
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: file.path) {
                var unreadable = 0
                for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")) {
                    guard let record = try? JSONValue(parsing: line), apply(record) else {
                        unreadable += 1
                        continue
                    }
                }
                if unreadable > 0 {
                    // The compaction below would drop what could not be read: keep the file as it was.
                    let kept = try DamagedRecord.moveAside(file)
                    damaged.append(
                        DamagedRecord.error(
                            "\(unreadable) line(s) of the outbox", kept: kept,
                            reason: "not a record; a queued message may be in it"))
                }
            }
            try compact()
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError(.transcriptStorage, "cannot read the outbox \(file.path): \(error)", underlying: error)
        }
    }

    /// Applies one line of the log; false when it is not a record this version knows.
    private mutating func apply(_ record: JSONValue) -> Bool {
        if let item = record["add"].flatMap(OutboxItem.init(json:)) {
            items.removeAll { $0.id == item.id }
            if record["front"] == .bool(true) { items.insert(item, at: 0) } else { items.append(item) }
        } else if let id = record["remove"]?.stringValue {
            items.removeAll { $0.id == id }
        } else if let sequence = record["lastSequence"]?.intValue {
            lastSequence = sequence
            synced = true
        } else if record["started"] == .bool(true) {
            started = true
        } else if let id = record["attempt"]?.stringValue {
            if let index = items.firstIndex(where: { $0.id == id }) { items[index].attempts += 1 }
        } else {
            return false
        }
        return true
    }

    private func compact() throws(ParleyError) {
        guard let file else { return }
        var records = items.map { JSONValue.object(["add": $0.jsonValue]) }
        if synced { records.append(["lastSequence": .number(Double(lastSequence))]) }
        if started { records.append(["started": true]) }
        let text = records.map { $0.jsonString() + "\n" }.joined()
        do {
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw ParleyError(.transcriptStorage, "cannot write the outbox \(file.path): \(error)", underlying: error)
        }
    }

    private func log(_ record: JSONValue) throws(ParleyError) {
        guard let file else { return }
        try appendLine(record.jsonBytes(), to: file)
    }

    /// Queues a frame at the end.
    mutating func add(_ item: OutboxItem) throws(ParleyError) {
        items.append(item)
        try log(["add": item.jsonValue])
    }

    /// Forgets everything: the conversation ended, and the next one starts fresh (its opening is queued again,
    /// and it starts where the server is).
    mutating func reset() throws(ParleyError) {
        items = []
        lastSequence = 0
        synced = false
        started = false
        try compact()
    }

    /// Queues frames ahead of everything else, in the order given.
    mutating func addAtFront(_ new: [OutboxItem]) throws(ParleyError) {
        items.insert(contentsOf: new, at: 0)
        for item in new.reversed() { try log(["add": item.jsonValue, "front": true]) }
    }

    /// Marks the conversation's opening as queued.
    mutating func markStarted() throws(ParleyError) {
        guard !started else { return }
        started = true
        try log(["started": true])
    }

    /// Notes that an item was written to a socket.
    mutating func markSent(_ id: String) throws(ParleyError) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].state = .sent
        items[index].attempts += 1
        try log(["attempt": .string(id)])
    }

    /// Puts every written item back to pending: the socket they went out on closed before they were acknowledged.
    mutating func requeueSent() {
        for index in items.indices where items[index].state == .sent { items[index].state = .pending }
    }

    /// Takes an item out (acknowledged, failed, or sent to a server without acknowledgements).
    @discardableResult
    mutating func remove(_ id: String) throws(ParleyError) -> OutboxItem? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        let item = items.remove(at: index)
        try log(["remove": .string(id)])
        return item
    }

    /// Notes the last sequence number received in order.
    mutating func setLastSequence(_ sequence: Int) throws(ParleyError) {
        guard sequence != lastSequence || !synced else { return }
        lastSequence = sequence
        synced = true
        try log(["lastSequence": .number(Double(sequence))])
    }
}

/// A file-name-safe form of an id: characters other than letters, digits, `-` and `_` become `_`.
func safeFileName(_ id: String) -> String {
    String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
}

/// Appends one line to a file, creating it when needed.
func appendLine(_ bytes: [UInt8], to file: URL) throws(ParleyError) {
    var line = bytes
    line.append(UInt8(ascii: "\n"))
    do {
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    } catch {
        throw ParleyError(.transcriptStorage, "cannot append to \(file.path): \(error)", underlying: error)
    }
}
