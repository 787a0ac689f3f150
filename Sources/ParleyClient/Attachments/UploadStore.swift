import Foundation

/// The uploads not finished yet, for one channel and user: in memory, or with a folder on disk, so that they survive
/// the app's restart.
///
/// On disk each upload is two files in `uploads-<channel>-<user>/`: `<id>.data` (the bytes, written first) and
/// `<id>.json` (`{"id","fileName","mimeType"}`, written atomically once the bytes are there). Loading keeps the
/// uploads that have both. What cannot be read (a record that is not one, bytes without a record after a crash
/// between the two writes) is never deleted: its files are moved aside (`….damaged-<time>`) and the error is in
/// ``damaged`` for the client to log.
struct UploadStore: Sendable {
    struct Entry: Sendable {
        var id: String
        var fileName: String
        var mimeType: String
        var data: Data
    }

    private(set) var entries: [Entry] = []
    /// What could not be read when the store was loaded.
    private(set) var damaged: [ParleyError] = []
    let folder: URL?

    init() {
        folder = nil
    }

    init(folder: URL, channelId: String, userId: String) throws(ParleyError) {
        let folder = folder.appendingPathComponent("uploads-\(safeFileName(channelId))-\(safeFileName(userId))")
        self.folder = folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            for name in names where name.hasSuffix(".json") {
                let record = folder.appendingPathComponent(name)
                let bytes = folder.appendingPathComponent(String(name.dropLast(5)) + ".data")
                let contents = try Data(contentsOf: record)
                guard let json = try? JSONValue(parsing: contents), let id = json["id"]?.stringValue,
                    let fileName = json["fileName"]?.stringValue,
                    let mimeType = json["mimeType"]?.stringValue,
                    FileManager.default.fileExists(atPath: bytes.path)
                else {
                    try keepDamaged(record, reason: "not an upload record, or its bytes are missing")
                    continue
                }
                entries.append(Entry(id: id, fileName: fileName, mimeType: mimeType, data: try Data(contentsOf: bytes)))
            }
            for name in names where name.hasSuffix(".data") {
                let id = String(name.dropLast(5))
                if !entries.contains(where: { safeFileName($0.id) == id })
                    && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(id + ".json").path)
                    && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
                {
                    try keepDamaged(folder.appendingPathComponent(name), reason: "bytes without their record")
                }
            }
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError(.transcriptStorage, "cannot read the uploads in \(folder.path)", underlying: error)
        }
    }

    /// Moves a damaged file of an upload aside, and its bytes with a record; notes the error.
    private mutating func keepDamaged(_ file: URL, reason: String) throws(ParleyError) {
        var kept = [try DamagedRecord.moveAside(file)]
        if file.pathExtension == "json" {
            let bytes = file.deletingPathExtension().appendingPathExtension("data")
            if FileManager.default.fileExists(atPath: bytes.path) { kept.append(try DamagedRecord.moveAside(bytes)) }
        }
        damaged.append(
            ParleyError(
                .clientRecordDamaged,
                "an unfinished upload could not be read (\(reason)); kept as "
                    + kept.map(\.path).joined(separator: " and ")))
    }

    /// Keeps an upload until ``remove(_:)``.
    mutating func add(_ entry: Entry) throws(ParleyError) {
        if let folder {
            let name = safeFileName(entry.id)
            let record: JSONValue = [
                "id": .string(entry.id), "fileName": .string(entry.fileName), "mimeType": .string(entry.mimeType),
            ]
            do {
                try entry.data.write(to: folder.appendingPathComponent(name + ".data"), options: .atomic)
                try Data(record.jsonString().utf8).write(
                    to: folder.appendingPathComponent(name + ".json"), options: .atomic)
            } catch {
                throw ParleyError(.transcriptStorage, "cannot keep the upload \(entry.fileName)", underlying: error)
            }
        }
        entries.append(entry)
    }

    /// Forgets an upload (finished, failed or cancelled).
    mutating func remove(_ id: String) {
        entries.removeAll { $0.id == id }
        guard let folder else { return }
        let name = safeFileName(id)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".json"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".data"))
    }

    /// Forgets every upload.
    mutating func removeAll() {
        for entry in entries { remove(entry.id) }
    }
}
