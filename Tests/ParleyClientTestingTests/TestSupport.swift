import Foundation
import ParleyClientTesting
import Testing

/// Reads a client's events in order, skipping the ones a test does not ask for.
struct EventReader {
    var iterator: AsyncStream<ChatEvent>.Iterator

    init(_ stream: AsyncStream<ChatEvent>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next event `match` accepts; events before it are skipped. Fails the test when the stream ends.
    mutating func next<Value>(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ match: (ChatEvent) -> Value?
    ) async throws -> Value {
        while let event = await iterator.next(isolation: #isolation) {
            if let value = match(event) { return value }
        }
        Issue.record("the events ended before \(what)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The text of the next message received from the skill.
    mutating func reply(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
        try await next("a message", sourceLocation: sourceLocation) {
            if case .messageReceived(let message) = $0 { message.payload.text } else { nil }
        }
    }

    /// The next status change, whatever it is.
    mutating func status(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ConnectionStatus {
        try await next("a status change", sourceLocation: sourceLocation) {
            if case .statusChanged(let status) = $0 { status } else { nil }
        }
    }

    /// The next error.
    mutating func error(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ParleyError {
        try await next("an error", sourceLocation: sourceLocation) {
            if case .error(let error) = $0 { error } else { nil }
        }
    }
}

extension AsyncSequence where Element: Sendable, Failure == Never {
    /// Every element until the sequence ends.
    func collect() async -> [Element] {
        var elements: [Element] = []
        for await element in self { elements.append(element) }
        return elements
    }
}
