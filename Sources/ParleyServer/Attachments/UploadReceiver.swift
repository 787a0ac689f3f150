import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore
import _NIOFileSystem

/// Reads a `multipart/form-data` upload as it arrives and writes the part named `attachment` to a file in
/// `.uploads/`, never holding more than a few hundred kilobytes of it in memory.
///
/// Each chunk of the request body goes through multipart-kit's `MultipartParser`; the part's first bytes decide
/// its type (``MediaSniffer``) before anything is written, so that a refused type costs no disk. The receiver stops
/// with a coded error as soon as a limit is passed — the file size (`413 attachment.tooLarge`), the user's quota
/// (`413 attachment.quotaExceeded`), the name's length (`400 attachment.nameTooLong`) — and deletes what it wrote.
struct UploadReceiver {
    /// The largest file accepted, in bytes.
    var maximumSize: Int
    /// How many bytes the user may still store on the channel.
    var quotaLeft: Int
    /// Told when the receiver waits for the client and what each chunk of the body brings, for the minimum rate
    /// (``UploadProgress``); nil when nothing measures it.
    var progress: UploadProgress?
    /// Bytes of the body that are not the file (boundaries, part headers, other parts) the receiver tolerates.
    static let overheadAllowance = 64 * 1024
    /// How much of the file is gathered before it is written.
    static let writeThreshold = 256 * 1024

    /// The attachment part as far as its headers tell.
    struct PartHeaders {
        /// The name the client gave (decoded), if any.
        var givenName: String?
        /// The part's `Content-Type`, if any.
        var declaredType: String?
    }

    /// A received file, complete, in `.uploads/`.
    struct Received {
        /// Where the file is.
        var path: FilePath
        /// Its size in bytes.
        var size: Int
        /// The name the client gave, if any.
        var givenName: String?
        /// The type decided by `accept`.
        var type: String
    }

    /// Reads `body` and stores the attachment part in `store`'s uploads folder.
    /// - Parameters:
    ///   - body: The request body.
    ///   - boundary: The multipart boundary (1 to 70 characters).
    ///   - store: Where to write.
    ///   - checkHeaders: Called once the part's headers are read; throws to refuse (a name too long).
    ///   - accept: Called once with the sniffed type; returns the type to store, or throws to refuse.
    func receive(
        _ body: RequestBody, boundary: String, into store: AttachmentFolder,
        checkHeaders: (PartHeaders) throws(CodedHTTPError) -> Void,
        accept: (_ sniffed: String, PartHeaders) throws(CodedHTTPError) -> String
    ) async throws -> Received {
        let parser = MultipartParser(boundary: boundary)
        let state = ParseState()
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { chunk in state.body(&chunk) }
        parser.onPartComplete = { state.partComplete() }

        var file: (path: FilePath, handle: UploadFile)?
        var written: Int64 = 0
        var type: String?
        var headersChecked = false
        do {
            var total = 0
            var chunks = body.makeAsyncIterator()
            while true {
                progress?.waitingForClient()
                let next = try await chunks.next()
                progress?.received(next?.readableBytes ?? 0)
                guard let chunk = next else { break }
                total += chunk.readableBytes
                guard total <= maximumSize + Self.overheadAllowance else { throw tooLarge() }
                do {
                    try parser.execute(chunk)
                } catch {
                    throw CodedHTTPError(
                        .badRequest, .attachmentMalformed, "the body is not well-formed multipart/form-data")
                }
                if let failure = state.failure { throw failure }
                if let part = state.attachment, !headersChecked {
                    headersChecked = true
                    try checkHeaders(part)
                }
                guard state.attachmentBytes <= maximumSize else { throw tooLarge() }
                guard state.attachmentBytes <= quotaLeft else { throw quotaExceeded() }
                guard total - state.attachmentBytes <= Self.overheadAllowance else {
                    throw CodedHTTPError(
                        .badRequest, .attachmentMalformed,
                        "the body holds more than the part named \"attachment\" and its headers")
                }
                if type == nil, let part = state.attachment,
                    state.head.count >= MediaSniffer.headLength || state.attachmentFinished
                {
                    if state.attachmentBytes == 0 { throw empty() }
                    type = try accept(MediaSniffer.sniff(state.head, complete: state.attachmentFinished), part)
                    file = try await store.newUploadFile()
                }
                if let open = file, state.pending.readableBytes >= Self.writeThreshold || state.attachmentFinished {
                    written += try await write(&state.pending, to: open.handle, at: written)
                }
                // When the body arrives faster than it is parsed, the next chunk is there at once and this task
                // would keep its thread from chunk to chunk; let the other uploads (and, where there is no upload
                // thread, the chats) queued behind it run first.
                await Task.yield()
            }
            guard let part = state.attachment, state.attachmentFinished else {
                throw CodedHTTPError(
                    .badRequest, .attachmentMalformed, "the body ends before a complete part named \"attachment\"")
            }
            if state.attachmentBytes == 0 { throw empty() }
            if type == nil {
                type = try accept(MediaSniffer.sniff(state.head, complete: true), part)
                file = try await store.newUploadFile()
            }
            guard let open = file, let type else { throw CodedHTTPError(.internalServerError, .internalError, "") }
            written += try await write(&state.pending, to: open.handle, at: written)
            await open.handle.close()
            file = nil
            return Received(path: open.path, size: Int(written), givenName: part.givenName, type: type)
        } catch {
            if let file {
                await file.handle.close()
                await store.discard(file.path)
            }
            throw error
        }
    }

    private func write(_ pending: inout ByteBuffer, to file: UploadFile, at offset: Int64) async throws -> Int64 {
        let count = pending.readableBytes
        guard count > 0 else { return 0 }
        try await file.write(pending, at: offset)
        // A new buffer: the one written may still be referenced by the write until it returns.
        pending = ByteBuffer()
        return Int64(count)
    }

    private func tooLarge() -> CodedHTTPError {
        CodedHTTPError(.contentTooLarge, .attachmentTooLarge, "attachments are limited to \(maximumSize) bytes")
    }

    private func quotaExceeded() -> CodedHTTPError {
        CodedHTTPError(
            .contentTooLarge, .attachmentQuotaExceeded,
            "this file would exceed the user's attachment storage on this channel")
    }

    private func empty() -> CodedHTTPError { CodedHTTPError(.badRequest, .attachmentEmpty, "the file is empty") }
}

/// What the parser's callbacks have seen so far: the attachment part's headers, its first bytes (for sniffing)
/// and the bytes not yet written.
private final class ParseState {
    /// Headers of the part being read, names lowercased.
    var headers: [(String, String)] = []
    /// Whether the current part is the attachment; nil until its headers end.
    var currentIsAttachment: Bool?
    var attachment: UploadReceiver.PartHeaders?
    var attachmentFinished = false
    var attachmentBytes = 0
    /// The file's first bytes, up to ``MediaSniffer/headLength``.
    var head: [UInt8] = []
    /// File bytes not yet written.
    var pending = ByteBuffer()
    var failure: CodedHTTPError?

    func header(_ name: String, _ value: String) {
        headers.append((name.lowercased(), value))
        if headers.count > 32 {
            failure = CodedHTTPError(.badRequest, .attachmentMalformed, "a part has more than 32 headers")
        }
    }

    /// Decides, once a part's headers have ended, whether it is the (first) part named `attachment`.
    private func decide() -> Bool {
        if let currentIsAttachment { return currentIsAttachment }
        let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
        let parameters = HeaderParameters(disposition)
        let isAttachment = attachment == nil && parameters["name"] == "attachment"
        if isAttachment {
            attachment = UploadReceiver.PartHeaders(
                givenName: AttachmentName.given(inDisposition: disposition),
                declaredType: headers.first { $0.0 == "content-type" }?.1)
        }
        currentIsAttachment = isAttachment
        return isAttachment
    }

    func body(_ chunk: inout ByteBuffer) {
        guard decide(), !attachmentFinished else { return }
        attachmentBytes += chunk.readableBytes
        if head.count < MediaSniffer.headLength {
            head += chunk.readableBytesView.prefix(MediaSniffer.headLength - head.count)
        }
        pending.writeBuffer(&chunk)
    }

    func partComplete() {
        if decide() { attachmentFinished = true }
        headers = []
        currentIsAttachment = nil
    }
}
