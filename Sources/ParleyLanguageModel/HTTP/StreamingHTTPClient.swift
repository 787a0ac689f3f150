import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ParleyCore

/// A minimal HTTP/1.1 client whose response body is read as it arrives.
///
/// Foundation's `URLSession` on Linux delivers a response body only whole, which a streamed answer cannot wait for;
/// this client is a swift-nio channel (NIOPosix, NIOHTTP1, and NIOSSL for https) with one request per connection.
/// AsyncHTTPClient would do the same with pooling and redirects, which a chat-completions call needs neither of,
/// at the cost of compiling it and swift-nio-http2 into every build of the server.
struct StreamingHTTPClient: Sendable {
    /// The event loops connections run on.
    var group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    /// How long connecting may take.
    var connectTimeout: TimeAmount = .seconds(10)

    /// A response: its head, then its body as it arrives.
    struct Response {
        /// The status line and headers.
        var head: HTTPResponseHead
        fileprivate var parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator

        /// The next piece of the body; nil at its end.
        /// - Throws: ``ParleyError`` with code ``ParleyError/Code/llmStreamCut`` when the connection ends before the
        ///   body does; `CancellationError` when the task is cancelled. It runs where swift-nio's iterator runs
        ///   (`@concurrent`), so the iterator never crosses to another executor.
        @concurrent
        mutating func next() async throws -> ByteBuffer? {
            // swift-nio hands out what it buffered even to a cancelled task: a body that never stops would be read on.
            try Task.checkCancellation()
            do {
                switch try await parts.next() {
                case .body(let buffer): return buffer
                case .end: return nil
                case .head, nil:
                    try Task.checkCancellation()
                    throw ParleyError(.llmStreamCut, "the connection ended before the response did")
                }
            } catch let error as ParleyError {
                throw error
            } catch {
                try Task.checkCancellation()
                throw ParleyError(.llmStreamCut, "the connection failed before the response ended: \(error)")
            }
        }

        /// The whole rest of the body, at most `limit` bytes.
        @concurrent
        mutating func collect(upTo limit: Int) async throws -> [UInt8] {
            var bytes: [UInt8] = []
            while var buffer = try await next() {
                guard bytes.count + buffer.readableBytes <= limit else {
                    throw ParleyError(.llmFailed, "the response is longer than \(limit) bytes")
                }
                bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
            return bytes
        }
    }

    /// Posts `body` to `endpoint` and hands the response to `handle`; the connection is closed when `handle`
    /// returns or throws, or when the task is cancelled (which ends the request on the server's side too).
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/llmUnreachable`` when the connection or the request
    ///   fails before a response head arrives; what `handle` throws.
    func post<Result: Sendable>(
        _ endpoint: HTTPEndpoint, headers: [(String, String)], body: [UInt8],
        handle: @concurrent (inout Response) async throws -> Result
    ) async throws -> Result {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group).connectTimeout(connectTimeout)
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if endpoint.tls {
                            let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                            let isAddress = (try? SocketAddress(ipAddress: endpoint.host, port: 0)) != nil
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : endpoint.host))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            try Task.checkCancellation()
            throw ParleyError(.llmUnreachable, "cannot connect to \(endpoint.hostHeader): \(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: endpoint.path)
            head.headers.add(name: "Host", value: endpoint.hostHeader)
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            var parts = inbound.makeAsyncIterator()
            let responseHead: HTTPResponseHead
            do {
                try await outbound.write(.head(head))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                try await outbound.write(.end(nil))
                guard case .head(let received) = try await parts.next() else {
                    try Task.checkCancellation()
                    throw ParleyError(.llmUnreachable, "\(endpoint.hostHeader) closed the connection without answering")
                }
                responseHead = received
            } catch let error as ParleyError {
                throw error
            } catch {
                try Task.checkCancellation()
                throw ParleyError(.llmUnreachable, "the request to \(endpoint.hostHeader) failed: \(error)")
            }
            var response = Response(head: responseHead, parts: parts)
            return try await handle(&response)
        }
    }
}
