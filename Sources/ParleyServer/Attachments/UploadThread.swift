import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread of its own, at a lower CPU priority, that does the work of uploads: parsing the multipart stream
/// (as the task executor of the upload, ``onUploadThread(_:)``) and writing the file (``UploadFile``).
///
/// The chats run on Swift's cooperative pool, which has one thread per core (two on a small server). Parsing and
/// writing 25 MiB uploads there (or on swift-nio's file-system threads, at normal priority) takes the CPU from the
/// chats, and the operating system cannot tell the two apart. On this thread (`nice` 10 on Linux) the scheduler
/// gives a waiting chat the CPU at once and the uploads what is left: uploads slow down when chats are busy, chats
/// do not. Nothing else runs here, so blocking file writes stall nobody. The thread is shared by every server in the
/// process and lives as long as the process.
final class UploadThread: Sendable {
    /// The process's upload thread.
    static let shared = UploadThread()

    private enum Work: Sendable {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private let queue = NIOLockedValueBox<[Work]>([])
    private let available = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in loop() }
        thread.name = "parley-uploads"
        thread.start()
    }

    /// Runs `work` on the upload thread and returns its result.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit(.closure({ continuation.resume(with: Result { try work() }) }))
        }
    }

    private func submit(_ work: Work) {
        queue.withLockedValue { $0.append(work) }
        available.signal()
    }

    private func loop() {
        #if canImport(Glibc)
            // Linux gives each thread its own nice value, and `who` 0 is the calling thread (not the process);
            // nice 10 weighs about a tenth of a normal thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            available.wait()
            guard let work = queue.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            switch work {
            case .job(let job):
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            case .closure(let closure):
                closure()
            }
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension UploadThread: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }
}

/// Runs `operation` with the upload thread as its task executor (where the platform has task executors), so that
/// the parsing between its suspension points happens there.
func onUploadThread<Value>(_ operation: () async throws -> Value) async throws -> Value {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
        try await withTaskExecutorPreference(UploadThread.shared, operation: operation)
    } else {
        try await operation()
    }
}

/// A new file an upload is written to, written on the ``UploadThread`` with plain POSIX calls.
struct UploadFile: Sendable {
    /// Where the file is.
    let path: String
    private let descriptor: Int32

    /// An error of the file system, with its `errno`.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let number: Int32
        var description: String { "\(operation) failed: \(String(cString: strerror(number)))" }
    }

    /// Creates the file at `path`; it must not exist.
    static func create(at path: String) async throws -> UploadFile {
        try await UploadThread.shared.run {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure(operation: "open", number: errno) }
            return UploadFile(path: path, descriptor: descriptor)
        }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: ByteBuffer, at offset: Int64) async throws {
        let descriptor = descriptor
        try await UploadThread.shared.run {
            try bytes.withUnsafeReadableBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var done = 0
                while done < buffer.count {
                    let count = pwrite(
                        descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw Failure(operation: "write", number: errno)
                    }
                    done += count
                }
            }
        }
    }

    /// Closes the file.
    func close() async {
        let descriptor = descriptor
        _ = try? await UploadThread.shared.run {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
    }
}
