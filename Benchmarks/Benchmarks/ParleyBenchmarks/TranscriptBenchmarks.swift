import Benchmark
import Foundation
import ParleyClient
import ParleyCore

/// Metric 6: a 10,000-message transcript (the seed's message examples in turn, written by `TranscriptStore`
/// itself) loaded from its file into client-ready `ChatMessage`s, against `JSONSerialization` reading the same
/// lines into untyped objects.
enum TranscriptBenchmarks {
    static let messageCount = 10_000

    /// The transcript's folder, written on first use (not at registration, which every benchmark process repeats).
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-transcript")
        try? FileManager.default.removeItem(at: folder)
        var store = try! TranscriptStore(folder: folder, channelId: "bench", userId: "reader")
        let fixtures = Fixtures.messages
        for index in 0..<messageCount {
            let fixture = fixtures[index % fixtures.count]
            let envelope: ChatMessage.Envelope =
                fixture.isSkillMessage
                ? .skill(try! SkillMessage(decoding: fixture.bytes))
                : .user(try! UserMessage(decoding: fixture.bytes))
            try! store.append(
                ChatMessage(
                    id: "message-\(index)", envelope: envelope,
                    delivery: fixture.isSkillMessage ? nil : .acknowledged))
        }
        return folder
    }()

    static func register() {
        let iterations = quick ? 15 : 30

        Benchmark("transcript.load10k", configuration: measuring(.duration, iterations: iterations)) { benchmark in
            let start = ContinuousClock.now
            let loaded = try TranscriptStore(folder: folder, channelId: "bench", userId: "reader")
            let elapsed = start.duration(to: .now)
            guard loaded.messages.count == messageCount else {
                throw BenchmarkFailure("loaded \(loaded.messages.count) of \(messageCount) messages")
            }
            benchmark.measurement(.duration, microseconds(elapsed))
        }
        Benchmark(
            "transcript.load10k (JSONSerialization)", configuration: measuring(.duration, iterations: iterations)
        ) { benchmark in
            let start = ContinuousClock.now
            var objects: [Any] = []
            let file = folder.appendingPathComponent("transcript-bench-reader.jsonl")
            for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")) {
                objects.append(try JSONSerialization.jsonObject(with: line))
            }
            let elapsed = start.duration(to: .now)
            guard objects.count == messageCount else { throw BenchmarkFailure("read \(objects.count) lines") }
            benchmark.measurement(.duration, microseconds(elapsed))
        }
    }
}
