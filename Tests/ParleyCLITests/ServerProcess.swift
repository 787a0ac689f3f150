import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `parley serve` in a process of its own, as an operator runs it: started, waited for, killed. Its standard output
/// and error go to files, read while it runs.
///
/// Waits are told, never polled: the process's end by its termination handler, and its readiness by its output,
/// which comes through a pipe (``ProcessEvents``) that writes it to the file and wakes what waits for a line.
///
/// Not `Sendable`: a test drives it from its own body.
final class ServerProcess {
    /// Why a process did not do what the test waited for.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let events = ProcessEvents()
    private let stdoutFile: URL
    private let stderrFile: URL

    /// The process id (the server's own, also when started through `/bin/sh -c 'ulimit …; exec …'`).
    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    /// What it printed so far.
    var output: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Starts `parley serve` with `arguments`, under a descriptor limit when one is given, with exactly `environment`
    /// when one is given (else the test process's).
    init(serve arguments: [String], descriptorLimit: Int? = nil, environment: [String: String]? = nil) throws {
        let parley = DecodeCommandTests.productsDirectory.appendingPathComponent("parley").path
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("parley-process-\(UUID())")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        stdoutFile = logs.appendingPathComponent("stdout")
        stderrFile = logs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutFile)
        let stderr = try FileHandle(forWritingTo: stderrFile)
        // Standard output through a pipe: each piece is written to the file, then the output's waiters are woken.
        let pipe = Pipe()
        let events = events
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                Task { await events.outputClosed() }
                return
            }
            stdout.write(data)
            Task { await events.printed() }
        }
        process.standardOutput = pipe
        process.standardError = stderr
        process.terminationHandler = { process in
            let status = process.terminationStatus
            Task { await events.ended(status) }
        }
        process.standardInput = FileHandle.nullDevice
        if let environment { process.environment = environment }
        if let descriptorLimit {
            // `exec` keeps the pid, so that a kill reaches the server, not the shell.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", parley, "serve"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: parley)
            process.arguments = ["serve"] + arguments
        }
        try process.run()
        try? pipe.fileHandleForWriting.close()  // the child has its own copies
        try? stderr.close()
    }

    deinit {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
    }

    /// Starts `parley serve` and waits until it listens.
    static func start(
        _ arguments: [String], descriptorLimit: Int? = nil, environment: [String: String]? = nil,
        within timeout: Duration = .seconds(30)
    ) async throws -> ServerProcess {
        let server = try ServerProcess(serve: arguments, descriptorLimit: descriptorLimit, environment: environment)
        _ = try await server.listeningPort(within: timeout)
        return server
    }

    /// The port of the banner's `Parley is listening on http://127.0.0.1:PORT`, once printed.
    /// - Throws: When the process ends first, or `timeout` passes.
    func listeningPort(within timeout: Duration = .seconds(30)) async throws -> Int {
        try await firstInOutput("a listening banner", within: timeout) { Self.port(after: "http://127.0.0.1:", in: $0) }
    }

    /// What `find` first finds in the output: looked for again each time more is printed (never polled).
    /// - Throws: When the output ends (the process ended) without it, or `timeout` passes.
    func firstInOutput<T>(
        _ what: String, within timeout: Duration = .seconds(30), _ find: (String) -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = await events.printedCount
            let text = output
            if let found = find(text) { return found }
            switch await events.output(after: seen, until: deadline) {
            case .printed:
                continue
            case .closed:
                // The file has all the output now.
                if let found = find(output) { return found }
                let status = await events.exitStatus(until: .now + .seconds(10))
                throw Failure(
                    description: "parley serve exited (\(status.map(String.init) ?? "?")) without \(what): \(errors)")
            case .timedOut:
                throw Failure(description: "no \(what) from parley serve within \(timeout): \(text) \(errors)")
            }
        }
    }

    /// The port after `prefix` (`http://127.0.0.1:`) on a whole line of `text`.
    static func port(after prefix: String, in text: String) -> Int? {
        guard let rest = text.components(separatedBy: prefix).dropFirst().first, rest.contains("\n") else {
            return nil
        }
        return Int(rest.prefix { $0.isNumber })
    }

    /// Waits for the process to end; its exit status, or `nil` when `timeout` passed first.
    func exitStatus(within timeout: Duration) async throws -> Int32? {
        await events.exitStatus(until: ContinuousClock.now + timeout)
    }

    /// Kills the process with `SIGKILL` (no chance to clean up) and waits for it to be gone.
    func kill9() async throws {
        _ = kill(process.processIdentifier, SIGKILL)
        guard try await exitStatus(within: .seconds(10)) != nil else {
            throw Failure(description: "parley serve \(pid) survived SIGKILL for 10 s")
        }
    }

    /// Stops the process with `SIGTERM` (a graceful stop), or `SIGKILL` when it has not stopped within 10 s.
    func stop() async throws {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGTERM)
        if try await exitStatus(within: .seconds(10)) == nil { try await kill9() }
    }

    /// User plus system CPU time the process used so far, in clock ticks (`/proc/PID/stat`, Linux only).
    func cpuTicks() throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, utime 14,
        // stime 15.
        guard let close = stat.lastIndex(of: ")") else { throw Failure(description: "unreadable stat: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw Failure(description: "unreadable stat: \(stat)")
        }
        return user + system
    }
}

/// What a ``ServerProcess`` tells its waiters: more output (written to the file first), the end of its output, and
/// its end. Each wait also ends at its deadline.
actor ProcessEvents {
    /// Why a wait for output ended.
    enum Output {
        /// More is in the file than when the waiter looked.
        case printed
        /// The output has ended (the process closed it, or ended): the file has all of it.
        case closed
        case timedOut
    }

    /// How many pieces of output have been written to the file.
    private(set) var printedCount = 0
    private var closed = false
    private var status: Int32?
    private var outputWaiters: [Int: CheckedContinuation<Output, Never>] = [:]
    private var endWaiters: [Int: CheckedContinuation<Int32?, Never>] = [:]
    private var nextWaiter = 0

    /// A piece of output has been written to the file.
    func printed() {
        printedCount += 1
        wakeOutputWaiters(.printed)
    }

    /// The output has ended.
    func outputClosed() {
        closed = true
        wakeOutputWaiters(.closed)
    }

    /// The process ended with `status`.
    func ended(_ status: Int32) {
        self.status = status
        for waiter in endWaiters.values { waiter.resume(returning: status) }
        endWaiters = [:]
    }

    /// Returns once more output than `seen` pieces (``printedCount`` read before the caller read the file) is in the
    /// file, once the output has ended, or at `deadline`.
    func output(after seen: Int, until deadline: ContinuousClock.Instant) async -> Output {
        if printedCount > seen { return .printed }
        if closed { return .closed }
        let id = newWaiter()
        let alarm = Task {
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self.outputWaiters.removeValue(forKey: id)?.resume(returning: .timedOut)
        }
        defer { alarm.cancel() }
        return await withCheckedContinuation { outputWaiters[id] = $0 }
    }

    /// The exit status once the process has ended, or nil at `deadline`.
    func exitStatus(until deadline: ContinuousClock.Instant) async -> Int32? {
        if let status { return status }
        let id = newWaiter()
        let alarm = Task {
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self.endWaiters.removeValue(forKey: id)?.resume(returning: nil)
        }
        defer { alarm.cancel() }
        return await withCheckedContinuation { endWaiters[id] = $0 }
    }

    private func newWaiter() -> Int {
        defer { nextWaiter += 1 }
        return nextWaiter
    }

    private func wakeOutputWaiters(_ event: Output) {
        for waiter in outputWaiters.values { waiter.resume(returning: event) }
        outputWaiters = [:]
    }
}

/// A complete `GET` answered over HTTP/1.1, with a bound on how long it may take.
func httpGet(_ url: String, timeout: TimeInterval = 5) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: url)!, timeoutInterval: timeout)
    request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
    let (body, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
}

/// A configuration file with the given channels, in a new temporary file.
func configurationFile(_ json: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-config-\(UUID()).json")
    try Data(json.utf8).write(to: file)
    return file.path
}

/// A new temporary data folder (not created: the server creates it).
func temporaryDataFolder(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(name)-\(UUID())")
}

/// Runs `body` with a bound: its result, or a failure once `timeout` has passed (the body is then cancelled).
func withTimeout<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw ServerProcess.Failure(description: "\(what) took more than \(timeout)")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}

/// Runs blocking socket calls on a thread of their own, off the cooperative pool (other suites run beside).
func offloaded<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Plain POSIX TCP to 127.0.0.1, for requests no HTTP client would send.
enum RawTCP {
    /// A TCP socket connecting to 127.0.0.1:`port` from `source` (any loopback address: 127.0.0.2 is another client
    /// as the server sees it); with `blocking: false` the connect may still be in progress.
    static func dial(port: Int, blocking: Bool = true, from source: String = "127.0.0.1") throws -> Int32 {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if !blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let failure = errno
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 || (!blocking && errno == EINPROGRESS) else {
            let failure = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        return fd
    }

    /// Writes all of `text`.
    static func write(_ text: String, to fd: Int32) throws {
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)  // a reset peer is an error here, not a SIGPIPE for the test process
        #else
            let flags: Int32 = 0
        #endif
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            bytes = bytes.dropFirst(written)
        }
    }

    /// `GET path` on a connection of its own (`Connection: close`; an HTTP client might reuse a kept-alive one and
    /// prove nothing about accepting): the status and everything after the head.
    static func get(port: Int, _ path: String, timeout: Int = 10) throws -> (status: Int, body: String) {
        let response = try exchange(
            port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n",
            timeout: timeout, toEnd: true)
        let status = response.hasPrefix("HTTP/1.1 ") ? Int(response.dropFirst(9).prefix(3)) ?? 0 : 0
        let body = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (status, body)
    }

    /// Sends `request` on a new connection and reads until the response head is complete (or with `toEnd`, until
    /// the peer closes), or `timeout` passes.
    static func exchange(
        port: Int, _ request: String, timeout: Int = 5, toEnd: Bool = false, from source: String = "127.0.0.1"
    ) throws -> String {
        let fd = try dial(port: port, from: source)
        defer { close(fd) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        try write(request, to: fd)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while toEnd || !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// Many connections that each send part of a request head and never finish it: what a slow-loris attacker holds.
struct HalfOpenFlood: Sendable {
    /// The connections the kernel completed within the window (the server accepted them or queued them).
    let connected: [Int32]
    /// Connections still in progress when the window closed (their SYNs were dropped: the queue was full).
    let unconnected: [Int32]

    /// Opens `count` connections to `port` at once, and sends each one that connects within `window` the start of
    /// a WebSocket upgrade, without the blank line that ends the head.
    static func open(count: Int, port: Int, window: Duration = .seconds(3)) throws -> HalfOpenFlood {
        var descriptors: [Int32] = []
        for _ in 0..<count { descriptors.append(try RawTCP.dial(port: port, blocking: false)) }
        var open = Set(descriptors)
        var connected: [Int32] = []
        let deadline = ContinuousClock.now + window
        while !open.isEmpty, ContinuousClock.now < deadline {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&polls, nfds_t(polls.count), 50)
            for entry in polls where entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
                open.remove(entry.fd)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(entry.fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { continue }
                connected.append(entry.fd)
                // May fail when the server has already refused the connection (a 503 and a close): still connected.
                let head =
                    "GET /chat/v1/chats/sockets/websdk?channelId=echo&userId=slow\(entry.fd) HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                try? RawTCP.write(head, to: entry.fd)
            }
        }
        return HalfOpenFlood(connected: connected, unconnected: Array(open))
    }

    /// Waits until the server has closed every connected one (end of stream or reset; a refusal it wrote first is
    /// read and dropped) or `timeout` passes; how many it closed.
    func waitUntilClosedByServer(within timeout: Duration) -> Int {
        var open = Set(connected)
        var closed = 0
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty, ContinuousClock.now < deadline {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polls, nfds_t(polls.count), 100)
            for entry in polls where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes {
                    recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    open.remove(entry.fd)
                    closed += 1
                }
            }
        }
        return closed
    }

    func closeAll() {
        for fd in connected + unconnected { close(fd) }
    }
}

extension ChatClient.Configuration {
    /// A client of `user` on `channel` at 127.0.0.1:`port` that notices a dead server within about a second and
    /// reconnects at once, keeping what it sends until it is acknowledged: for the tests that kill servers.
    static func quickToReconnect(port: Int, channel: String, user: String, maximumDelay: Duration) -> Self {
        var configuration = ChatClient.Configuration(
            url: URL(string: "http://127.0.0.1:\(port)")!, channelId: channel, userId: user)
        configuration.storageFolder = temporaryDataFolder("reconnecting-client")
        configuration.heartbeatInterval = .milliseconds(500)
        configuration.pongTimeout = .seconds(1)
        // The opening deadline is for a socket nobody answers; a node killed or stopped refuses at once. 3 s was too
        // short for a first handshake with a server just started while the whole suite loads both cores (the app's
        // first connect fails rather than retries).
        configuration.connectionTimeout = .seconds(15)
        configuration.sequenceGapTimeout = .milliseconds(200)
        configuration.maxSendAttempts = 10_000
        configuration.reconnect = .init(initialDelay: .milliseconds(10), maximumDelay: maximumDelay)
        return configuration
    }
}
