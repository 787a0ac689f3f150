#if canImport(Subprocess)
    import Foundation
    import ParleyCore
    import Subprocess
    #if canImport(System)
        import System
    #else
        import SystemPackage
    #endif

    /// The one worker process of a ``WhisperRecognizer``, shared by its sessions: started when first needed (or by
    /// ``WhisperRecognizer/start()``), started again when it died, and given one request at a time.
    ///
    /// Requests never pile up in the pipe: a final decode waits its turn (first come, first served), and a partial
    /// decode is made only when the worker is idle and nobody waits — otherwise it is skipped — so a final waits at
    /// most for the decodes of the other admitted sessions.
    actor WhisperWorker {
        /// What starts the worker.
        struct Launch: Sendable, Hashable {
            var python: String
            var script: URL
            var model: URL
            var threads: Int
            var computeType: String
        }

        /// A started worker: where its requests go.
        private struct Process: Sendable {
            let generation: Int
            let pid: Int32
            let input: AsyncStream<[UInt8]>.Continuation
        }

        /// Why a request got no reply.
        private enum Failure: Error {
            /// The worker exited or was killed while the request was in it: worth one more try on a new worker.
            case died(ParleyError)
            /// The worker answered with an error, or could not be started.
            case refused(ParleyError)

            var error: ParleyError {
                switch self {
                case .died(let error), .refused(let error): error
                }
            }
        }

        let launch: Launch
        let maxSessions: Int
        private var generation = 0
        private var launching: (generation: Int, pid: Int32?, input: AsyncStream<[UInt8]>.Continuation)?
        private var process: Process?
        private var startWaiters: [CheckedContinuation<Result<Process, ParleyError>, Never>] = []
        private var pending: [Int: CheckedContinuation<Result<WhisperReply, Failure>, Never>] = [:]
        private var strays: [WhisperReply] = []
        private var strayWaiters: [CheckedContinuation<WhisperReply, Never>] = []
        private var nextID = 1
        private var busy = false
        private var turnWaiters: [CheckedContinuation<Void, Never>] = []
        private var errorTail: [String] = []
        private var sessions = 0
        /// How many worker processes have been started.
        private(set) var launches = 0

        init(launch: Launch, maxSessions: Int) {
            self.launch = launch
            self.maxSessions = max(1, maxSessions)
        }

        /// The running worker's process identifier, if one runs.
        var processIdentifier: Int32? { process?.pid }

        // MARK: Sessions

        /// Admits one more session, or refuses it with `speech.engineBusy`.
        func admit() throws(ParleyError) {
            guard sessions < maxSessions else {
                throw ParleyError(
                    .speechEngineBusy,
                    "the whisper engine runs as many recognitions as it allows (\(maxSessions)); try again shortly")
            }
            sessions += 1
        }

        /// Ends an admitted session.
        func leave() {
            sessions = max(0, sessions - 1)
        }

        // MARK: Requests

        /// Decodes `audio`, waiting for the worker's turn; a worker that dies during the request is started again
        /// and asked once more.
        func decode(_ request: WhisperRequest, audio: [Int16]) async throws(ParleyError) -> WhisperReply {
            await takeTurn()
            defer { passTurn() }
            return try await exchange(request, audio: audio)
        }

        /// Decodes `audio` if the worker is idle and nobody waits for it; nil otherwise (a partial result is skipped
        /// rather than delay a final).
        func decodeIfIdle(_ request: WhisperRequest, audio: [Int16]) async throws(ParleyError) -> WhisperReply? {
            guard !busy, turnWaiters.isEmpty else { return nil }
            busy = true
            defer { passTurn() }
            return try await exchange(request, audio: audio)
        }

        private func exchange(_ request: WhisperRequest, audio: [Int16]) async throws(ParleyError) -> WhisperReply {
            let payload = WhisperFrames.pcm(audio)
            for attempt in 0..<2 {
                let process = try await running()
                var request = request
                request.id = nextID
                nextID += 1
                let frame = WhisperFrames.encode(header: request, payload: payload)
                let id = request.id
                let result = await withCheckedContinuation { continuation in
                    pending[id] = continuation
                    process.input.yield(frame)
                }
                switch result {
                case .success(let reply):
                    return reply
                case .failure(.died) where attempt == 0:
                    continue
                case .failure(let failure):
                    throw failure.error
                }
            }
            throw ParleyError(.speechEngineFailed, "the Whisper worker died twice on one request")
        }

        /// Starts the worker now if none runs, and waits until its model is loaded.
        /// - Throws: `speech.engineUnavailable` (no model, no python3, no faster-whisper), `speech.engineFailed`
        ///   (the model cannot be loaded).
        func start() async throws(ParleyError) {
            _ = try await running()
        }

        /// Ends the worker (its input is closed; it exits when it has answered what it was asked).
        func shutdown() {
            process?.input.finish()
            launching?.input.finish()
        }

        // MARK: Test hooks

        /// Writes `bytes` to the worker as they are (tests send it malformed frames).
        func sendRaw(_ bytes: [UInt8]) async throws(ParleyError) {
            await takeTurn()
            defer { passTurn() }
            try await running().input.yield(bytes)
        }

        /// The next reply that answers no pending request (a refusal of a malformed frame).
        func nextStray() async -> WhisperReply {
            if !strays.isEmpty { return strays.removeFirst() }
            return await withCheckedContinuation { strayWaiters.append($0) }
        }

        // MARK: Turns

        private func takeTurn() async {
            if busy {
                await withCheckedContinuation { turnWaiters.append($0) }
            } else {
                busy = true
            }
        }

        private func passTurn() {
            if turnWaiters.isEmpty {
                busy = false
            } else {
                turnWaiters.removeFirst().resume()
            }
        }

        // MARK: The process

        private func running() async throws(ParleyError) -> Process {
            if let process { return process }
            let result = await withCheckedContinuation { continuation in
                startWaiters.append(continuation)
                if launching == nil { begin() }
            }
            return try result.get()
        }

        private func begin() {
            if let problem = WhisperRecognizer.modelProblem(in: launch.model) {
                finishStarting(.failure(problem))
                return
            }
            generation += 1
            launches += 1
            errorTail = []
            let generation = generation
            let (input, continuation) = AsyncStream<[UInt8]>.makeStream()
            launching = (generation, nil, continuation)
            let launch = launch
            Task { await Self.run(launch, generation: generation, input: input, worker: self) }
        }

        private func finishStarting(_ result: Result<Process, ParleyError>) {
            let waiters = startWaiters
            startWaiters = []
            for waiter in waiters { waiter.resume(returning: result) }
        }

        fileprivate func attached(generation: Int, pid: Int32) {
            guard launching?.generation == generation else { return }
            launching?.pid = pid
        }

        fileprivate func received(_ header: Data, generation: Int) {
            guard let reply = try? JSONDecoder().decode(WhisperReply.self, from: header) else {
                errorTail.append("undecodable reply: \(String(decoding: header.prefix(200), as: UTF8.self))")
                return
            }
            if let event = reply.event {
                guard let launching, launching.generation == generation else { return }
                if event == "ready" {
                    let started = Process(
                        generation: generation, pid: launching.pid ?? reply.pid ?? 0, input: launching.input)
                    process = started
                    self.launching = nil
                    finishStarting(.success(started))
                } else {
                    let failure = reply.error ?? WhisperReply.Failure(code: "unknown", message: "no reason given")
                    let code: ParleyError.Code =
                        failure.code == "model.broken" ? .speechEngineFailed : .speechEngineUnavailable
                    finishStarting(
                        .failure(
                            ParleyError(
                                code, "the Whisper worker could not start (\(failure.code)): \(failure.message)")))
                }
                return
            }
            guard let id = reply.id, let continuation = pending.removeValue(forKey: id) else {
                if strayWaiters.isEmpty {
                    strays.append(reply)
                } else {
                    strayWaiters.removeFirst().resume(returning: reply)
                }
                return
            }
            if let failure = reply.error {
                continuation.resume(
                    returning: .failure(
                        .refused(
                            ParleyError(
                                .speechEngineFailed,
                                "the Whisper worker refused the request (\(failure.code)): \(failure.message)"))))
            } else {
                continuation.resume(returning: .success(reply))
            }
        }

        fileprivate func errorOutput(_ bytes: [UInt8], generation: Int) {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            errorTail = Array((errorTail + lines).suffix(5))
        }

        fileprivate func exited(generation: Int, reason: String, notFound: Bool) {
            let tail = ProgramRunner.tail(errorTail.joined(separator: "\n"))
            if let launching, launching.generation == generation {
                self.launching = nil
                launching.input.finish()
                let error =
                    notFound
                    ? ParleyError(
                        .speechEngineUnavailable,
                        "\(launch.python) is not installed: the whisper engine runs its worker with it")
                    : ParleyError(.speechEngineFailed, "the Whisper worker \(reason) before it was ready\(tail)")
                finishStarting(.failure(error))
            }
            guard let process, process.generation == generation else { return }
            self.process = nil
            process.input.finish()
            let error = ParleyError(.speechEngineFailed, "the Whisper worker \(reason)\(tail)")
            let waiting = pending
            pending = [:]
            for continuation in waiting.values { continuation.resume(returning: .failure(.died(error))) }
        }

        /// Runs one worker process until it exits, handing its replies to `worker`.
        private static func run(
            _ launch: Launch, generation: Int, input: AsyncStream<[UInt8]>, worker: WhisperWorker
        ) async {
            var arguments = [launch.script.path, "--model", launch.model.path, "--compute-type", launch.computeType]
            if launch.threads > 0 { arguments += ["--threads", String(launch.threads)] }
            let executable: Executable =
                launch.python.contains("/") ? .path(FilePath(launch.python)) : .name(launch.python)
            var options = PlatformOptions()
            options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .milliseconds(500))]
            let configuration = Configuration(
                executable: executable, arguments: Arguments(arguments),
                environment: .inherit.updating(["HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"]),
                platformOptions: options)
            do {
                let result = try await Subprocess.run(
                    configuration, input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    let pid = execution.processIdentifier.value
                    await worker.attached(generation: generation, pid: pid)
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            var parser = WhisperFrameParser()
                            do {
                                for try await chunk in execution.standardOutput {
                                    let headers = try parser.append(chunk.withUnsafeBytes { Array($0) })
                                    for header in headers { await worker.received(header, generation: generation) }
                                }
                            } catch {
                                await worker.errorOutput(Array("\(error)".utf8), generation: generation)
                            }
                        }
                        group.addTask {
                            do {
                                for try await chunk in execution.standardError {
                                    await worker.errorOutput(
                                        chunk.withUnsafeBytes { Array($0) }, generation: generation)
                                }
                            } catch {}
                        }
                        group.addTask {
                            let writer = execution.standardInputWriter
                            for await bytes in input {
                                do {
                                    _ = try await writer.write(bytes)
                                } catch {
                                    break
                                }
                            }
                            try? await writer.finish()
                        }
                        // Its output ends when the worker exits (or it wrote something that is not a frame): stop it
                        // for sure, and stop feeding it.
                        await group.next()
                        try? execution.send(signal: .kill)
                        group.cancelAll()
                    }
                }
                let reason =
                    switch result.terminationStatus {
                    case .exited(let code): "exited with status \(code)"
                    case .signaled(let signal): "was killed by signal \(signal)"
                    }
                await worker.exited(generation: generation, reason: reason, notFound: false)
            } catch {
                let notFound = (error as? SubprocessError)?.code == .executableNotFound
                await worker.exited(generation: generation, reason: "did not run: \(error)", notFound: notFound)
            }
        }
    }
#endif
