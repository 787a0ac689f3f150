import NIOConcurrencyHelpers

/// At most `limit` requests at once; more wait their turn, first come first served. A waiting task that is
/// cancelled stops waiting.
actor RequestLimiter {
    /// How many requests may run at once.
    let limit: Int
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextId: UInt64 = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `body`, on the caller's executor, once a request may start.
    nonisolated func run<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async throws {
        if running < limit {
            running += 1
            return
        }
        try Task.checkCancellation()
        let id = nextId
        nextId += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}

/// The request limiters of the endpoints a process talks to, one per endpoint, shared by every skill that names
/// it: a channel's ``LanguageModelConfiguration/maxConcurrentRequests`` bounds the endpoint for all (the first
/// skill created for an endpoint sets its bound).
public final class EndpointLimits: Sendable {
    private let limiters = NIOLockedValueBox<[String: RequestLimiter]>([:])

    /// The limits of this process.
    public static let shared = EndpointLimits()

    /// Creates limits of its own, for a test.
    public init() {}

    func limiter(for endpoint: HTTPEndpoint, limit: Int) -> RequestLimiter {
        limiters.withLockedValue { limiters in
            if let limiter = limiters[endpoint.description] { return limiter }
            let limiter = RequestLimiter(limit: limit)
            limiters[endpoint.description] = limiter
            return limiter
        }
    }
}
