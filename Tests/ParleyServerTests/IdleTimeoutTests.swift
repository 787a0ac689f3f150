import Foundation
import NIOCore
import Testing

@testable import ParleyServer

/// ``ServerConfiguration/idleTimeout``: after a connection's first request head, an HTTP connection that goes silent
/// (between requests, or halfway through a request body) is closed; an upgraded socket is left to its pings.
///
/// Before the first head the header timeout watches a connection instead (`HostileProcessTests`, the half-finished
/// upgrades); here it is set far beyond the bound the tests wait, so that whatever closes a connection within that
/// bound is the idle timeout.
@Suite("Idle timeout", .serialized, .timeLimit(.minutes(1)))
struct IdleTimeoutTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    /// How long a test waits for the server to close a silent connection: many idle timeouts, far below the header
    /// timeout.
    static let bound: Duration = .seconds(20)

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.idleTimeout = .seconds(1)
        configuration.headerTimeout = .seconds(600)
    }

    /// A kept-alive connection that sends nothing after its first request is closed, with nothing more written.
    @Test func aKeptAliveConnectionThatSendsNothingMoreIsClosed() async throws {
        try await withServer(channels: [Self.open], configure: Self.configure) { server in
            let port = server.port
            let (reply, after) = try await withTimeout(Self.bound, "the server closing an idle kept-alive connection") {
                try await RawHTTP.withConnection(port: port) { connection in
                    try await connection.send(
                        RawHTTP.head(method: "GET", target: "/health", port: port, headers: [], bodyLength: nil))
                    let reply = try await connection.reply()
                    return (reply, try await connection.untilClosed())
                }
            }
            #expect(reply.status == 200, "\(reply)")
            // The response itself kept the connection open: the close came later, from the server's idle timer.
            #expect(reply.header("connection")?.lowercased() != "close", "\(reply)")
            #expect(after.isEmpty, "\(String(decoding: after, as: UTF8.self))")
        }
    }

    /// An upload that stops halfway through its body is closed unanswered: the header timeout no longer watches a
    /// connection once its head arrived, so without the idle timeout it would hold the upload (and its place in the
    /// upload limits) for as long as the client likes.
    @Test func anUploadThatStopsHalfwayIsClosed() async throws {
        try await withServer(channels: [Self.open], configure: Self.configure) { server in
            let port = server.port
            let body = UploadFixture.multipart(
                fileName: "half.png", type: "image/png", content: UploadFixture.png(8192))
            let received = try await withTimeout(Self.bound, "the server closing a half-sent upload") {
                try await RawHTTP.withConnection(port: port) { connection in
                    try await connection.send(
                        RawHTTP.head(
                            method: "POST", target: "/chat/v1/attachments?channelId=open&userId=u1", port: port,
                            headers: [
                                ("Content-Type", "multipart/form-data; boundary=\(UploadFixture.boundary)"),
                                ("x-oda-meta-file-size", "8192"),
                            ], bodyLength: body.count))
                    try await connection.send(Array(body.prefix(body.count / 2)))
                    return try await connection.untilClosed()
                }
            }
            // No answer: the server was still reading the body (a refusal would have answered before the close).
            #expect(received.isEmpty, "\(String(decoding: received, as: UTF8.self))")
            // The server goes on, and the same user uploads in full.
            let upload = try await UploadFixture.upload(
                port: port, fileName: "whole.png", type: "image/png", content: UploadFixture.png(8192))
            #expect(upload.status == 200, "\(upload)")
        }
    }

    /// An upgraded socket is not an HTTP connection any more: one that only answers pings stays open through many
    /// idle timeouts.
    @Test func anUpgradedSocketIsLeftToItsPings() async throws {
        try await withServer(
            channels: [Self.echo],
            configure: {
                Self.configure(&$0)
                $0.webSocketPingInterval = .milliseconds(500)
            }
        ) { server in
            let (connection, peer) = try await PingPeer.connect(port: server.port, answering: true)
            // Six pings are three seconds, three idle timeouts; the stream ends early if the server closes the socket.
            var pings = 0
            for await _ in peer.pings {
                pings += 1
                if pings == 6 { break }
            }
            #expect(pings == 6)
            #expect(connection.channel.isActive)
            try await connection.channel.close()
        }
    }
}

extension RawHTTP.Connection {
    /// Reads until the server closes the connection; the bytes that arrived meanwhile (after any reply read before).
    mutating func untilClosed() async throws -> [UInt8] {
        var bytes = buffered
        buffered = []
        while let chunk = try await inbound.next(isolation: #isolation) {
            bytes += chunk.readableBytesView
        }
        return bytes
    }
}
