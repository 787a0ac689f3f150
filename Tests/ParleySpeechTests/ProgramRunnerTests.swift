// The runner exists where ParleySpeech links swift-subprocess: Linux and macOS (see Package.swift).
#if os(Linux) || os(macOS)
    import Foundation
    import ParleyCore
    import Testing

    @testable import ParleySpeech

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    @Suite("Program runner")
    struct ProgramRunnerTests {
        @Test func cancellingTheTaskStopsTheProgram() async throws {
            let (started, starts) = AsyncStream.makeStream(of: pid_t.self)
            let task = Task {
                try await ProgramRunner.run("sleep", ["30"]) { pid in starts.yield(pid) }
            }
            var pids = started.makeAsyncIterator()
            let pid = try #require(await pids.next())
            #expect(kill(pid, 0) == 0, "sleep runs until the task is cancelled")

            task.cancel()
            let result = await task.result
            switch result {
            case .success(let output):
                Issue.record("sleep 30 should not finish: \(output)")
            case .failure(let error):
                let parleyError = try #require(error as? ParleyError)
                #expect(parleyError == ParleyError(.speechCancelled, "sleep was stopped: the task was cancelled"))
            }
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "the child is gone, reaped before run returned")
        }

        @Test func aTaskCancelledBeforehandStartsNothing() async {
            let (started, starts) = AsyncStream.makeStream(of: pid_t.self)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await ProgramRunner.run("sleep", ["30"]) { pid in starts.yield(pid) }
            }
            let result = await task.result
            starts.finish()
            #expect(throws: ParleyError(.speechCancelled, "sleep was stopped: the task was cancelled")) {
                try result.get()
            }
            var pids = started.makeAsyncIterator()
            #expect(await pids.next() == nil, "no program was started")
        }

        @Test func outputLargerThanAPipeIsCollectedWhole() async throws {
            // 200,000 bytes on each stream: several times a pipe's buffer, so reading one after the other would stall.
            let output = try await ProgramRunner.run(
                "sh", ["-c", "head -c 200000 /dev/zero | tr '\\0' o; head -c 200000 /dev/zero | tr '\\0' e >&2"])
            #expect(output.standardOutput == String(repeating: "o", count: 200_000))
            #expect(output.standardError == String(repeating: "e", count: 200_000))
        }

        @Test func aNonZeroExitFailsWithTheLastLinesOfStandardError() async {
            await #expect(throws: ParleyError(.speechEngineFailed, "sh exited with status 3: two | three | four")) {
                try await ProgramRunner.run("sh", ["-c", "printf 'one\\ntwo\\nthree\\nfour\\n' >&2; exit 3"])
            }
            await #expect(throws: ParleyError(.speechEngineFailed, "sh died of signal 15")) {
                try await ProgramRunner.run("sh", ["-c", "kill -TERM $$"])
            }
        }

        @Test func outputBeyondTheLimitStopsTheProgram() async {
            await #expect(
                throws: ParleyError(.speechEngineFailed, "yes wrote more than 1000 bytes of output and was stopped")
            ) {
                // `yes` writes until it is stopped: only the limit ends this call.
                try await ProgramRunner.run("yes", [], limit: 1000)
            }
        }

        @Test func programsAreFoundOnThePathOrByPath() async throws {
            #expect(try await ProgramRunner.run("echo", ["hi"]).standardOutput == "hi\n")
            #expect(try await ProgramRunner.run("/bin/echo", ["by path"]).standardOutput == "by path\n")
            for missing in ["no-such-program", "/no/such/program"] {
                await #expect(
                    throws: ParleyError(
                        .speechEngineUnavailable, "\(missing) is not installed (scripts/test installs it on Debian)")
                ) {
                    try await ProgramRunner.run(missing, [])
                }
            }
        }
    }
#endif
