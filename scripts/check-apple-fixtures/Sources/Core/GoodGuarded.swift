import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `espeak-ng` with `Foundation.Process` on Linux and macOS; reads /usr/share/espeak-ng-data. None of this in a
/// comment counts: `Process()`, `FileHandle.standardInput`.
enum Runner {
    #if os(Linux) || os(macOS)
        static func run() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
            try process.run()
            _ = FileHandle.standardInput.availableData
            _ = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        }
    #endif

    #if !os(iOS)
        static let voices = "/usr/share/espeak-ng-data"
    #endif

    #if os(iOS)
        static let name = "ios"
    #elseif os(Linux)
        static let spawn = posix_spawnp
    #else
        static let process: Process? = nil
    #endif

    /* A block comment: Process() and "/proc/cpuinfo". */
    static let info = ProcessInfo.processInfo.processIdentifier
    static let label = "Process() is just text here, and so is FileHandle.standardInput"
}

#if canImport(Subprocess)
    import Subprocess

    func runWithSubprocess() async throws {
        _ = try await Subprocess.run(.name("sox"), output: .discarded)
    }
#endif
