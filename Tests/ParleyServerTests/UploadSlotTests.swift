import Foundation
import HTTPTypes
import Testing

@testable import ParleyServer

/// The upload slots go to uploads that are moving: a minimum rate over each window, an overall deadline, and the
/// slot of a stalled upload given to a new one when the server is full (``UploadLimiter``), on a virtual clock.
@Suite("Upload slots", .timeLimit(.minutes(1)))
struct UploadSlotTests {
    static func limiter(_ clock: VirtualClock, slots: Int = 2) -> UploadLimiter {
        UploadLimiter(
            maxConcurrent: slots, maxConcurrentPerUser: 2, perWindow: 100, deadline: .seconds(60), minimumRate: 1000,
            rateWindow: .seconds(10), clock: ServerClock(clock: clock, startingAt: .now))
    }

    @Test func aFullServerGivesTheSlotOfAStalledUploadToANewOne() async throws {
        let clock = VirtualClock()
        let limiter = Self.limiter(clock)
        let moving = try limiter.admit(channelId: "c", userId: "moving")
        let stalled = try limiter.admit(channelId: "c", userId: "stalled")
        // Within the grace, no upload can be judged: the server is full.
        let early = #expect(throws: CodedHTTPError.self) { try limiter.admit(channelId: "c", userId: "new") }
        #expect(early?.error.code == .serverBusy)

        moving.progress.waitingForClient()
        stalled.progress.waitingForClient()
        await clock.advance(by: .seconds(2))
        moving.progress.received(5_000)  // 2,500 bytes a second
        stalled.progress.received(100)  // 50 bytes a second
        let newcomer = try limiter.admit(channelId: "c", userId: "new")
        #expect(limiter.running == 2, "the stalled upload's slot went to the newcomer")
        var stops = stalled.progress.stops.makeAsyncIterator()
        let refusal = await stops.next()
        #expect(refusal?.status == .requestTimeout)
        #expect(refusal?.error.code == .attachmentTooSlow)

        // The stalled upload's end gives back no second slot.
        limiter.release(stalled)
        #expect(limiter.running == 2)
        // Everyone left is moving: the next one is refused.
        newcomer.progress.waitingForClient()
        moving.progress.waitingForClient()
        await clock.advance(by: .seconds(2))
        newcomer.progress.received(4_000)
        moving.progress.received(5_000)
        let busy = #expect(throws: CodedHTTPError.self) { try limiter.admit(channelId: "c", userId: "late") }
        #expect(busy?.error.code == .serverBusy)
        limiter.release(moving)
        limiter.release(newcomer)
        #expect(limiter.running == 0)
    }

    @Test func anUploadBelowTheMinimumRateOverAWindowIsEnded() async throws {
        let clock = VirtualClock()
        let limiter = Self.limiter(clock)
        let ticket = try limiter.admit(channelId: "c", userId: "u")
        defer { limiter.release(ticket) }
        let (body, feed) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            try await limiter.supervise(ticket) {
                for await _ in body {}
                return "done"
            }
        }
        await clock.waitForSleepers(1)
        ticket.progress.waitingForClient()
        await clock.advance(by: .seconds(5))
        ticket.progress.received(12_000)  // more than 1,000 bytes a second over the first window
        ticket.progress.waitingForClient()
        await clock.advance(by: .seconds(5))
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(5))
        ticket.progress.received(9_000)  // less over the second
        ticket.progress.waitingForClient()
        await clock.advance(by: .seconds(5))
        let error = await #expect(throws: CodedHTTPError.self) { try await task.value }
        #expect(error?.error.code == .attachmentTooSlow)
        #expect(error?.status == .requestTimeout)
        feed.finish()
    }

    /// A body that arrived whole while the server was busy with it (writing the file, waiting its turn on the
    /// upload thread) is not the client's slowness: the window is not judged.
    @Test func theServersOwnTimeIsNotCountedAgainstTheClient() async throws {
        let clock = VirtualClock()
        let limiter = Self.limiter(clock)
        let ticket = try limiter.admit(channelId: "c", userId: "u")
        defer { limiter.release(ticket) }
        let (written, finishWriting) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            try await limiter.supervise(ticket) {
                for await _ in written {}
                return "stored"
            }
        }
        await clock.waitForSleepers(1)
        ticket.progress.waitingForClient()
        await clock.advance(by: .milliseconds(100))
        ticket.progress.received(2_300)  // the whole body, far under 1,000 bytes a second over a window
        await clock.advance(by: .seconds(10))  // the server writes
        await clock.waitForSleepers(1)
        // Waiting for a client for a second of the window is not enough to judge it either.
        ticket.progress.waitingForClient()
        await clock.advance(by: .seconds(1))
        ticket.progress.received(0)
        await clock.advance(by: .seconds(9))
        await clock.waitForSleepers(1)
        finishWriting.finish()
        #expect(try await task.value == "stored")
    }

    @Test func anUploadThatOutlastsTheDeadlineIsEndedAndOneThatFinishesIsNot() async throws {
        let clock = VirtualClock()
        let limiter = Self.limiter(clock)
        let ticket = try limiter.admit(channelId: "c", userId: "u")
        defer { limiter.release(ticket) }
        let task = Task {
            try await limiter.supervise(ticket) {
                try await Task.sleep(for: .seconds(3600))
                return "never"
            }
        }
        for _ in 0..<6 {
            await clock.waitForSleepers(1)
            ticket.progress.received(20_000)
            await clock.advance(by: .seconds(10))
        }
        let error = await #expect(throws: CodedHTTPError.self) { try await task.value }
        #expect(error?.error.code == .attachmentTimedOut)

        let quick = try limiter.admit(channelId: "c", userId: "v")
        defer { limiter.release(quick) }
        let value = try await limiter.supervise(quick) { "stored" }
        #expect(value == "stored")
    }
}
