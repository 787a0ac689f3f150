import Benchmark
import Foundation
import NIOCore
import NIOPosix
import ParleyServerTesting

/// Issue 20's lines: one node on PostgreSQL against one on SQLite (the `server` benchmark, same load, same run), and
/// two nodes behind nginx against one behind nginx, both on PostgreSQL and nginx running `deploy/nginx/parley.conf`.
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
    }

    static func register() {
        let environment = ProcessInfo.processInfo.environment
        guard let database = environment["PARLEY_BENCH_POSTGRES_URL"], !database.isEmpty,
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
        else { return }
        let iterations = quick ? 1 : 3
        let layouts: [(String, Layout)] = [
            ("cluster.postgres", .node), ("cluster.nginx1", .nginx(nodes: 1)), ("cluster.nginx2", .nginx(nodes: 2)),
        ]
        for (name, layout) in layouts {
            Benchmark(
                name, configuration: measuring(.messagesPerSecond, .p50, .p99, iterations: iterations, warmup: 0)
            ) { benchmark in
                let (count, duration, samples) = try await load(layout, database: database)
                benchmark.measurement(.messagesPerSecond, rate(count, in: duration))
                benchmark.measurement(.p50, microseconds(percentile(samples, 0.50)))
                benchmark.measurement(.p99, microseconds(percentile(samples, 0.99)))
            }
        }
    }

    /// The `server` benchmark's load (``SocketBenchmarks/loadClients`` clients at once) against `layout`.
    static func load(_ layout: Layout, database: String) async throws -> (Int, Duration, [Duration]) {
        try await run(layout, database: database) { port in
            let perClient = SocketBenchmarks.messagesPerLoadClient
            let gate = Gate(count: SocketBenchmarks.loadClients)
            // Users of their own in each run: the database keeps the conversations of the runs before.
            let run = UUID().uuidString.prefix(8)
            let results = try await concurrently(SocketBenchmarks.loadClients, width: SocketBenchmarks.loadClients) {
                index in
                let user = "load-\(run)-\(index)"
                return try await LoadClient.exchange(
                    url: "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/bench?channelId=echo&userId=\(user)",
                    user: user, count: perClient, target: .parley, gate: gate)
            }
            guard let start = await gate.opened else { throw BenchmarkFailure("the clients never started") }
            let duration = start.duration(to: .now)
            return (results.map(\.count).reduce(0, +), duration, results.flatMap { $0 }.sorted())
        }
    }

    /// Runs the nodes of `layout` (real `parley serve` processes on `database`, and nginx) for `body`, which gets
    /// the port clients connect to.
    static func run<Result: Sendable>(
        _ layout: Layout, database: String, _ body: (Int) async throws -> Result
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
        case .node: count = 1
        case .nginx(let nodes): count = nodes
        }
        for index in 0..<count {
            let process = Process()
            process.executableURL = builtProducts.appendingPathComponent("parley")
            process.arguments = [
                "serve", "--port", "0", "--config", configuration.path, "--data",
                folder.appendingPathComponent("data\(index)").path, "--database", database, "--no-metrics",
            ]
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
        guard case .nginx = layout else { return try await body(ports[0]) }
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
        return try await body(port)
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
