#if canImport(Subprocess)
    import Foundation
    import ParleyCore
    import Subprocess
    #if canImport(System)
        import System
    #else
        import SystemPackage
    #endif

    /// Runs a program to its end and collects its output, with swift-subprocess: the way ``EspeakSynthesizer``,
    /// ``PocketsphinxRecognizer``, ``SoxConverter`` and ``SoxPlayer`` drive their Debian tools.
    ///
    /// Compiled only where the `Subprocess` module exists (Linux and macOS, the platforms `Package.swift` links it on);
    /// iOS apps cannot start programs, so there these engines do not exist at all.
    ///
    /// - Standard input is empty; standard output and standard error are read concurrently while the program
    ///   runs, so neither pipe can fill up and stall it. Each may hold at most ``outputLimit`` bytes: a program
    ///   that writes more is stopped and the call fails with `speech.engineFailed`.
    /// - Cancelling the calling task stops the program (`SIGTERM`, then `SIGKILL` after ``gracePeriod``), waits
    ///   for it to exit and throws `speech.cancelled`. Only the program is signalled, not processes it starts
    ///   itself (none of the engines' programs does): like the `Foundation.Process` wrapper this replaces, and
    ///   unlike a new session, it stays in Parley's process group, so a Ctrl-C at a terminal still reaches it.
    enum ProgramRunner {
        /// What a program that exited with status 0 wrote.
        struct Output: Sendable {
            /// Its standard output.
            var standardOutput: String
            /// Its standard error.
            var standardError: String
        }

        /// The most standard output or standard error may hold, 1 MiB: far above what the engines write (espeak-ng's
        /// voice table is about 10 kB; pocketsphinx prints one line per utterance with its log sent to `/dev/null`).
        static let outputLimit = 1 << 20

        /// How long a cancelled program has between `SIGTERM` and `SIGKILL`.
        static let gracePeriod: Duration = .milliseconds(500)

        /// Runs `program` (looked up on `PATH`, or taken as a path when it contains a slash) with `arguments`.
        /// - Parameters:
        ///   - limit: The most bytes standard output or standard error may hold.
        ///   - started: Called with the program's process identifier once it runs (tests use it to check it is gone).
        /// - Throws: `speech.engineUnavailable` when the program is not installed; `speech.engineFailed` when it exits
        ///   with a non-zero status or dies of a signal (the message ends with its last lines of standard error), or
        ///   writes more than `limit` bytes; `speech.cancelled` when the calling task is cancelled.
        static func run(
            _ program: String, _ arguments: [String], limit: Int = outputLimit,
            started: (pid_t) -> Void = { _ in }
        ) async throws(ParleyError) -> Output {
            if Task.isCancelled { throw cancelled(program) }
            let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
            var options = PlatformOptions()
            options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: gracePeriod)]
            let configuration = Configuration(
                executable: executable, arguments: Arguments(arguments), platformOptions: options)
            let status: TerminationStatus
            let output: Output
            do {
                let result = try await Subprocess.run(
                    configuration, input: .none, output: .string(limit: limit), error: .string(limit: limit)
                ) { execution in
                    started(execution.processIdentifier.value)
                }
                status = result.terminationStatus
                output = Output(standardOutput: result.standardOutput, standardError: result.standardError)
            } catch {
                if Task.isCancelled { throw cancelled(program) }
                throw translate(error, program: program, limit: limit)
            }
            if Task.isCancelled { throw cancelled(program) }
            switch status {
            case .exited(0):
                return output
            case .exited(let code):
                throw ParleyError(
                    .speechEngineFailed, "\(program) exited with status \(code)\(tail(output.standardError))")
            case .signaled(let signal):
                throw ParleyError(
                    .speechEngineFailed, "\(program) died of signal \(signal)\(tail(output.standardError))")
            }
        }

        /// The last three lines of `standardError`, after a colon, or nothing when it is empty.
        static func tail(_ standardError: String) -> String {
            let lines = standardError.split(separator: "\n").suffix(3)
            return lines.isEmpty ? "" : ": " + lines.joined(separator: " | ")
        }

        static func cancelled(_ program: String) -> ParleyError {
            ParleyError(.speechCancelled, "\(program) was stopped: the task was cancelled")
        }

        static func translate(_ error: any Error, program: String, limit: Int) -> ParleyError {
            guard let error = error as? SubprocessError else {
                return ParleyError(.speechEngineFailed, "\(program) failed: \(error)", underlying: error)
            }
            switch error.code {
            case .executableNotFound:
                return ParleyError(
                    .speechEngineUnavailable, "\(program) is not installed (scripts/test installs it on Debian)",
                    underlying: error)
            case .outputLimitExceeded:
                return ParleyError(
                    .speechEngineFailed, "\(program) wrote more than \(limit) bytes of output and was stopped",
                    underlying: error)
            default:
                return ParleyError(.speechEngineFailed, "\(program) did not run: \(error)", underlying: error)
            }
        }
    }
#endif
