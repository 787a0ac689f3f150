import AsyncHTTPClient
import EchoServer
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import ParleyCore

/// The baseline of `llm.streams`: a raw pass-through proxy, a WebSocket server of raw-echo's make
/// (`RawEchoServer.serve`) in front of a chat-completions endpoint. For each text frame a client sends, one streamed
/// request to the endpoint with the frame as the user's message; each chunk's content goes to the client as a text
/// frame as it comes, then one frame ``done``. Nothing is stored, and nothing of the answer is parsed beyond finding
/// each chunk's content.
enum ModelProxy {
    /// The frame that ends an answer.
    static let done = "[DONE]"

    /// Serves `ws://127.0.0.1:PORT/proxy` in front of the endpoint whose API base is `endpoint`, for ever.
    static func run(endpoint: String) async throws {
        let completions = endpoint + "/chat/completions"
        // AsyncHTTPClient keeps at most 8 connections a host and queues the other requests: as many as there are
        // streams here. Each answer closes its connection (`Connection: close`), as with Parley's own client.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 100_000)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws("/proxy") { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let body: JSONValue = [
                    "model": "bench", "stream": true, "messages": [["role": "user", "content": .string(text)]],
                ]
                var request = HTTPClientRequest(url: completions)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Accept", value: "text/event-stream")
                request.body = .bytes(ByteBuffer(string: body.jsonString()))
                let response = try await client.execute(request, timeout: .seconds(60))
                guard response.status == .ok else {
                    try await outbound.write(.text("[HTTP \(response.status.code)]"))
                    continue
                }
                // Events end with a blank line; one may come split over two buffers.
                var pending: [UInt8] = []
                for try await buffer in response.body {
                    pending += buffer.readableBytesView
                    var start = pending.startIndex
                    while let end = eventEnd(in: pending, from: start) {
                        if let piece = content(of: pending[start..<end]) { try await outbound.write(.text(piece)) }
                        start = end + 1
                    }
                    pending.removeFirst(start)
                }
                try await outbound.write(.text(done))
            }
        }
        try await RawEchoServer.serve(sockets) { port in
            FileHandle.standardOutput.write(Data("model proxy listening on http://127.0.0.1:\(port)\n".utf8))
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    /// The index of the second `\n` of the first blank line at or after `start`.
    static func eventEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n"), bytes[index - 1] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    /// The text of an event's `"content":"…"`, as the endpoint writes it; nil for an event without content (the
    /// finish chunk, `[DONE]`).
    static func content(of event: ArraySlice<UInt8>) -> String? {
        let key = Array(#""content":""#.utf8)
        guard let found = event.indices.first(where: { event[$0...].starts(with: key) }) else { return nil }
        var end = found + key.count
        var escaped = false
        while end < event.endIndex, event[end] != UInt8(ascii: "\"") {
            if event[end] == UInt8(ascii: "\\") {
                escaped = true
                end += 1
            }
            end += 1
        }
        guard end < event.endIndex else { return nil }
        let text = event[(found + key.count)..<end]
        guard escaped else { return String(decoding: text, as: UTF8.self) }
        // Escapes are rare: the string as JSON reads them.
        return try? JSONValue(parsing: [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]).stringValue
    }
}

let arguments = CommandLine.arguments
guard let flag = arguments.firstIndex(of: "--endpoint"), flag + 1 < arguments.count else {
    FileHandle.standardError.write(Data("usage: model-proxy --endpoint URL\n".utf8))
    exit(2)
}
try await ModelProxy.run(endpoint: arguments[flag + 1])
