#if canImport(Subprocess)
    import Foundation
    import ParleyCore
    import Subprocess
    #if canImport(System)
        import System
    #else
        import SystemPackage
    #endif

    /// Programs whose output or input is a stream: espeak-ng speaking, sox reading a file or a microphone, and
    /// `play` playing what arrives.
    extension ProgramRunner {
        /// Runs `program`, handing out its standard output as it comes.
        ///
        /// The stream ends when the program exits with status 0, and fails as ``run(_:_:limit:started:)`` does
        /// otherwise (sox's "no default audio device" as `speech.audioDeviceUnavailable`). Ending the iteration —
        /// leaving the loop or cancelling its task — stops the program (`SIGTERM`, then `SIGKILL`).
        /// - Parameters:
        ///   - started: Called with the process identifier once the program runs.
        ///   - ended: Called once the program has exited and been reaped (tests wait for it).
        static func streamOutput(
            _ program: String, _ arguments: [String], started: @escaping @Sendable (pid_t) -> Void = { _ in },
            ended: @escaping @Sendable () -> Void = {}
        ) -> SpeechStream<[UInt8]> {
            let (stream, continuation) = SpeechStream<[UInt8]>.makeStream()
            let task = Task {
                defer { ended() }
                do {
                    let result = try await Subprocess.run(
                        configuration(program, arguments), input: .none, output: .sequence,
                        error: .string(limit: outputLimit)
                    ) { execution in
                        started(execution.processIdentifier.value)
                        for try await buffer in execution.standardOutput {
                            continuation.yield(buffer.withUnsafeBytes { Array($0) })
                        }
                    }
                    if Task.isCancelled { throw cancelled(program) }
                    try check(program, result.terminationStatus, standardError: result.standardError)
                    continuation.finish()
                } catch let error as ParleyError {
                    continuation.finish(throwing: error)
                } catch {
                    continuation.finish(
                        throwing: Task.isCancelled
                            ? cancelled(program) : translate(error, program: program, limit: outputLimit))
                }
            }
            continuation.onTermination { task.cancel() }
            return stream
        }

        /// Runs `program`, writing what `next` returns to its standard input until it returns `nil`, then waits for
        /// the program to exit.
        ///
        /// When the program stops reading (it exited, or failed to open its device), writing stops and the
        /// program's own failure is reported. Cancelling the calling task stops the program.
        static func runFeeding(
            _ program: String, _ arguments: [String], next: () async throws(ParleyError) -> [UInt8]?
        ) async throws(ParleyError) {
            _ = brokenPipesIgnored
            if Task.isCancelled { throw cancelled(program) }
            var inputError: ParleyError?
            let status: TerminationStatus
            let standardError: String
            do {
                let result = try await Subprocess.run(
                    configuration(program, arguments), input: .inputWriter, output: .discarded,
                    error: .string(limit: outputLimit)
                ) { execution in
                    let writer = execution.standardInputWriter
                    do {
                        while let bytes = try await next() {
                            _ = try await writer.write(bytes)
                        }
                    } catch let error as ParleyError {
                        inputError = error
                    } catch {
                        // The program closed its input: its exit status says why.
                    }
                    try? await writer.finish()
                }
                status = result.terminationStatus
                standardError = result.standardError
            } catch {
                if Task.isCancelled { throw cancelled(program) }
                throw translate(error, program: program, limit: outputLimit)
            }
            if Task.isCancelled { throw cancelled(program) }
            try check(program, status, standardError: standardError)
            if let inputError { throw inputError }
        }

        /// Writing to a program that has exited (`play` without a sound device) raises `SIGPIPE`, whose default
        /// action ends the whole process. The first feeding turns it off — only when nobody has set a handler — so
        /// the write fails with `EPIPE` instead and the program's own error is reported. Programs started afterwards
        /// get the default back (swift-subprocess spawns with `POSIX_SPAWN_SETSIGDEF`). Servers ignore `SIGPIPE`
        /// anyway.
        static let brokenPipesIgnored: Bool = {
            let previous = signal(SIGPIPE, SIG_IGN)
            if previous != nil {
                // Not the default action: someone chose it; put it back.
                signal(SIGPIPE, previous)
                return false
            }
            return true
        }()

        private static func configuration(_ program: String, _ arguments: [String]) -> Configuration {
            let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
            var options = PlatformOptions()
            options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: gracePeriod)]
            return Configuration(executable: executable, arguments: Arguments(arguments), platformOptions: options)
        }

        /// Throws unless `status` is a clean exit; sox's missing device is `speech.audioDeviceUnavailable`.
        static func check(_ program: String, _ status: TerminationStatus, standardError: String) throws(ParleyError) {
            switch status {
            case .exited(0):
                return
            case .exited(let code):
                if standardError.contains("no default audio device")
                    || (standardError.contains("can't open") && standardError.contains("`default'"))
                {
                    throw ParleyError(
                        .audioDeviceUnavailable, "\(program) found no audio device\(tail(standardError))")
                }
                throw ParleyError(
                    .speechEngineFailed, "\(program) exited with status \(code)\(tail(standardError))")
            case .signaled(let signal):
                throw ParleyError(.speechEngineFailed, "\(program) died of signal \(signal)\(tail(standardError))")
            }
        }
    }
#endif
