import Foundation
import GRDB
import NIOConcurrencyHelpers

/// Copies SQLite's write-ahead log into the database file from a connection and a thread of its own, four times a
/// second, so that no request pays for it. (SQLite's automatic checkpoint runs inside the commit that makes the
/// log pass 1,000 pages: with a few dozen pages written per message, one request in fifty or so waited for
/// several megabytes to be copied.) The writer keeps an automatic checkpoint at 10,000 pages as a backstop.
final class Checkpointer: Sendable {
    private let running = NIOLockedValueBox(true)

    /// Starts checkpointing the database at `path` (in WAL mode).
    init(path: String) throws {
        let connection = try DatabaseQueue(path: path)
        let running = self.running
        Thread.detachNewThread {
            while running.withLockedValue({ $0 }) {
                Thread.sleep(forTimeInterval: 0.25)
                // Passive: never waits for, or blocks, the server's reads and writes; busy now means "next time".
                _ = try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
            }
        }
    }

    deinit {
        running.withLockedValue { $0 = false }
    }
}
