import Foundation
import ParleyServerTesting
import Testing

/// One data folder, one server: a second `parley serve` on a folder in use stops at once with a coded message,
/// the first keeps serving, and a folder whose server was killed is free again.
@Suite("One data folder, one server", .serialized, .timeLimit(.minutes(2)))
struct DataFolderTests {
    @Test func aSecondServerOnTheSameFolderExitsNamingTheFolderAndTheHolder() async throws {
        let data = temporaryDataFolder("folder")
        let first = try await ServerProcess.start(["--port", "0", "--data", data.path, "--channel", "one"])
        let port = try await first.listeningPort()
        let lockFile = try String(contentsOf: data.appendingPathComponent(".lock"), encoding: .utf8)
        #expect(lockFile == "\(first.pid)\n", "the lock file names its holder")

        let second = try ServerProcess(serve: ["--port", "0", "--data", data.path, "--channel", "two"])
        let status = try await second.exitStatus(within: .seconds(20))
        #expect(status != nil, "the second server is still running")
        #expect(status != 0)
        let message = second.errors
        #expect(message.contains("server.dataFolderLocked"), "\(message)")
        #expect(message.contains(data.path), "\(message)")
        #expect(message.contains("process \(first.pid)"), "\(message)")
        #expect(!second.output.contains("Parley is listening"), "the second server never listened")

        #expect(first.isRunning)
        let health = try await httpGet("http://127.0.0.1:\(port)/health")
        #expect(health.status == 200 && health.body == "ok", "the first server still serves")

        // The kernel drops a flock when its holder dies, however it dies: no stale lock after kill -9.
        try await first.kill9()
        let third = try await ServerProcess.start(["--port", "0", "--data", data.path, "--channel", "three"])
        let thirdPort = try await third.listeningPort()
        #expect(try await httpGet("http://127.0.0.1:\(thirdPort)/health").status == 200)
        #expect(try String(contentsOf: data.appendingPathComponent(".lock"), encoding: .utf8) == "\(third.pid)\n")
        try await third.stop()
        #expect(!third.isRunning)
    }

    /// `flock` locks belong to an open file, not to a process: a second application in the same process is refused
    /// too, and a stopped one gives the folder back (the in-process restarts of the other suites rely on it).
    @Test func inOneProcessTheFolderIsHeldUntilTheApplicationStops() async throws {
        let data = temporaryDataFolder("folder-in-process")
        let channels = [ChannelConfiguration(id: "echo", skill: .echo)]
        try await InProcessServer.run(channels: channels, dataDirectory: data) { _ in
            do {
                _ = try await buildApplication(
                    configuration: ServerConfiguration(port: 0, dataDirectory: data, channels: channels))
                Issue.record("a second application on the folder was built")
            } catch let error as ParleyError {
                #expect(error.code == .dataFolderLocked)
                #expect(error.message.contains(data.path))
                #expect(error.message.contains("process \(ProcessInfo.processInfo.processIdentifier)"))
            }
        }
        // Stopped gracefully: the folder is free for the next one.
        try await InProcessServer.run(channels: channels, dataDirectory: data) { server in
            let health = try await httpGet("http://127.0.0.1:\(server.port)/health")
            #expect(health.status == 200)
        }
        // An application built and never run gives the folder back when it goes away.
        do {
            _ = try await buildApplication(
                configuration: ServerConfiguration(port: 0, dataDirectory: data, channels: channels))
        }
        let again = try await buildApplication(
            configuration: ServerConfiguration(port: 0, dataDirectory: data, channels: channels))
        _ = again
    }

    @Test func aFolderThatCannotBeCreatedIsACodedError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-not-a-folder-\(UUID())")
        try Data("x".utf8).write(to: file)
        do {
            _ = try await buildApplication(
                configuration: ServerConfiguration(port: 0, dataDirectory: file.appendingPathComponent("data")))
            Issue.record("a data folder inside a file was accepted")
        } catch let error as ParleyError {
            #expect(error.code == .dataFolderUnavailable, "\(error)")
        }
    }
}
