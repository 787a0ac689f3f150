// swift-tools-version:6.1
import PackageDescription

/// The root package's identity is its folder's name, which differs between clones (`parley`, `main`, …).
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "parley"

/// Parley's benchmarks, a package of their own so that the library never depends on the benchmark harness.
/// Run them with `scripts/bench` (or `swift package benchmark` in this folder); docs/performance.md has the method.
let package = Package(
    name: "ParleyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // The malloc interposer instead of jemalloc; the trait list also leaves the runtime interposer out.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The PostgreSQL floor (`PostgresDurableEcho`) talks to the database as directly as postgres-nio allows.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.30.0"),
        // The raw pass-through proxy's HTTP client (`model-proxy`); already in the graph through Hummingbird's testing
        // library.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
    ],
    targets: [
        .executableTarget(
            name: "ParleyBenchmarks",
            dependencies: [
                "EchoServer",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ParleyCore", package: root),
                .product(name: "ParleyClient", package: root),
                .product(name: "ParleyServer", package: root),
                .product(name: "ParleySkills", package: root),
                .product(name: "ParleyServerTesting", package: root),
                .product(name: "ParleyPostgres", package: root),
                .product(name: "ParleyVoiceFlow", package: root),
                .product(name: "ParleySpeech", package: root),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/ParleyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The baseline server, shared by the benchmarks (in process) and `raw-echo` (in a process of its own), and the
        // floor: the same server storing each message as Parley does (`DurableEcho`); and the language-model endpoint
        // (`ModelEndpoint`), in process for `llm.firstFrame` and in `model-endpoint` for `llm.streams`.
        .target(
            name: "EchoServer",
            dependencies: [
                .product(name: "ParleyCore", package: root),
                .product(name: "ParleyServer", package: root),
                .product(name: "ParleyPostgres", package: root),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Servers/EchoServer"
        ),
        .executableTarget(name: "raw-echo", dependencies: ["EchoServer"], path: "Servers/raw-echo"),
        // The language-model benchmarks' processes (`llm.streams`): a local OpenAI-compatible endpoint, and the
        // baseline, a WebSocket server of raw-echo's make that passes each answer's chunks through as they come.
        .executableTarget(name: "model-endpoint", dependencies: ["EchoServer"], path: "Servers/model-endpoint"),
        .executableTarget(
            name: "model-proxy",
            dependencies: [
                "EchoServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Servers/model-proxy"
        ),
    ],
    swiftLanguageModes: [.v6]
)
