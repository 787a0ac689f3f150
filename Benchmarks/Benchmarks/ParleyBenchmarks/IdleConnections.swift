import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Metric 4: the server's resident memory per idle WebSocket connection, in bytes. Benchmarks/Scripts/idle_clients.py holds
/// the connections in its own process; this process, which runs only the server, is measured before and after.
enum IdleConnections {
    static func residentPerConnection(_ target: Target, count: Int) async throws -> Int {
        raiseOpenFileLimit()
        return try await target.run { url in
            guard let address = URLComponents(string: url("idle-NUMBER")), let port = address.port else {
                throw BenchmarkFailure("no port in \(url("idle-NUMBER"))")
            }
            let path = (address.percentEncodedPath + (address.percentEncodedQuery.map { "?" + $0 } ?? ""))
                .replacingOccurrences(of: "NUMBER", with: "{i}")
            // A first batch warms up what every server allocates once (event loops, pools, the SQLite cache).
            try await hold(200, port: port, path: path) {}
            try await Task.sleep(for: .milliseconds(500))
            let before = residentKiB()
            var after = 0
            try await hold(count, port: port, path: path) {
                try await Task.sleep(for: .seconds(1))
                after = residentKiB()
            }
            return Int((Double(after - before) * 1024 / Double(count)).rounded())  // bytes
        }
    }

    /// Opens `count` connections from a child process, runs `body` while they are open, then closes them.
    private static func hold(_ count: Int, port: Int, path: String, _ body: () async throws -> Void) async throws {
        let script = repositoryRoot.appendingPathComponent("Benchmarks/Scripts/idle_clients.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "\(port)", path, "\(count)"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // Blocking calls go to Dispatch, never to the concurrency pool, which the server needs to accept connections.
        let line = await blocking {
            String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        var failure: (any Error)?
        if line.hasPrefix("ready \(count)") {
            do { try await body() } catch { failure = error }
        } else {
            failure = BenchmarkFailure("idle_clients.py did not open \(count) connections: \(line)")
        }
        try? input.fileHandleForWriting.close()
        await blocking { process.waitUntilExit() }
        if let failure { throw failure }
    }

    private static func raiseOpenFileLimit() {
        #if canImport(Glibc)
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #endif
    }
}
