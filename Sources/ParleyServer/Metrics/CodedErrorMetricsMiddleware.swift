import Hummingbird

/// Counts every ``CodedHTTPError`` a route throws (``ServerMetrics/errors``, `via="http"`) and passes it on
/// unchanged. The router's first middleware, so that it sees the other middlewares' refusals too.
struct CodedErrorMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    // `@concurrent`, as Hummingbird's protocol (built without NonisolatedNonsendingByDefault) has it.
    @concurrent func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as CodedHTTPError {
            metrics.errorSent(error.error.code, via: .http)
            throw error
        }
    }
}
