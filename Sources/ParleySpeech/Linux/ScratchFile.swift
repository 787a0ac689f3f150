#if canImport(Subprocess) || os(Linux)
    import Foundation
    import ParleyCore

    #if canImport(Glibc)
        import Glibc
        private let writeBytes = Glibc.write
    #elseif canImport(Darwin)
        import Darwin
        private let writeBytes = Darwin.write
    #endif

    /// A file a recognizer writes for a program or library to read at once and then deletes (a grammar).
    ///
    /// Written with `open(2)` and `write(2)`, not Foundation's `String.write(to:)`: Foundation ends every write with
    /// `fsync`, which waits for the disk on the calling thread, one of Swift's two cooperative threads on a two-core
    /// machine, for a file nobody needs to survive a crash. On a busy disk that was seconds per recognition session.
    enum ScratchFile {
        /// Writes `text` as UTF-8 to a new file at `url`, replacing one that is there.
        /// - Throws: ``ParleyError/Code/speechEngineFailed`` naming the file and the system's reason.
        static func write(_ text: String, to url: URL) throws(ParleyError) {
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw failure(url, errno) }
            defer { close(descriptor) }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(url, errno)
                }
                bytes = bytes.dropFirst(written)
            }
        }

        private static func failure(_ url: URL, _ number: Int32) -> ParleyError {
            ParleyError(.speechEngineFailed, "cannot write \(url.path): \(String(cString: strerror(number)))")
        }
    }
#endif
