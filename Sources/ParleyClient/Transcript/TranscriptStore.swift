public import Foundation

/// The messages of one conversation, in order, kept in memory and — when given a folder — in a JSON Lines
/// file (`transcript-<channel>-<user>.jsonl`, one ``ChatMessage`` per line) so that they survive a relaunch.
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
        let name = "transcript-\(Self.safe(channelId))-\(Self.safe(userId)).jsonl"
        let file = folder.appendingPathComponent(name)
        self.file = file
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.fileExists(atPath: file.path) else { return }
            let data = try Data(contentsOf: file)
            messages = data.split(separator: UInt8(ascii: "\n")).compactMap { try? ChatMessage(decoding: $0) }
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot read the transcript \(file.path): \(error)", underlying: error)
        }
    }

    /// Adds a message at the end.
    public mutating func append(_ message: ChatMessage) throws(ParleyError) {
        messages.append(message)
        guard let file else { return }
        var line = message.jsonBytes()
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

    /// A file-name-safe form of an id.
    private static func safe(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}
