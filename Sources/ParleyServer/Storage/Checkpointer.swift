import GRDB
import Logging
import ServiceLifecycle

/// Copies SQLite's write-ahead log into the database file from a connection of its own, four times a second, so that
/// no request pays for it. (SQLite's automatic checkpoint runs inside the commit that makes the log pass 1,000 pages:
/// with a few dozen pages written per message, one request in fifty or so waited for several megabytes to be
/// copied.) The writer keeps an automatic checkpoint at 10,000 pages as a backstop.
///
/// A service on the server's clock (``ServerClock``): it waits an ``interval``, checkpoints, and again, until the
/// server stops. The checkpoint runs on GRDB's queue for its connection, so the task waiting for it holds no thread
/// of the concurrency pool. The application runs it for its ``SQLiteConversationStore``
/// (``SQLiteConversationStore/checkpointer(logger:)``).
///
/// A checkpoint that fails for any reason but a busy database (the next one tries again) is logged, once per run of
/// failures, with the number of failures when checkpoints work again: a log that grows without bound (a full disk,
/// a damaged file) is an operator's problem to see.
struct Checkpointer: Service {
    /// The checkpointing connection, the store's own (opened with it).
    let connection: DatabaseQueue
    /// The database file, for the log.
    let path: String
    /// The time between two checkpoints.
    var interval: Duration = .milliseconds(250)
    let clock: ServerClock
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var failures = CheckpointFailures()
            while true {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                switch failures.record(await checkpoint()) {
                case .none:
                    break
                case .failed(let error):
                    logger.error(
                        "a checkpoint of \(path) failed; the write-ahead log grows until one succeeds: \(error)")
                case .recovered(let count):
                    logger.notice("checkpoints of \(path) work again after \(count) failures")
                }
            }
        }
    }

    /// Moves what it can of the log into the file, once: nil when it did, or when the database was busy (the next
    /// checkpoint tries again); the error otherwise.
    func checkpoint() async -> (any Error)? {
        do {
            // Passive: never waits for, or blocks, the server's reads and writes.
            try await connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
            return nil
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return nil  // busy now means "next time"
        } catch is CancellationError {
            return nil
        } catch {
            return error
        }
    }
}

/// The failures of consecutive checkpoints, and what to log of them: the first failure of a run, and the end of a
/// run with its length.
struct CheckpointFailures: Equatable {
    /// The failures since the last checkpoint that worked.
    private(set) var count = 0

    /// What to log after a checkpoint.
    enum Log {
        /// A run of failures starts with `error`.
        case failed(any Error)
        /// A checkpoint worked after `count` failures.
        case recovered(count: Int)
    }

    /// Records a checkpoint's outcome (nil: it worked); what to log, if anything.
    mutating func record(_ error: (any Error)?) -> Log? {
        guard let error else {
            defer { count = 0 }
            return count > 0 ? .recovered(count: count) : nil
        }
        count += 1
        return count == 1 ? .failed(error) : nil
    }
}
