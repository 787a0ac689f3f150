import Foundation
import ParleyCore

/// Runs a program to its end and collects its output: the way ``EspeakSynthesizer``, ``PocketsphinxRecognizer``
/// and ``SoxConverter`` drive their Debian tools.
struct Subprocess {
    /// What a finished program left behind.
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Finds `name` on `PATH` (or takes it as given when it contains a slash).
    static func locate(_ name: String) -> URL? {
        if name.contains("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `program` with `arguments`; output goes to temporary files (no pipe can fill up and stall it).
    /// Cancelling the calling task terminates the program.
    /// - Throws: `speech.engineUnavailable` when the program is not installed; `speech.engineFailed` on a non-zero
    ///   exit status when `check` is true.
    static func run(_ program: String, _ arguments: [String], check: Bool = true) async throws(ParleyError) -> Output {
        guard let executable = locate(program) else {
            throw ParleyError(
                .speechEngineUnavailable, "\(program) is not installed (scripts/test installs it on Debian)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ParleyError(.speechEngineFailed, "cannot create \(folder.path)", underlying: error)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let status: Int32
        do {
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            defer {
                try? out.close()
                try? err.close()
            }
            status = try await launch(executable, arguments, out, err)
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError(.speechEngineFailed, "\(program) did not start: \(error)", underlying: error)
        }
        let output = Output(
            status: status,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
        if check, status != 0 {
            let detail = output.standardError.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw ParleyError(.speechEngineFailed, "\(program) exited with status \(status): \(detail)")
        }
        return output
    }

    private static func launch(
        _ executable: URL, _ arguments: [String], _ out: FileHandle, _ err: FileHandle
    ) async throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            if process.isRunning { process.terminate() }
        }
    }
}
