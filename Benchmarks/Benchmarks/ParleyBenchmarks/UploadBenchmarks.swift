import Benchmark
import Foundation
import Synchronization

/// `upload.chat`: the chat round trip while 8 uploads of 25 MiB run without pause, against the same round trip on
/// the same kind of server with no uploads (issue 18: uploads used to push round trips to ~25 s).
///
/// The server is `parley serve` in a process of its own (like `server`, so that it has both pool threads); the
/// uploads are `curl` processes, one per lane, each lane starting its next upload when the previous one is answered,
/// each upload as a new user (so that per-user caps and quotas never refuse one). The chat is one WebSocket client
/// (``LoadClient``) sending a message and waiting for the echo skill's answer, 1,000 (quick) or 5,000 times after
/// a warm-up of 200.
enum UploadBenchmarks {
    static let lanes = 8
    static let uploadSize = 25 << 20
    static var roundTrips: Int { quick ? 1_000 : 5_000 }
    static let warmUp = 200

    static func register() {
        let iterations = quick ? 1 : 3
        Benchmark(
            "upload.chat", configuration: measuring(.p50, .p99, .mebibytesPerSecond, iterations: iterations, warmup: 0)
        ) { benchmark in
            let run = try await chat(whileUploading: true)
            benchmark.measurement(.p50, microseconds(percentile(run.samples, 0.50)))
            benchmark.measurement(.p99, microseconds(percentile(run.samples, 0.99)))
            benchmark.measurement(.mebibytesPerSecond, run.mebibytesPerSecond)
        }
        Benchmark("upload.chat (no uploads)", configuration: measuring(.p50, .p99, iterations: iterations, warmup: 0)) {
            benchmark in
            let run = try await chat(whileUploading: false)
            benchmark.measurement(.p50, microseconds(percentile(run.samples, 0.50)))
            benchmark.measurement(.p99, microseconds(percentile(run.samples, 0.99)))
        }
    }

    struct Run: Sendable {
        /// The measured round trips, sorted.
        var samples: [Duration]
        /// Upload bytes answered `200` per second of the measurement, in MiB/s.
        var mebibytesPerSecond: Int
    }

    static func chat(whileUploading: Bool) async throws -> Run {
        try await Target.parley.runInOwnProcess { url, _ in
            let chatURL = url("bench")
            guard whileUploading else {
                let samples = try await LoadClient.exchange(
                    url: chatURL, user: "bench", count: warmUp + roundTrips, target: .parley)
                return Run(samples: samples.dropFirst(warmUp).sorted(), mebibytesPerSecond: 0)
            }
            guard let port = URLComponents(string: chatURL)?.port else { throw BenchmarkFailure("no port in \(chatURL)") }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-upload-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("video.mp4")
            try video(size: uploadSize).write(to: file)
            let stopFile = folder.appendingPathComponent("stop")
            let uploads = try await startUploads(file, port: port, stopFile: stopFile)
            let start = ContinuousClock.now
            let samples: [Duration]
            do {
                samples = try await LoadClient.exchange(
                    url: chatURL, user: "bench", count: warmUp + roundTrips, target: .parley)
            } catch {
                FileManager.default.createFile(atPath: stopFile.path, contents: nil)
                _ = await uploads.finish()
                throw error
            }
            let measured = start.duration(to: .now)
            FileManager.default.createFile(atPath: stopFile.path, contents: nil)
            let statuses = await uploads.finish()
            let completed = statuses.filter { $0 == 200 }.count
            guard completed >= lanes, statuses.count - completed <= statuses.count / 10 else {
                throw BenchmarkFailure("uploads: \(completed) answered 200 of \(statuses.count): \(Set(statuses))")
            }
            let mebibytes = Double(completed * uploadSize) / Double(1 << 20)
            return Run(
                samples: samples.dropFirst(warmUp).sorted(),
                mebibytesPerSecond: Int((mebibytes / measured.seconds).rounded()))
        }
    }

    /// The upload lanes: ``lanes`` shell processes, each a loop of `curl` (as Oracle's Web SDK uploads: part
    /// `attachment`, `x-oda-meta-file-size`) starting its next upload, as a new user, when the previous one is
    /// answered, until `stopFile` exists. They are started off the concurrency pool and run outside this process, so
    /// that starting `curl` never delays the chat being measured. (Each lane is a process of its own because a shell's
    /// `wait` never returns here: the benchmark's children inherit a blocked `SIGCHLD`.)
    struct Uploads: Sendable {
        let lanes: [(process: Process, output: Pipe)]

        /// Waits for the lanes to end (after the stop file appears) and returns each upload's HTTP status.
        func finish() async -> [Int] {
            var statuses: [Int] = []
            for (process, output) in lanes {
                let printed = await blocking { output.fileHandleForReading.readDataToEndOfFile() }
                await blocking { process.waitUntilExit() }
                statuses += String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
                    Int($0)
                }
            }
            return statuses
        }
    }

    static func startUploads(_ file: URL, port: Int, stopFile: URL) async throws -> Uploads {
        let loop = """
            n=0; while [ ! -e "$STOP" ]; do \
            $NICE curl --silent --output /dev/null --write-out '%{http_code}\\n' --header "x-oda-meta-file-size: $SIZE" \
            --form "attachment=@$FILE;type=video/mp4" \
            "http://127.0.0.1:$PORT/chat/v1/attachments?channelId=echo&userId=upload-$LANE-$n" || echo 0; \
            n=$((n+1)); done
            """
        var started: [(process: Process, output: Pipe)] = []
        for lane in 0..<lanes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", loop]
            process.environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "STOP": stopFile.path,
                "SIZE": String(uploadSize), "FILE": file.path, "PORT": String(port), "LANE": String(lane),
                // PARLEY_BENCH_NICE_UPLOADS=1 runs the uploaders at the lowest CPU priority, as clients on other
                // machines would be.
                "NICE": ProcessInfo.processInfo.environment["PARLEY_BENCH_NICE_UPLOADS"] == nil ? "" : "nice -n 19",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let result: Result<Void, any Error> = await blocking { Result { try process.run() } }
            try result.get()
            started.append((process, output))
        }
        return Uploads(lanes: started)
    }

    /// A file the server sniffs as MP4 (an `ftyp` box, then filler).
    static func video(size: Int) -> Data {
        var data = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8))
        data.append(contentsOf: (data.count..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        return data
    }
}

extension BenchmarkMetric {
    /// Upload throughput.
    static let mebibytesPerSecond = BenchmarkMetric.custom("MiB/s", polarity: .prefersLarger, useScalingFactor: false)
}
