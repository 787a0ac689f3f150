import Foundation
import NIOConcurrencyHelpers
import ParleyCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a data folder, held from ``buildApplication(configuration:logger:onServerRunning:)`` until
/// the application stops: one data folder, one server.
///
/// The lock is `flock(2)` on the file `.lock` in the folder, which also holds the holder's process id for the
/// message a second server prints. The kernel drops the lock when its holder dies however it dies (`kill -9`
/// included), so a crashed server never leaves a stale lock; the file itself stays, empty of meaning. Locks of
/// `flock` belong to an open file description, so a second application in the same process is refused too.
///
/// It is a `Service` so that the application's service group keeps it alive and releases it last: put it first in
/// `services:`, which are shut down in reverse order, after the server has stopped and the hub has finished.
final class DataFolderLock: Service, Sendable {
    /// The descriptor of `.lock` while the lock is held; `nil` once released.
    private let descriptor: NIOLockedValueBox<Int32?>
    /// The folder locked.
    let folder: URL

    /// Takes the lock on `folder`, creating the folder when missing, or throws: at once when another process holds
    /// it, after half a second when this process does.
    /// - Throws: ``ParleyError/Code/dataFolderLocked`` when another holder has it;
    ///   ``ParleyError/Code/dataFolderUnavailable`` when the folder or its lock file cannot be made.
    init(folder: URL) throws(ParleyError) {
        self.folder = folder
        let path = folder.appendingPathComponent(".lock").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ParleyError(
                .dataFolderUnavailable, "cannot create the data folder \(folder.path): \(error)", underlying: error)
        }
        // Close-on-exec: a child process must never inherit the lock and keep the folder after this server dies.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ParleyError(.dataFolderUnavailable, "cannot open \(path): \(reason)")
        }
        var failure = Self.tryLock(fd)
        // A process being started holds a copy of every descriptor of this one until it runs its program (close-on-exec
        // closes them only then), so a lock an application of this process just gave back can still be held for a
        // moment by a child another part of the process is spawning. When the holder is this process, look again for
        // a short while before refusing.
        if failure == EWOULDBLOCK, Self.readHolder(fd) == getpid() {
            for _ in 0..<Self.ownHolderRetries where failure == EWOULDBLOCK {
                usleep(Self.ownHolderRetryMicroseconds)
                failure = Self.tryLock(fd)
            }
        }
        guard failure == 0 else {
            let holder = Self.readHolder(fd)
            close(fd)
            if failure == EWOULDBLOCK {
                let who = holder.map { "another Parley server (process \($0))" } ?? "another Parley server"
                throw ParleyError(
                    .dataFolderLocked,
                    "the data folder \(folder.path) is in use by \(who); stop that server or give this one a data "
                        + "folder of its own")
            }
            throw ParleyError(
                .dataFolderUnavailable, "cannot lock \(path): \(String(cString: strerror(failure)))")
        }
        // The holder's pid, for the message of the next server refused; best effort, the lock is what counts.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        descriptor = NIOLockedValueBox(fd)
    }

    deinit {
        release()
    }

    /// Holds the lock until the service group shuts down (or is cancelled), then releases it.
    func run() async throws {
        try? await gracefulShutdown()
        release()
    }

    /// Gives the folder up; later calls do nothing.
    func release() {
        descriptor.withLockedValue { descriptor in
            guard let fd = descriptor else { return }
            // Closing the last descriptor of the open file description drops the flock; no unlink, which would
            // let a third server lock a new file while a second still waits on the old one.
            close(fd)
            descriptor = nil
        }
    }

    /// How often, and how far apart, a lock held by this very process is tried again (half a second in all).
    static let ownHolderRetries = 100
    static let ownHolderRetryMicroseconds: UInt32 = 5_000

    /// Tries to take the lock without waiting: 0, or the `errno` of the failure (`EWOULDBLOCK` when it is held).
    private static func tryLock(_ fd: Int32) -> Int32 {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else { return errno }
        }
        return 0
    }

    /// The process id written in the lock file by its holder, if it reads as one.
    private static func readHolder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
    }
}
