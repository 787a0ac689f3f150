import EchoServer
import Foundation

// The raw echo server in a process of its own, for the load benchmark (see `Target.runInOwnProcess`). With
// `--store FILE`, each frame is stored as Parley stores a message before it is echoed (`DurableEcho`); with
// `--postgres URL`, as a node on PostgreSQL must at the least (`PostgresDurableEcho`, the PostgreSQL floor).
let arguments = CommandLine.arguments
func value(of flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag) else { return nil }
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("usage: raw-echo [--store FILE | --postgres URL]\n".utf8))
        exit(2)
    }
    return arguments[index + 1]
}
var durable: (any EchoStorage)?
if let file = value(of: "--store") {
    durable = try DurableEcho(url: URL(fileURLWithPath: file))
} else if let database = value(of: "--postgres") {
    durable = try await PostgresDurableEcho(url: database)
}
try await RawEchoServer.run(storing: durable) { port in
    FileHandle.standardOutput.write(Data("raw echo listening on http://127.0.0.1:\(port)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
