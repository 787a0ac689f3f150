import Benchmark
import Foundation
import ParleyClient
import ParleyCore
import ParleyServer
import ParleyServerTesting

/// Metrics 2–4: the full stack's round trip, the server under 1,000 concurrent clients, and the memory of idle
/// connections — each against the raw WebSocket echo server of the same libraries (``Target/rawEcho``).
enum SocketBenchmarks {
    static var roundTrips: Int { quick ? 1_000 : 5_000 }
    static let warmUp = 200
    static let loadClients = 1_000
    static var messagesPerLoadClient: Int { quick ? 20 : 50 }
    static let idleConnections = 10_000

    static func register() {
        // Three samples even with `--quick`: one sample of a socket benchmark moved by ±15 % from run to run, baselines
        // included, and the median of three is what the summary prints.
        let iterations = 3
        let latency = measuring(.p50, .p99, iterations: iterations, warmup: 0)

        // 2. One message at a time through the server and back, timed by the same client as the raw echo's round
        // trip (`LoadClient`: write the seed's user message, read the echo skill's reply), so that the ratio is the
        // server's alone: the frame decoded and checked, the input stored as pending, the skill's turn, the reply
        // and the input's mark stored, the reply encoded and written.
        Benchmark("roundtrip", configuration: latency) { benchmark in
            let samples = try await sameClientRoundTrips(.parley)
            recordLatency(samples, in: benchmark)
        }
        // The whole SDK round trip: `ChatClient.send(text:)` → server → echo skill → the client's `messageReceived`
        // event, with the client's outbox, the acknowledgement (a second frame each way), the transcript and the
        // event stream.
        Benchmark("roundtrip (ChatClient)", configuration: latency) { benchmark in
            let samples = try await parleyRoundTrips(roundTrips)
            recordLatency(samples, in: benchmark)
        }
        // The ChatClient round trip with nothing stored (`InMemoryConversationStore`): what Parley's own work costs,
        // storage aside.
        Benchmark("roundtrip (in-memory store)", configuration: latency) { benchmark in
            let samples = try await parleyRoundTrips(roundTrips, store: InMemoryConversationStore())
            recordLatency(samples, in: benchmark)
        }
        // `parley demo`'s pizza skill answering "bye" (one message, from its scripted flow): the cost of a skill.
        Benchmark("roundtrip (pizza skill)", configuration: latency) { benchmark in
            let samples = try await parleyRoundTrips(
                roundTrips, channel: ChannelConfiguration(id: "pizza", skill: .demo), text: { _ in "bye" },
                isReply: { _, reply in reply.hasPrefix("Goodbye") })
            recordLatency(samples, in: benchmark)
        }
        Benchmark("roundtrip (raw WebSocket echo)", configuration: latency) { benchmark in
            let samples = try await sameClientRoundTrips(.rawEcho)
            recordLatency(samples, in: benchmark)
        }
        // The floor: the raw echo storing each message as Parley does before it echoes it (`DurableEcho`).
        Benchmark("roundtrip (durable echo)", configuration: latency) { benchmark in
            let samples = try await sameClientRoundTrips(.durableEcho)
            recordLatency(samples, in: benchmark)
        }

        // 3. 1,000 clients at once, each sending its messages one after another.
        let loads = [
            (Target.parley, "server"), (.rawEcho, "server (raw WebSocket echo)"),
            (.durableEcho, "server (durable echo)"),
        ]
        for (target, name) in loads {
            Benchmark(
                name, configuration: measuring(.messagesPerSecond, .p50, .p99, .cpuPerMessage, .clientCPUPerMessage, iterations: iterations, warmup: 0)
            ) { benchmark in
                let (count, duration, samples, cpu) = try await load(target)
                benchmark.measurement(.messagesPerSecond, rate(count, in: duration))
                if let server = cpu.server {
                    benchmark.measurement(.cpuPerMessage, Int(server.seconds * 1e9) / max(count, 1))
                }
                if let clients = cpu.clients {
                    benchmark.measurement(.clientCPUPerMessage, Int(clients.seconds * 1e9) / max(count, 1))
                }
                benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
                benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
            }
        }

        // 4. 10,000 open, idle connections, held by another process so that only the server's memory counts.
        for target in [Target.parley, .rawEcho] {
            let name = target == .parley ? "connection" : "connection (raw WebSocket echo)"
            Benchmark(name, configuration: measuring(.bytes, iterations: 1, warmup: 0)) { benchmark in
                let perConnection = try await IdleConnections.residentPerConnection(
                    target, count: idleConnections)
                benchmark.measurement(.bytes, perConnection)
            }
        }
    }

    /// The round trips of one `LoadClient` through `target` (in this process), after ``warmUp``, sorted.
    static func sameClientRoundTrips(_ target: Target) async throws -> [Duration] {
        try await target.run { url in
            try await LoadClient.exchange(url: url("bench"), user: "bench", count: warmUp + roundTrips, target: target)
        }.dropFirst(warmUp).sorted()
    }

    /// Records the median and the 99th percentile of sorted `samples`.
    static func recordLatency(_ samples: [Duration], in benchmark: Benchmark) {
        benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
        benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
    }

    /// The round trips of one `ChatClient` through a Parley server, sorted: by default the echo skill, each reply
    /// being the text sent.
    static func parleyRoundTrips(
        _ count: Int, channel: ChannelConfiguration = ChannelConfiguration(id: "echo", skill: .echo),
        store: (any ConversationStore)? = nil, text: @escaping (Int) -> String = { "Order Pizza \($0)" },
        isReply: @escaping (_ sent: String, _ reply: String) -> Bool = { $0 == $1 }
    ) async throws -> [Duration] {
        try await InProcessServer.run(
            channels: [channel], configure: { $0.messagesPerMinute = benchmarkMessagesPerMinute }, store: store,
            logLevel: .error
        ) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: channel.id, userId: "bench"))
            let events = await client.events()
            var iterator = events.makeAsyncIterator()
            try await client.initialize()
            let clock = ContinuousClock()
            var samples: [Duration] = []
            samples.reserveCapacity(count)
            for index in 0..<(warmUp + count) {
                let text = text(index)
                let start = clock.now
                try await client.send(text: text)
                while true {
                    guard let event = await iterator.next() else { throw BenchmarkFailure("the client stopped") }
                    if case .messageReceived(let message) = event, let reply = message.payload.text,
                        isReply(text, reply)
                    {
                        break
                    }
                }
                if index >= warmUp { samples.append(start.duration(to: clock.now)) }
            }
            await client.destroy()
            return samples.sorted()
        }
    }

    /// Runs ``loadClients`` clients against `target`; returns the messages answered, the time it took, every
    /// round trip, sorted, and the CPU time the server and the clients used over that time.
    static func load(_ target: Target) async throws -> (Int, Duration, [Duration], CPUTimes) {
        try await target.runInOwnProcess { url, serverCPU in
            let perClient = messagesPerLoadClient
            let cpu = { @Sendable in CPUTimes(server: serverCPU(), clients: cpuTime(of: getpid())) }
            let gate = Gate(count: loadClients, cpu: cpu)
            let results = try await concurrently(loadClients, width: loadClients) { index in
                try await LoadClient.exchange(
                    url: url("load-\(index)"), user: "load-\(index)", count: perClient, target: target, gate: gate)
            }
            guard let start = await gate.opened else { throw BenchmarkFailure("the clients never started") }
            let duration = start.duration(to: .now)
            let used = await cpu().since(gate.openedCPU)
            let samples = results.flatMap { $0 }.sorted()
            return (samples.count, duration, samples, used)
        }
    }
}
