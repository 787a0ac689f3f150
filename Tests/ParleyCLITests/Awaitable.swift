/// An actor whose state tests wait on: a wait is woken by the change that meets its condition (the actor calls
/// ``changed()`` after each change), or fails at its deadline. Waits are told, never polled.
protocol Awaitable: Actor {
    /// What a condition looks at.
    associatedtype Snapshot: Sendable
    /// The state now.
    var snapshot: Snapshot { get }
    /// The waits in progress; the conforming actor only stores them.
    var waiters: Waiters<Snapshot> { get set }
}

/// The waits of an ``Awaitable`` actor.
struct Waiters<Snapshot: Sendable> {
    fileprivate var entries: [Int: (condition: @Sendable (Snapshot) -> Bool, met: CheckedContinuation<Bool, Never>)] =
        [:]
    fileprivate var next = 0
}

extension Awaitable {
    /// Wakes the waits whose condition now holds; call after each change of the state.
    func changed() {
        let now = snapshot
        for (id, entry) in waiters.entries where entry.condition(now) {
            waiters.entries[id] = nil
            entry.met.resume(returning: true)
        }
    }

    /// Returns once `condition` holds; throws when `timeout` passes first.
    func wait(
        _ what: String, within timeout: Duration, until condition: @escaping @Sendable (Snapshot) -> Bool
    ) async throws {
        guard !condition(snapshot) else { return }
        let id = waiters.next
        waiters.next += 1
        let alarm = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.expire(id)
        }
        defer { alarm.cancel() }
        let met = await withCheckedContinuation { waiters.entries[id] = (condition, $0) }
        guard met else {
            throw ServerProcess.Failure(description: "not \(what) within \(timeout): \(snapshot)")
        }
    }

    private func expire(_ id: Int) {
        waiters.entries.removeValue(forKey: id)?.met.resume(returning: false)
    }
}
