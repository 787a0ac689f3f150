import Benchmark
import Foundation
import ParleyCore

/// Metric 1: typed decode and encode of the seed's message examples, against `JSONSerialization` on the same
/// bytes. One sample is `rounds` passes over every example.
enum CodecBenchmarks {
    static var rounds: Int { quick ? 200 : 1_000 }
    static var iterations: Int { quick ? 15 : 30 }

    static func register() {
        let fixtures = Fixtures.messages
        let data = fixtures.map { Data($0.bytes) }
        throughput("decode") {
            for fixture in fixtures {
                if fixture.isSkillMessage {
                    blackHole(try SkillMessage(decoding: fixture.bytes))
                } else {
                    blackHole(try UserMessage(decoding: fixture.bytes))
                }
            }
        }
        throughput("decode (JSONSerialization)") {
            for bytes in data { blackHole(try JSONSerialization.jsonObject(with: bytes)) }
        }

        let skillMessages = fixtures.filter(\.isSkillMessage).map { try! SkillMessage(decoding: $0.bytes) }
        let userMessages = fixtures.filter { !$0.isSkillMessage }.map { try! UserMessage(decoding: $0.bytes) }
        let objects = data.map { try! JSONSerialization.jsonObject(with: $0) }
        throughput("encode") {
            for message in skillMessages { blackHole(message.jsonBytes()) }
            for message in userMessages { blackHole(message.jsonBytes()) }
        }
        throughput("encode (JSONSerialization)") {
            for object in objects { blackHole(try JSONSerialization.data(withJSONObject: object)) }
        }
    }

    /// Registers `name`: each sample times `rounds` calls of `pass` (one pass handles every example) and records
    /// messages per second.
    private static func throughput(_ name: String, pass: @escaping () throws -> Void) {
        let count = Fixtures.messages.count * rounds
        Benchmark(name, configuration: measuring(.messagesPerSecond, iterations: iterations)) { benchmark in
            let start = ContinuousClock.now
            for _ in 0..<rounds { try pass() }
            benchmark.measurement(.messagesPerSecond, rate(count, in: start.duration(to: .now)))
        }
    }
}
