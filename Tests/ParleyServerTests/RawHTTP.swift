import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import ParleyServer

/// A bare HTTP/1.1 client over a TCP socket, for tests that need what URLSession hides: exact request headers
/// (`Origin`, `OPTIONS`), every response header, and a body sent in pieces with pauses decided by the test.
enum RawHTTP {
    /// A response: status, headers (names lowercased) and body.
    struct Reply: Sendable, CustomStringConvertible {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        /// The first value of header `name`.
        func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        /// The body as JSON, if it is.
        var json: JSONValue? { try? JSONValue(parsing: body) }

        /// The code of a coded error body `{"error":{"code":…}}`.
        var errorCode: String? { json?["error"]?["code"]?.stringValue }

        var description: String {
            "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }) \(String(decoding: body.prefix(300), as: UTF8.self))"
        }
    }

    /// One connection: send bytes, read replies.
    struct Connection {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var buffered: [UInt8] = []

        mutating func send(_ bytes: [UInt8]) async throws {
            try await outbound.write(ByteBuffer(bytes: bytes))
        }

        /// Reads one complete response (Content-Length or chunked body).
        mutating func reply() async throws -> Reply {
            let separator = Array("\r\n\r\n".utf8)
            var headEnd: Int?
            while headEnd == nil {
                headEnd = Self.find(separator, in: buffered)
                if headEnd == nil { try await fill() }
            }
            let head = String(decoding: buffered[..<headEnd!], as: UTF8.self)
            buffered.removeFirst(headEnd! + separator.count)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (
                    line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                )
            }
            var reply = Reply(status: status, headers: headers, body: [])
            if reply.header("transfer-encoding")?.lowercased() == "chunked" {
                while true {
                    var lineEnd = Self.find(Array("\r\n".utf8), in: buffered)
                    while lineEnd == nil {
                        try await fill()
                        lineEnd = Self.find(Array("\r\n".utf8), in: buffered)
                    }
                    let sizeText = String(decoding: buffered[..<lineEnd!], as: UTF8.self)
                    let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) ?? 0
                    buffered.removeFirst(lineEnd! + 2)
                    while buffered.count < size + 2 { try await fill() }
                    reply.body += buffered[..<size]
                    buffered.removeFirst(size + 2)
                    if size == 0 { break }
                }
            } else {
                let length = reply.header("content-length").flatMap { Int($0) } ?? 0
                while buffered.count < length { try await fill() }
                reply.body = Array(buffered[..<length])
                buffered.removeFirst(length)
            }
            return reply
        }

        private mutating func fill() async throws {
            guard let chunk = try await inbound.next(isolation: #isolation) else {
                throw TimeoutError(description: "the server closed the connection before a complete reply")
            }
            buffered += chunk.readableBytesView
        }

        private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            for start in 0...(haystack.count - needle.count)
            where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                return start
            }
            return nil
        }
    }

    /// Opens a connection to `127.0.0.1:port` for the duration of `body`.
    static func withConnection<Result: Sendable>(
        port: Int, _ body: (inout Connection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = Connection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&connection)
        }
    }

    /// The bytes of a request head.
    static func head(method: String, target: String, port: Int, headers: [(String, String)], bodyLength: Int?)
        -> [UInt8]
    {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let bodyLength { text += "Content-Length: \(bodyLength)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Sends one request and reads its reply.
    static func request(
        port: Int, method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> Reply {
        try await withTimeout(.seconds(60), "\(method) \(target)") {
            try await withConnection(port: port) { connection in
                try await connection.send(
                    head(method: method, target: target, port: port, headers: headers, bodyLength: body?.count))
                if let body { try await connection.send(body) }
                return try await connection.reply()
            }
        }
    }
}

/// Multipart bodies and file contents for upload tests.
enum UploadFixture {
    static let boundary = "parley-test-boundary-7d1f"

    /// A `multipart/form-data` body with one part named `name`.
    static func multipart(
        name: String = "attachment", fileName: String?, type: String?, content: [UInt8],
        disposition: String? = nil
    ) -> [UInt8] {
        var head = "--\(boundary)\r\nContent-Disposition: "
        if let disposition {
            head += disposition
        } else {
            head += "form-data; name=\"\(name)\""
            if let fileName { head += "; filename=\"\(fileName)\"" }
        }
        head += "\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + content + Array("\r\n--\(boundary)--\r\n".utf8)
    }

    /// Deterministic filler bytes, mostly not text.
    static func filler(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    static func png(_ size: Int = 1024) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return signature + filler(max(0, size - signature.count))
    }

    static func mp4(_ size: Int) -> [UInt8] {
        let box: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)
        return box + filler(max(0, size - box.count))
    }

    static func mp3(_ size: Int = 2048) -> [UInt8] { Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0] + filler(size - 10) }
    static func pdf(_ size: Int = 2048) -> [UInt8] { Array("%PDF-1.7\n".utf8) + filler(size - 9) }
    static func zip(_ size: Int = 2048) -> [UInt8] { [0x50, 0x4B, 0x03, 0x04] + filler(size - 4) }
    static func text(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// An upload to `/chat/v1/attachments`; returns the server's reply.
    static func upload(
        port: Int, channel: String = "open", user: String? = "u1", fileName: String? = "file", type: String?,
        content: [UInt8], headers: [(String, String)] = [], declareSize: Bool = true
    ) async throws -> RawHTTP.Reply {
        var target = "/chat/v1/attachments?channelId=\(channel)"
        if let user { target += "&userId=\(user)" }
        var allHeaders = [("Content-Type", "multipart/form-data; boundary=\(boundary)")]
        if declareSize { allHeaders.append(("x-oda-meta-file-size", String(content.count))) }
        return try await RawHTTP.request(
            port: port, method: "POST", target, headers: allHeaders + headers,
            body: multipart(fileName: fileName, type: type, content: content))
    }

    /// The path of a download URL the server answered with.
    static func downloadPath(_ reply: RawHTTP.Reply, port: Int) throws -> String {
        let url = try #require(reply.json?["url"]?.stringValue, "no url in \(reply)")
        let prefix = "http://127.0.0.1:\(port)"
        #expect(url.hasPrefix(prefix))
        return String(url.dropFirst(prefix.count))
    }
}
