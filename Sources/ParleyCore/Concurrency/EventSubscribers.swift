/// The subscribers of an actor's `events()`: each call gets a stream of every event from then on, in order, and
/// leaves when it stops iterating.
///
/// ```swift
/// private var subscribers = EventSubscribers<ChatEvent>()
///
/// public func events() -> AsyncStream<ChatEvent> {
///     subscribers.subscribe { id in Task { await self.unsubscribe(id) } }
/// }
/// private func unsubscribe(_ id: Int) { subscribers.remove(id) }
/// private func emit(_ event: ChatEvent) { subscribers.yield(event) }
/// ```
public struct EventSubscribers<Event: Sendable>: Sendable {
    private var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
    private var nextID = 0

    /// No subscribers.
    public init() {}

    /// A new subscriber's stream. `onTermination` gets its id when it stops iterating: hop to the owner and call
    /// ``remove(_:)``.
    public mutating func subscribe(onTermination: @escaping @Sendable (Int) -> Void) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        nextID += 1
        let id = nextID
        continuations[id] = continuation
        continuation.onTermination = { _ in onTermination(id) }
        return stream
    }

    /// Forgets a subscriber.
    public mutating func remove(_ id: Int) {
        continuations[id] = nil
    }

    /// Gives `event` to every subscriber.
    public func yield(_ event: Event) {
        for continuation in continuations.values { continuation.yield(event) }
    }
}
