import Foundation

/// The uploads not finished yet, for one channel and user: in memory, or with a folder on disk, so that they survive
/// the app's restart.
///
/// On disk each upload is two files in `uploads-<channel>-<user>/`: `<id>.data` (the bytes, written first) and
/// `<id>.json` (`{"id","fileName","mimeType"}`, written atomically once the bytes are there). Loading keeps the
/// uploads that have both and deletes the rest (a crash between the two writes).
struct UploadStore: Sendable {
    struct Entry: Sendable {
        var id: String
        var fileName: String
        var mimeType: String
        var data: Data
    }

    private(set) var entries: [Entry] = []
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
                guard let json = try? JSONValue(parsing: Data(contentsOf: record)),
                    let id = json["id"]?.stringValue, let fileName = json["fileName"]?.stringValue,
                    let mimeType = json["mimeType"]?.stringValue, let data = try? Data(contentsOf: bytes)
                else {
                    try? FileManager.default.removeItem(at: record)
                    try? FileManager.default.removeItem(at: bytes)
                    continue
                }
                entries.append(Entry(id: id, fileName: fileName, mimeType: mimeType, data: data))
            }
            for name in names where name.hasSuffix(".data") {
                let id = String(name.dropLast(5))
                if !entries.contains(where: { safeFileName($0.id) == id }) {
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
        } catch {
            throw ParleyError(.transcriptStorage, "cannot read the uploads in \(folder.path)", underlying: error)
        }
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
