import EchoServer
import Foundation

// The raw echo server in a process of its own, for the load benchmark (see `Target.runInOwnProcess`). With
// `--store FILE`, each frame is stored as Parley stores a message before it is echoed (`DurableEcho`).
let arguments = CommandLine.arguments
let durable = try arguments.firstIndex(of: "--store").map { index in
    try DurableEcho(url: URL(fileURLWithPath: arguments[index + 1]))
}
try await RawEchoServer.run(storing: durable) { port in
    FileHandle.standardOutput.write(Data("raw echo listening on http://127.0.0.1:\(port)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
