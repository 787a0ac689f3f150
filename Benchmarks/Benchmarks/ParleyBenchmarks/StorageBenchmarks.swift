import Benchmark
import EchoServer
import Foundation
import ParleyCore
import ParleyServer

/// Where the round trip's time goes: the store calls the server makes for one message (store the input as pending,
/// read it back with its conversation, store the answer and mark the input answered), one message at a time, on an
/// SQLite file of its own. The raw echo does none of this; docs/performance.md compares the two.
enum StorageBenchmarks {
    static var messages: Int { quick ? 2_000 : 10_000 }

    static func register() {
        Benchmark(
            "roundtrip.storage", configuration: measuring(.p50, .p99, iterations: quick ? 1 : 3, warmup: 0)
        ) { benchmark in
            let samples = try await storeMessages(warmUp: SocketBenchmarks.warmUp, count: messages)
            benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
            benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
        }
    }

    /// Each message's store calls (``DurableEcho/store(_:for:)``, the floor's), timed together, sorted.
    static func storeMessages(warmUp: Int, count: Int) async throws -> [Duration] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let durable = try DurableEcho(url: folder.appendingPathComponent("parley.sqlite"))
        let key = ConversationKey(channelId: "echo", userId: "bench")
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for index in 0..<(warmUp + count) {
            var input = Fixtures.userText
            input.clientMessageId = "bench-\(index)"
            let start = clock.now
            try await durable.store(input, for: key)
            if index >= warmUp { samples.append(start.duration(to: clock.now)) }
        }
        return samples.sorted()
    }
}
