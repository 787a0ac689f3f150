import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /health/live` and `GET /health/ready`, for a load balancer or an orchestrator (docs/server.md, "Health").
///
/// - Live: the process answers HTTP; `200 {"status":"live"}`. Restart a node that stops answering it.
/// - Ready: the node can serve chats now, because its store answers (``ConversationStore/checkReadiness()``: the
///   PostgreSQL store asks its database, the SQLite and in-memory stores are ready while the process runs);
///   `200 {"status":"ready"}`, or `503 {"status":"unready","error":{"code":…,"message":…}}`. Send no new users
///   to an unready node; it becomes ready again by itself when its database is back.
///
/// A draining node (a graceful stop, ``ParleyApplication``) is unready with `server.draining`.
///
/// `GET /health` (`ok`) stays as before.
struct HealthRoutes {
    let store: any ConversationStore
    /// A draining node is unready: it takes no new users.
    let drain: DrainSwitch

    func register(on router: Router<ChatRequestContext>) {
        router.get("/health/live") { _, _ in Self.response(.ok, ["status": "live"]) }
        router.get("/health/ready") { _, _ in
            do {
                if drain.isDraining { throw DrainSwitch.error }
                try await store.checkReadiness()
                return Self.response(.ok, ["status": "ready"])
            } catch {
                let failure =
                    (error as? ParleyError) ?? ParleyError(.storeUnavailable, "\(error)", underlying: error)
                return Self.response(
                    .serviceUnavailable,
                    [
                        "status": "unready",
                        "error": ["code": .string(failure.code.rawValue), "message": .string(failure.message)],
                    ])
            }
        }
    }

    private static func response(_ status: HTTPResponse.Status, _ body: JSONObject) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONValue.object(body).jsonBytes())))
    }
}
