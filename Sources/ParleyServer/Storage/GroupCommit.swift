import GRDB
import NIOConcurrencyHelpers

/// Group commit: writes asked for while a transaction is being committed wait, and the next transaction takes all
/// of them at once. A commit rewrites a few dozen pages of the write-ahead log and takes SQLite's write lock; writes
/// of one batch share both. With one write at a time nothing waits: it is one transaction, as before.
///
/// A caller returns only once the transaction holding its write has committed. A write that throws fails alone (the
/// batch is written again with a savepoint per write, ``commit(_:in:)``); a commit that fails fails every write of
/// its batch. The caller that finds no transaction running writes the batches (at most ``batchesPerLeader``), then
/// hands the job to the oldest waiting caller, so that no caller writes for the others indefinitely. Waiting callers
/// are suspended, not blocked: the threads of the concurrency pool stay free for other work.
///
/// A write can also ask to be told of its commit (`committed`): those calls are made in commit order, one at a time,
/// right after each commit, before any later transaction starts — what an in-memory copy of committed data needs to
/// stay exactly in step with the database.
final class GroupCommit: Sendable {
    /// How many batches one caller writes before it hands the job on.
    static let batchesPerLeader = 4

    private let database: DatabasePool
    private let state = NIOLockedValueBox(State())

    private struct State {
        var queue: [Entry] = []
        var writing = false
    }

    /// What a waiting caller is told: its result, or to write the next batches itself.
    private enum Signal: Sendable {
        case done(Result<any Sendable, any Error>)
        case lead
    }

    /// One caller's write, and the signal for it, which may arrive before or after the caller starts waiting.
    private final class Entry: Sendable {
        let work: @Sendable (Database) throws -> any Sendable
        let committed: (@Sendable (any Sendable) -> Void)?
        private let slot = NIOLockedValueBox<(signal: Signal?, waiter: CheckedContinuation<Signal, Never>?)>(
            (nil, nil))

        init(
            _ work: @escaping @Sendable (Database) throws -> any Sendable,
            committed: (@Sendable (any Sendable) -> Void)?
        ) {
            self.work = work
            self.committed = committed
        }

        func send(_ signal: Signal) {
            let waiter = slot.withLockedValue { slot -> CheckedContinuation<Signal, Never>? in
                guard let waiter = slot.waiter else {
                    slot.signal = signal
                    return nil
                }
                slot.waiter = nil
                return waiter
            }
            waiter?.resume(returning: signal)
        }

        /// The signal sent; returns at once when it was sent before (a leader's own write, already committed).
        func wait() async -> Signal {
            let sent = slot.withLockedValue { slot -> Signal? in
                defer { slot.signal = nil }
                return slot.signal
            }
            if let sent { return sent }
            return await withCheckedContinuation { continuation in
                let signal = slot.withLockedValue { slot -> Signal? in
                    if let signal = slot.signal {
                        slot.signal = nil
                        return signal
                    }
                    slot.waiter = continuation
                    return nil
                }
                if let signal { continuation.resume(returning: signal) }
            }
        }
    }

    init(_ database: DatabasePool) {
        self.database = database
    }

    /// How many writes wait for the next transaction (for tests).
    var waiting: Int {
        state.withLockedValue { $0.queue.count }
    }

    /// Runs `work` in the next transaction (shared with the other writes of its batch) and returns its result once
    /// that transaction commits.
    /// - Parameter committed: Called with the result once the transaction has committed, in commit order, before
    ///   the next transaction starts. It runs while the database's writer is held: keep it short.
    func write<T: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> T, committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        var told: (@Sendable (any Sendable) -> Void)?
        if let committed { told = { value in if let value = value as? T { committed(value) } } }
        let entry = Entry({ db in try work(db) }, committed: told)
        var leads = state.withLockedValue { state in
            state.queue.append(entry)
            defer { state.writing = true }
            return !state.writing
        }
        while true {
            if leads { writeBatches() }
            switch await entry.wait() {
            case .done(let result):
                // The entry holds what `work` returned: a `T`.
                guard let value = try result.get() as? T else {
                    throw ParleyError(.internalError, "a group commit returned a value of another type")
                }
                return value
            case .lead: leads = true
            }
        }
    }

    /// Writes what is queued, batch after batch, then stops or hands the job to the oldest waiting caller.
    private func writeBatches() {
        for _ in 0..<Self.batchesPerLeader {
            let batch = state.withLockedValue { state in
                defer { state.queue.removeAll(keepingCapacity: true) }
                if state.queue.isEmpty { state.writing = false }
                return state.queue
            }
            guard !batch.isEmpty else { return }
            let results: [Result<any Sendable, any Error>]
            do {
                results = try database.writeWithoutTransaction { db in try Self.commit(batch, in: db) }
            } catch {
                results = Array(repeating: .failure(error), count: batch.count)
            }
            for (entry, result) in zip(batch, results) { entry.send(.done(result)) }
        }
        let next = state.withLockedValue { state in
            if state.queue.isEmpty { state.writing = false }
            return state.queue.first
        }
        next?.send(.lead)
    }

    /// One transaction holding every write of `batch`. The transaction and savepoint statements are prepared once
    /// per connection (parsing `BEGIN` and `COMMIT` again for every transaction took about a fifth of a
    /// one-statement transaction's time), and stepped with SQLite's C API (``run(_:in:)``).
    ///
    /// The writes run without savepoints first: a write fails rarely (an input another node answered meanwhile),
    /// and a savepoint costs two statements per write. When one throws, the transaction is rolled back and the
    /// batch written again with a savepoint per write, so that the failing write fails alone. A write only runs
    /// statements on `db`, so running it again after a rollback is safe.
    private static func commit(_ batch: [Entry], in db: Database) throws -> [Result<any Sendable, any Error>] {
        if let results = try commit(batch, in: db, savepoints: false) { return results }
        return try commit(batch, in: db, savepoints: true) ?? []
    }

    /// The transaction of ``commit(_:in:)``; nil, rolled back, when a write of a batch of several threw and
    /// `savepoints` is false. A write alone in its transaction needs no savepoint to fail alone.
    private static func commit(_ batch: [Entry], in db: Database, savepoints: Bool) throws
        -> [Result<any Sendable, any Error>]?
    {
        try run("BEGIN IMMEDIATE TRANSACTION", in: db)
        do {
            var results: [Result<any Sendable, any Error>] = []
            results.reserveCapacity(batch.count)
            for entry in batch {
                if savepoints { try run("SAVEPOINT entry", in: db) }
                do {
                    results.append(.success(try entry.work(db)))
                } catch {
                    guard savepoints else {
                        try db.rollback()
                        return batch.count == 1 ? [.failure(error)] : nil
                    }
                    try run("ROLLBACK TO SAVEPOINT entry", in: db)
                    results.append(.failure(error))
                }
                if savepoints { try run("RELEASE SAVEPOINT entry", in: db) }
            }
            try run("COMMIT TRANSACTION", in: db)
            for (entry, result) in zip(batch, results) {
                if let committed = entry.committed, case .success(let value) = result { committed(value) }
            }
            return results
        } catch {
            try db.rollback()
            throw error
        }
    }

    /// Runs a transaction or savepoint statement with SQLite's C API (``Statement/direct(bind:)``): GRDB's
    /// `execute()` also tracks savepoints by their names for its transaction observers, which the store has none
    /// of, and was 7 % of the server's CPU under load (docs/performance.md). GRDB still sees the transaction
    /// (`isInsideTransaction` asks SQLite), and its `rollback()` ends one after an error.
    private static func run(_ sql: String, in db: Database) throws {
        try db.cachedStatement(sql: sql).direct { _ in }
    }
}
