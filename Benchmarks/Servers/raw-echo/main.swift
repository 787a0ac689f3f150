import EchoServer
import Foundation

// The raw echo server in a process of its own, for the load benchmark (see `Target.runInOwnProcess`).
try await RawEchoServer.run { port in
    FileHandle.standardOutput.write(Data("raw echo listening on http://127.0.0.1:\(port)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
