import Benchmark
import EchoServer
import Foundation
import NIOCore
import NIOPosix
import ParleyServerTesting

/// Issue 20's lines: one node on PostgreSQL against one on SQLite (the `server` benchmark, same load, same run), and
/// two nodes behind nginx against one behind nginx, both on PostgreSQL and nginx running `deploy/nginx/parley.conf`.
///
/// Issue 37's: the PostgreSQL floor (`cluster.floor`, the raw echo storing each message as a node on PostgreSQL must
/// at the least, ``PostgresDurableEcho``) under the same load, the CPU time per message of the node (or the floor's
/// process) and of PostgreSQL's processes, and the round trips to PostgreSQL per message (`cluster.roundTrips`).
///
/// They need a PostgreSQL server (`PARLEY_BENCH_POSTGRES_URL`, which `scripts/bench` sets from
/// `scripts/postgres-test-server`) and nginx (`/usr/sbin/nginx`); without either they are not registered, and the
/// summary leaves their lines out.
enum ClusterBenchmarks {
    /// Where the nodes run.
    enum Layout: Sendable {
        /// One node, clients connect to it.
        case node
        /// `count` nodes behind nginx, clients connect to nginx.
        case nginx(nodes: Int)
        /// The PostgreSQL floor: `raw-echo --postgres`, clients connect to it.
        case floor

        var isFloor: Bool {
            if case .floor = self { return true }
            return false
        }
    }

    static func register() {
        let environment = ProcessInfo.processInfo.environment
        guard let database = environment["PARLEY_BENCH_POSTGRES_URL"], !database.isEmpty,
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
        else { return }
        let iterations = quick ? 1 : 3
        let layouts: [(String, Layout)] = [
            ("cluster.floor", .floor), ("cluster.postgres", .node), ("cluster.nginx1", .nginx(nodes: 1)),
            ("cluster.nginx2", .nginx(nodes: 2)),
        ]
        for (name, layout) in layouts {
            Benchmark(
                name,
                configuration: measuring(
                    .messagesPerSecond, .p50, .p99, .cpuPerMessage, .databaseCPUPerMessage, iterations: iterations,
                    warmup: 0)
            ) { benchmark in
                let (count, duration, samples, cpu) = try await load(layout, database: database)
                benchmark.measurement(.messagesPerSecond, rate(count, in: duration))
                benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
                benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
                if let node = cpu.server { benchmark.measurement(.cpuPerMessage, Int(node.seconds * 1e9) / count) }
                if let postgres = cpu.database {
                    benchmark.measurement(.databaseCPUPerMessage, Int(postgres.seconds * 1e9) / count)
                }
            }
        }
        Benchmark(
            "cluster.roundTrips", configuration: measuring(.roundTrips, .floorRoundTrips, iterations: 1, warmup: 0)
        ) { benchmark in
            let (node, floor) = try await RoundTripCount.perMessage(database: database)
            benchmark.measurement(.roundTrips, Int((node * 1000).rounded()))
            benchmark.measurement(.floorRoundTrips, Int((floor * 1000).rounded()))
        }
    }

    /// The `server` benchmark's load (``SocketBenchmarks/loadClients`` clients at once) against `layout`; the
    /// messages answered, the time it took, every round trip, and the CPU time of the nodes (as `server`) and of
    /// PostgreSQL's processes (as `database`) over that time.
    static func load(_ layout: Layout, database: String) async throws -> (Int, Duration, [Duration], CPUTimes) {
        let postgres = try await PostgresDurableEcho.serverProcess(url: database)
        return try await run(layout, database: database) { port, nodes in
            let perClient = SocketBenchmarks.messagesPerLoadClient
            let cpu = { @Sendable in
                let times = nodes.map { cpuTime(of: $0) }
                return CPUTimes(
                    server: times.contains { $0 == nil } ? nil : times.compactMap { $0 }.reduce(.zero, +),
                    database: postgres.flatMap { cpuTime(ofTree: $0) })
            }
            let gate = Gate(count: SocketBenchmarks.loadClients, cpu: cpu)
            // Users of their own in each run: the database keeps the conversations of the runs before.
            let run = UUID().uuidString.prefix(8)
            let target: Target = layout.isFloor ? .durableEcho : .parley
            let results = try await concurrently(SocketBenchmarks.loadClients, width: SocketBenchmarks.loadClients) {
                index in
                let user = "load-\(run)-\(index)"
                let path = layout.isFloor ? "echo" : "chat/v1/chats/sockets/bench?channelId=echo&userId=\(user)"
                return try await LoadClient.exchange(
                    url: "ws://127.0.0.1:\(port)/\(path)", user: user, count: perClient, target: target, gate: gate)
            }
            guard let start = await gate.opened else { throw BenchmarkFailure("the clients never started") }
            let duration = start.duration(to: .now)
            let used = cpu().since(await gate.openedCPU)
            return (results.map(\.count).reduce(0, +), duration, results.flatMap { $0 }.sorted(), used)
        }
    }

    /// Runs the nodes of `layout` (real `parley serve` processes on `database`, and nginx; or the floor's
    /// `raw-echo`) for `body`, which gets the port clients connect to and the nodes' process ids.
    static func run<Result: Sendable>(
        _ layout: Layout, database: String, _ body: (Int, [Int32]) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = folder.appendingPathComponent("channels.json")
        try Data(#"{"channels":[{"id":"echo","skill":"echo"}]}"#.utf8).write(to: configuration)
        let builtProducts = Bundle.main.executableURL!.deletingLastPathComponent()
        var processes: [Process] = []
        defer {
            for process in processes where process.isRunning { process.terminate() }
        }
        var ports: [Int] = []
        let count: Int
        switch layout {
        case .node, .floor: count = 1
        case .nginx(let nodes): count = nodes
        }
        for index in 0..<count {
            let process = Process()
            // Not under the benchmark's malloc interposer (LD_PRELOAD), as `Target.runInOwnProcess` runs the node on
            // SQLite: it counts every allocation, which a deployed node never does.
            process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
            if layout.isFloor {
                process.executableURL = builtProducts.appendingPathComponent("raw-echo")
                process.arguments = ["--postgres", database]
            } else {
                process.executableURL = builtProducts.appendingPathComponent("parley")
                process.arguments = [
                    "serve", "--port", "0", "--config", configuration.path, "--data",
                    folder.appendingPathComponent("data\(index)").path, "--database", database, "--no-metrics",
                ]
            }
            let printed = folder.appendingPathComponent("output\(index).txt")
            FileManager.default.createFile(atPath: printed.path, contents: nil)
            let output = try FileHandle(forWritingTo: printed)
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            try? output.close()
            processes.append(process)
            ports.append(try await Target.port(printedBy: process, in: printed))
        }
        let pids = processes.map(\.processIdentifier)
        guard case .nginx = layout else { return try await body(ports[0], pids) }
        let port = try freePort()
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = [
            "-p", folder.path, "-c", try nginxConfiguration(port: port, nodes: ports, in: folder).path,
            "-g", "daemon off;",
        ]
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        processes.append(nginx)
        try await waitUntilListening(port)
        return try await body(port, pids)
    }

    /// The repository's `deploy/nginx/parley.conf` with `port` in its `listen` line and `nodes` as its upstream.
    static func nginxConfiguration(port: Int, nodes: [Int], in folder: URL) throws -> URL {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let template = try String(
            contentsOf: repository.appendingPathComponent("deploy/nginx/parley.conf"), encoding: .utf8)
        let file = folder.appendingPathComponent("nginx.conf")
        try NginxConfiguration.render(template, port: port, nodes: nodes, listenOptions: "backlog=4096")
            .write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Waits until something accepts connections on `port` (nginx starting).
    static func waitUntilListening(_ port: Int) async throws {
        for _ in 0..<200 {
            if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
            {
                try? await channel.close()
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchmarkFailure("nginx did not listen on \(port)")
    }
}
