import ArgumentParser
import Foundation
import ParleyCore

/// `parley decode`: checks chat-protocol frames against Parley's typed model.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode chat-protocol frames with Parley's typed model and print them re-encoded.",
        discussion: """
            Reads one JSON frame per file (or per line with --lines; standard input when no file is given), \
            decodes it as a frame sent by a server (--from server, the default) or by a client (--from client), \
            and prints a one-line summary and the frame as Parley re-encodes it. A frame that does not decode \
            prints its error code, JSON path and message, and the command exits with status 1.
            """
    )

    enum Sender: String, ExpressibleByArgument, CaseIterable {
        case server, client
    }

    @Option(help: "Who sent the frames: server or client.")
    var from: Sender = .server

    @Flag(help: "Treat each non-empty line of the input as a frame (JSON Lines).")
    var lines = false

    @Flag(help: "Print only the summary line of each frame.")
    var quiet = false

    @Argument(help: "Files to read; standard input when none.")
    var files: [String] = []

    func run() throws {
        var failures = 0
        for (name, data) in try inputs() {
            let frames = lines ? Self.splitLines(data) : [data[...]]
            for (number, frame) in frames.enumerated() {
                let label = lines ? "\(name):\(number + 1)" : name
                do {
                    let (summary, json) = try decode(frame)
                    print("\(label): \(summary)")
                    if !quiet { print(json.jsonString(pretty: true)) }
                } catch {
                    failures += 1
                    print("\(label): \(error)")
                }
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private func inputs() throws -> [(String, [UInt8])] {
        if files.isEmpty { return [("stdin", Array(FileHandle.standardInput.readDataToEndOfFile()))] }
        return try files.map { path in
            do {
                return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                throw ValidationError("cannot read \(path): \(error.localizedDescription)")
            }
        }
    }

    private static func splitLines(_ data: [UInt8]) -> [ArraySlice<UInt8>] {
        data.split(separator: UInt8(ascii: "\n")).filter { line in
            line.contains { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains($0) }
        }
    }

    private func decode(_ bytes: some Collection<UInt8>) throws(ParleyError) -> (String, JSONValue) {
        switch from {
        case .server:
            let frame = try ServerFrame(decoding: bytes)
            return (FrameSummary.describe(frame), frame.jsonValue)
        case .client:
            let frame = try ClientFrame(decoding: bytes)
            return (FrameSummary.describe(frame), frame.jsonValue)
        }
    }
}
