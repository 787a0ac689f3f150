import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers

/// Copies SQLite's write-ahead log into the database file from a connection and a thread of its own, four times a
/// second, so that no request pays for it. (SQLite's automatic checkpoint runs inside the commit that makes the
/// log pass 1,000 pages: with a few dozen pages written per message, one request in fifty or so waited for
/// several megabytes to be copied.) The writer keeps an automatic checkpoint at 10,000 pages as a backstop.
///
/// A checkpoint that fails for any reason but a busy database (the next one tries again) is logged, once per run of
/// failures, with the number of failures when checkpoints work again: a log that grows without bound (a full disk,
/// a damaged file) is an operator's problem to see.
final class Checkpointer: Sendable {
    private let running = NIOLockedValueBox(true)

    /// Starts checkpointing the database at `path` (in WAL mode).
    init(path: String, logger: Logger = Logger(label: "parley.sqlite")) throws {
        let connection = try DatabaseQueue(path: path)
        let running = self.running
        Thread.detachNewThread {
            var failures = 0
            while running.withLockedValue({ $0 }) {
                Thread.sleep(forTimeInterval: 0.25)
                do {
                    // Passive: never waits for, or blocks, the server's reads and writes.
                    _ = try connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
                    if failures > 0 {
                        logger.notice("checkpoints of \(path) work again after \(failures) failures")
                        failures = 0
                    }
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                    continue  // busy now means "next time"
                } catch {
                    failures += 1
                    if failures == 1 {
                        logger.error(
                            "a checkpoint of \(path) failed; the write-ahead log grows until one succeeds: \(error)")
                    }
                }
            }
        }
    }

    deinit {
        running.withLockedValue { $0 = false }
    }
}
