import Benchmark
import Foundation
import ParleyCore

/// `scripts/bench --quick` sets `PARLEY_BENCH_QUICK`: fewer rounds and iterations, the same loads.
let quick = ProcessInfo.processInfo.environment["PARLEY_BENCH_QUICK"] != nil

/// The message rate per conversation the benchmarks' servers allow: one conversation sends 1,200 or 5,200 messages as
/// fast as it can, a flood the server's default (600 a minute, `ServerConfiguration.messagesPerMinute`) refuses on
/// purpose, and the benchmark would then wait out each `retryAfter` (it stalled so after issue 33).
let benchmarkMessagesPerMinute = 1_000_000

/// The repository this package sits in (found from this file's path, so that it works from any folder).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A configuration that records only custom metrics (each benchmark measures its own quantity, see
/// docs/performance.md), for `iterations` samples.
func measuring(_ metrics: BenchmarkMetric..., iterations: Int, warmup: Int = 1) -> Benchmark.Configuration {
    .init(
        metrics: metrics, warmupIterations: warmup, maxDuration: .seconds(600), maxIterations: iterations)
}

/// Custom metrics. Their names are the units `scripts/bench` prints.
extension BenchmarkMetric {
    static let messagesPerSecond = BenchmarkMetric.custom("msg/s", polarity: .prefersLarger, useScalingFactor: false)
    static let transitionsPerSecond = BenchmarkMetric.custom("/s", polarity: .prefersLarger, useScalingFactor: false)
    /// Latency and durations in microseconds.
    static let p50 = BenchmarkMetric.custom("p50_us", useScalingFactor: false)
    static let p99 = BenchmarkMetric.custom("p99_us", useScalingFactor: false)
    static let duration = BenchmarkMetric.custom("us", useScalingFactor: false)
    /// Bytes, for a memory figure that whole KiB would round too coarsely (a ratio of 30 to 28 KiB moves by 4 % per KiB).
    static let bytes = BenchmarkMetric.custom("bytes", useScalingFactor: false)
    /// A server process's CPU time (user and system) per message, in nanoseconds.
    static let cpuPerMessage = BenchmarkMetric.custom("cpu_ns", useScalingFactor: false)
    /// The CPU time of the database server's processes per message, in nanoseconds.
    static let databaseCPUPerMessage = BenchmarkMetric.custom("db_cpu_ns", useScalingFactor: false)
    /// Round trips to the database per message, in thousandths: a node's and the PostgreSQL floor's.
    static let roundTrips = BenchmarkMetric.custom("trips_milli", useScalingFactor: false)
    static let floorRoundTrips = BenchmarkMetric.custom("floor_trips_milli", useScalingFactor: false)
    /// The load's clients' CPU time (the benchmark's process) per message, in nanoseconds.
    static let clientCPUPerMessage = BenchmarkMetric.custom("client_cpu_ns", useScalingFactor: false)
}

/// Events per second, rounded.
func rate(_ count: Int, in duration: Duration) -> Int {
    Int((Double(count) / duration.seconds).rounded())
}

/// Whole microseconds.
func microseconds(_ duration: Duration) -> Int {
    Int((duration.seconds * 1_000_000).rounded())
}

/// The value at `fraction` (0...1) of sorted samples.
func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
    guard !sorted.isEmpty else { return .zero }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The process's resident memory, in KiB, from /proc (Linux) — the kernel's own count, allocator slack included.
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// The CPU time (user and system) process `pid` has used so far, from /proc (Linux); nil when it cannot be read.
func cpuTime(of pid: Int32) -> Duration? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return nil }
    // After the command's closing parenthesis: state is field 3, utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    let ticks = sysconf(Int32(_SC_CLK_TCK))
    return .nanoseconds((user + system) * 1_000_000_000 / max(ticks, 1))
}

/// The CPU time (user and system) used so far by process `root` and its children, those that run and those it has
/// waited for (a PostgreSQL server: the postmaster, its backends and its helpers), from /proc (Linux).
func cpuTime(ofTree root: Int32) -> Duration? {
    let ticks = max(sysconf(Int32(_SC_CLK_TCK)), 1)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    var total = 0
    var found = false
    for entry in entries {
        guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { continue }
        // After the command: state (3), parent (4), …, utime, stime, cutime, cstime (14–17).
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 14, pid == root || Int32(fields[1]) == root else { continue }
        found = found || pid == root
        total += fields[11...14].compactMap { Int($0) }.reduce(0, +)
    }
    return found ? .nanoseconds(total * 1_000_000_000 / ticks) : nil
}

/// Thrown when a benchmark sees something wrong (a lost reply, a refused connection): a number measured on a
/// broken run is not reported.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
