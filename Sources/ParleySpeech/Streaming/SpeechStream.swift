public import ParleyCore

/// An asynchronous sequence that fails only with a ``ParleyError``: how audio sources, recognition sessions and
/// synthesisers hand out what they produce.
///
/// Iterate it once. Ending the iteration early — leaving the loop, or cancelling the iterating task — calls the
/// producer's termination handler, which is how a synthesiser's program is killed and a microphone closed.
public struct SpeechStream<Element: Sendable>: AsyncSequence, Sendable {
    /// The only error the stream throws.
    public typealias Failure = ParleyError

    private let base: AsyncThrowingStream<Element, any Error>

    /// The producing side of a ``SpeechStream``.
    public struct Continuation: Sendable {
        fileprivate let base: AsyncThrowingStream<Element, any Error>.Continuation

        /// Hands out `element`.
        public func yield(_ element: Element) {
            base.yield(element)
        }

        /// Ends the stream; with an error, the iteration throws it after the elements before it.
        public func finish(throwing error: ParleyError? = nil) {
            base.finish(throwing: error)
        }

        /// Called once when the stream ends: finished by the producer, or abandoned or cancelled by the consumer.
        public func onTermination(_ handler: @escaping @Sendable () -> Void) {
            base.onTermination = { _ in handler() }
        }
    }

    /// A new stream and its continuation; elements the consumer has not taken yet are all kept.
    public static func makeStream() -> (stream: Self, continuation: Continuation) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: (any Error).self)
        return (Self(base: stream), Continuation(base: continuation))
    }

    /// A stream of `elements` that then ends (or fails with `error`).
    public static func of(_ elements: [Element], failingWith error: ParleyError? = nil) -> Self {
        let (stream, continuation) = makeStream()
        for element in elements { continuation.yield(element) }
        continuation.finish(throwing: error)
        return stream
    }

    private init(base: AsyncThrowingStream<Element, any Error>) {
        self.base = base
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }

    /// The iterator of a ``SpeechStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        fileprivate init(base: AsyncThrowingStream<Element, any Error>.AsyncIterator) {
            self.base = base
        }

        /// The next element, or `nil` at the end.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ParleyError) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch let error as ParleyError {
                throw error
            } catch {
                throw ParleyError(.speechEngineFailed, "\(error)", underlying: error)
            }
        }

        /// The next element, or `nil` at the end.
        public mutating func next() async throws(ParleyError) -> Element? {
            try await next(isolation: nil)
        }
    }
}

extension SpeechStream {
    /// Every element, collected until the stream ends.
    public func collect() async throws(ParleyError) -> [Element] {
        var elements: [Element] = []
        var iterator = makeAsyncIterator()
        while let element = try await iterator.next() { elements.append(element) }
        return elements
    }
}
