import Foundation

/// What the server knows of a stored attachment, kept beside it in `DATA/attachments/ID/.metadata.json`.
///
/// Version 2 (written since uploads are sniffed) records the owner, size, sniffed type and protection. Files
/// stored before carry only `channelId` and the type the client declared; that type is untrusted
/// (``isLegacy``) and downloads sniff the file again.
struct AttachmentMetadata: Equatable, Sendable {
    /// The channel the attachment was uploaded on.
    var channelId: String
    /// The user who uploaded it; nil for files stored before version 2.
    var userId: String?
    /// The stored type: sniffed by the server (version 2), or declared by the client (legacy).
    var type: String
    /// The file's size in bytes; nil for files stored before version 2.
    var size: Int?
    /// The stored file name; nil for files stored before version 2.
    var fileName: String?
    /// Whether downloads need the channel's token (`x-oda-meta-file-isProtected: True` on an authenticated
    /// channel); nil for files stored before version 2.
    var protected: Bool?
    /// 2, or 1 for files stored before.
    var version: Int

    /// Whether the record predates sniffing, so that its type came from the client.
    var isLegacy: Bool { version < 2 }

    /// The version 2 record of an attachment being stored (a missing user is recorded as "", an unknown
    /// protection as unprotected).
    init(_ record: AttachmentRecord) {
        channelId = record.channelId
        userId = record.userId ?? ""
        type = record.type
        size = record.size
        fileName = record.fileName
        protected = record.protected ?? false
        version = 2
    }

    /// Reads a record; nil when it is not one.
    init?(json: JSONValue) {
        guard let channelId = json["channelId"]?.stringValue else { return nil }
        self.channelId = channelId
        userId = json["userId"]?.stringValue
        type = json["type"]?.stringValue ?? "application/octet-stream"
        // `intValue` is nil for a number that is not an exact `Int` (`1e300`): the file is outside data.
        size = json["size"]?.intValue.flatMap { $0 >= 0 ? $0 : nil }
        fileName = json["fileName"]?.stringValue
        protected = json["protected"]?.boolValue
        version = json["version"]?.intValue == 2 ? 2 : 1
    }

    /// The file form.
    var jsonValue: JSONValue {
        var object: JSONObject = [
            "version": .number(Double(version)), "channelId": .string(channelId), "type": .string(type),
        ]
        if let userId { object["userId"] = .string(userId) }
        if let size { object["size"] = .number(Double(size)) }
        if let fileName { object["fileName"] = .string(fileName) }
        if let protected { object["protected"] = .bool(protected) }
        return .object(object)
    }
}
