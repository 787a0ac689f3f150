import EchoServer
import Foundation

// The local language-model endpoint of `llm.streams` in a process of its own (`ModelEndpoint`): an OpenAI-compatible
// `POST /v1/chat/completions` whose answers are `--pieces N` chunks ("w0 ", "w1 ", …), `--pause-ms MS` apart.
let arguments = CommandLine.arguments
func number(_ flag: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: flag) else { return value }
    guard index + 1 < arguments.count, let number = Int(arguments[index + 1]), number >= 0 else {
        FileHandle.standardError.write(Data("usage: model-endpoint [--pieces N] [--pause-ms MS]\n".utf8))
        exit(2)
    }
    return number
}
let endpoint = ModelEndpoint(
    pieces: max(1, number("--pieces", default: 20)), pause: .milliseconds(number("--pause-ms", default: 50)))
try await endpoint.run { base in
    FileHandle.standardOutput.write(Data("model endpoint listening on \(base)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
