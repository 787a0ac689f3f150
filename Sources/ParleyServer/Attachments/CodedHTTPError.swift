import HTTPTypes
import Hummingbird
import NIOCore
import ParleyCore

/// An HTTP error answer with a stable code: the status, and the body `{"error":{"code":…,"message":…}}`.
///
/// Hummingbird turns a thrown `HTTPResponseError` into its response; any other error becomes an empty `500`.
/// Every refusal of the attachment endpoints (and of the CORS preflights, ``CORS``) is one of these, so that a
/// client always gets a status it can act on and a code it can match, never an empty `500`.
struct CodedHTTPError: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    let status: HTTPResponse.Status
    /// The error: its stable code and a sentence for developers.
    let error: ParleyError
    /// Extra response headers (`Retry-After`, CORS headers).
    var headers: HTTPFields

    /// Creates an error answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - code: The stable code.
    ///   - message: A sentence for developers; it must not reveal more than is safe to tell.
    ///   - headers: Extra response headers.
    init(_ status: HTTPResponse.Status, _ code: ParleyError.Code, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.error = ParleyError(code, message)
        self.headers = headers
    }

    /// An error answer carrying `error`'s code and message.
    init(_ status: HTTPResponse.Status, _ error: ParleyError, headers: HTTPFields = [:]) {
        self.init(status, error.code, error.message, headers: headers)
    }

    /// The body: `{"error":{"code":…,"message":…}}`.
    var body: JSONValue { ["error": ["code": .string(error.code.rawValue), "message": .string(error.message)]] }

    /// `HTTP 413 attachment.tooLarge: …`.
    var description: String { "HTTP \(status.code) \(error.code): \(error.message)" }

    /// The same error with `extra` headers added (CORS headers once the origin is known).
    func adding(_ extra: HTTPFields) -> CodedHTTPError {
        var copy = self
        copy.headers.append(contentsOf: extra)
        return copy
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body.jsonBytes())))
    }
}
