import Foundation
import Testing

/// Runs the built `parley` executable, as a user would.
@Suite("parley decode")
struct DecodeCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ParleyCoreTests/Fixtures").standardized

    /// Where SwiftPM put the built products, `parley` among them.
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    struct Run {
        let status: Int32
        let output: String
    }

    func parley(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent("parley")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    @Test func summarisesAndReencodesAServerFrame() throws {
        let file = Self.fixtures.appendingPathComponent("seed/SkillMessage.card.horizontal-pizzas.json").path
        let run = try parley(["decode", file])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("\(file): BOT message: card — 2 horizontal card(s), 1 action(s)\n{\n"))
        #expect(run.output.contains(#""title": "Cheese Pizza""#))
    }

    @Test func reportsErrorsWithCodeAndPathAndFails() throws {
        let run = try parley(
            ["decode", "--from", "client", "--lines", "--quiet"],
            input: """
                {"state":{"type":"ping"}}

                {"messagePayload":{"type":"text"}}
                {"profile":{"languageTag":"fr"}}
                """)
        #expect(run.status == 1)
        #expect(
            run.output == """
                stdin:1: state ping
                stdin:2: error[decode.missingField] at $.messagePayload.text: missing required field "text"
                stdin:3: profile update (languageTag)

                """)
    }

    @Test func theSeedsMalformedExampleIsPinpointed() throws {
        let file = Self.fixtures.appendingPathComponent("malformed/Action.url.seed-trailing-comma.json").path
        let run = try parley(["decode", "--quiet", file])
        #expect(run.status == 1)
        #expect(
            run.output.contains(
                "error[json.malformed] at $: expected a string key in an object, found '}' (line 6, column 1)"))
    }
}
