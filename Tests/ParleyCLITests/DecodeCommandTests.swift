import Foundation
import Subprocess
import SystemPackage
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

    /// Runs `parley` to its end, its standard error merged into its output, with `input` on its standard input and
    /// `environment` (by default this process's). Awaited, not waited for: no thread is blocked meanwhile.
    func parley(_ arguments: [String], input: String = "", environment: [String: String]? = nil) async throws -> Run {
        let executable = Executable.path(FilePath(Self.productsDirectory.appendingPathComponent("parley").path))
        let custom = environment.map { variables in
            Environment.custom(
                Dictionary(uniqueKeysWithValues: variables.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
        }
        // The input from a file, not a pipe Subprocess writes: a program that exits without reading it (an unreachable
        // server) left that writer's descriptor open, which swift-subprocess 1.0 stops the whole test process for.
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("parley-input-\(UUID())")
        try Data(input.utf8).write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let descriptor = try FileDescriptor.open(FilePath(inputFile.path), .readOnly)
        let result = try await Subprocess.run(
            executable, arguments: Arguments(arguments), environment: custom ?? .inherit,
            input: .fileDescriptor(descriptor, closeAfterSpawningProcess: true), output: .string(limit: 16 << 20),
            error: .combinedWithOutput)
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return Run(status: status, output: result.standardOutput)
    }

    @Test func summarisesAndReencodesAServerFrame() async throws {
        let file = Self.fixtures.appendingPathComponent("seed/SkillMessage.card.horizontal-pizzas.json").path
        let run = try await parley(["decode", file])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("\(file): BOT message: card — 2 horizontal card(s), 1 action(s)\n{\n"))
        #expect(run.output.contains(#""title": "Cheese Pizza""#))
    }

    @Test func reportsErrorsWithCodeAndPathAndFails() async throws {
        let run = try await parley(
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

    @Test func theSeedsMalformedExampleIsPinpointed() async throws {
        let file = Self.fixtures.appendingPathComponent("malformed/Action.url.seed-trailing-comma.json").path
        let run = try await parley(["decode", "--quiet", file])
        #expect(run.status == 1)
        #expect(
            run.output.contains(
                "error[json.malformed] at $: expected a string key in an object, found '}' (line 6, column 1)"))
    }
}
