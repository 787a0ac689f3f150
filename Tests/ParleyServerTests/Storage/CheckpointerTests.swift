import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Testing

@testable import ParleyServer

/// The SQLite store's checkpoints: a service on the server's clock that copies the write-ahead log into the database
/// file, and logs a run of failures once. The clock is moved, never waited for.
@Suite("SQLite checkpoints", .timeLimit(.minutes(1)))
struct CheckpointerTests {
    static let key = ConversationKey(channelId: "web", userId: "ada")

    /// The size of the database file itself (not its log).
    static func fileSize(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    }

    @Test func theServiceCopiesTheLogIntoTheFileAtEachTickOfTheServersClock() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-checkpoint-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("parley.sqlite")
        let virtual = VirtualClock()
        let clock = ServerClock(clock: virtual, startingAt: Date(timeIntervalSince1970: 1_790_000_000))
        let store = try SQLiteConversationStore(url: file, clock: clock)
        let service = store.checkpointer(logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        defer { running.cancel() }
        await virtual.waitForSleepers(1)

        let payload = String(repeating: "x", count: 1_500)
        for index in 0..<200 {
            var message = UserMessage(payload: .text("\(index) \(payload)"), userId: "ada")
            message.clientMessageId = "\(index)"
            _ = try await store.receive(.message(message), for: Self.key, at: clock.now())
        }
        let before = try Self.fileSize(file)  // the messages are in the log, below the automatic checkpoint
        await virtual.advance(by: .milliseconds(249))
        #expect(try Self.fileSize(file) == before, "no checkpoint before the interval")
        await virtual.advance(by: .milliseconds(1))
        await virtual.waitForSleepers(1)  // the checkpoint has run, and the service waits for the next
        #expect(try Self.fileSize(file) > before + 200 * 1_500, "the 200 messages were copied into the file")
    }

    @Test func theServiceEndsWithTheServiceGroup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-checkpoint-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let virtual = VirtualClock()
        let store = try SQLiteConversationStore(
            url: folder.appendingPathComponent("parley.sqlite"),
            clock: ServerClock(clock: virtual, startingAt: Date(timeIntervalSince1970: 1_790_000_000)))
        let group = ServiceGroup(
            services: [store.checkpointer(logger: Logger(label: "test"))], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await virtual.waitForSleepers(1)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()  // returns: the service ended, with no checkpoint left waiting
        }
        #expect(virtual.sleeperCount == 0)
    }

    @Test func aRunOfFailuresIsLoggedOnceAndItsEndWithItsLength() {
        struct Failure: Error {}
        var failures = CheckpointFailures()
        #expect(failures.record(nil) == nil)
        guard case .failed(let error) = failures.record(Failure()) else {
            Issue.record("the first failure is logged")
            return
        }
        #expect(error is Failure)
        #expect(failures.record(Failure()) == nil)
        #expect(failures.record(Failure()) == nil)
        #expect(failures.count == 3)
        guard case .recovered(let count) = failures.record(nil) else {
            Issue.record("the end of the run is logged")
            return
        }
        #expect(count == 3)
        #expect(failures.record(nil) == nil)
        #expect(failures.count == 0)
        guard case .failed = failures.record(Failure()) else {
            Issue.record("a new run is logged again")
            return
        }
    }
}
