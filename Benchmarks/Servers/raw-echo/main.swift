import EchoServer
import Foundation

// The raw echo server in a process of its own, for the load benchmark (see `Target.runInOwnProcess`). With
// `--store FILE`, each frame is stored as Parley stores a message before it is echoed (`DurableEcho`).
let arguments = CommandLine.arguments
var durable: DurableEcho?
if let flag = arguments.firstIndex(of: "--store") {
    guard flag + 1 < arguments.count else {
        FileHandle.standardError.write(Data("usage: raw-echo [--store FILE]\n".utf8))
        exit(2)
    }
    durable = try DurableEcho(url: URL(fileURLWithPath: arguments[flag + 1]))
}
try await RawEchoServer.run(storing: durable) { port in
    FileHandle.standardOutput.write(Data("raw echo listening on http://127.0.0.1:\(port)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
