import Foundation
import NIOCore
import NIOPosix
import ParleyLanguageModel
import Subprocess
import Testing

/// LiteLLM's proxy (`pip install 'litellm[proxy]'`, installed by scripts/test) as a real OpenAI-compatible server:
/// a model with a `mock_response`, so it answers offline, streamed in pieces as LiteLLM streams every model, behind
/// a master key. It is pure Python and needs no model weights; llama.cpp's server would need a native build and a
/// model file. `PARLEY_REQUIRE_LITELLM=1` makes a missing `litellm` a failure instead of a skip.
enum LiteLLM {
    static var installed: Bool {
        ProcessInfo.processInfo.environment["PARLEY_REQUIRE_LITELLM"] == "1"
            || (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/litellm")
            }
    }

    static let answer = "Hello from the mock model, streamed in pieces."
    static let key = "sk-parley-test"

    /// A free port on loopback, from the kernel.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Runs the proxy for the duration of `body`, which gets its API base.
    static func run(_ body: @Sendable (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-litellm-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.yaml")
        try """
        model_list:
          - model_name: mock
            litellm_params:
              model: openai/mock
              mock_response: "\(answer)"
        litellm_settings:
          telemetry: false
        """.write(to: config, atomically: true, encoding: .utf8)
        let port = try await freePort()
        let environment = Environment.inherit.updating([
            "LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_MASTER_KEY": key, "LITELLM_TELEMETRY": "False",
            "NO_PROXY": "*",
        ])
        let result = try await Subprocess.run(
            .name("litellm"), arguments: ["--config", config.path, "--host", "127.0.0.1", "--port", "\(port)"],
            environment: environment, input: .none, output: .sequence, error: .combinedWithOutput
        ) { execution in
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (ready, isReady) = AsyncStream.makeStream(of: Bool.self)
                group.addTask {
                    var log = ""
                    for try await line in execution.standardOutput.strings() {
                        log += line
                        if line.contains("Uvicorn running on") { isReady.yield(true) }
                    }
                    isReady.yield(false)
                    isReady.finish()
                    _ = log
                }
                var readiness = ready.makeAsyncIterator()
                guard await readiness.next() == true else {
                    Issue.record("litellm ended before it listened")
                    return
                }
                do {
                    try await body("http://127.0.0.1:\(port)/v1")
                } catch {
                    try? execution.send(signal: .terminate)
                    throw error
                }
                try execution.send(signal: .terminate)
                try await group.waitForAll()
            }
        }
        _ = result
    }
}

@Suite(
    "LiteLLM's proxy as the endpoint", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: LiteLLM.installed, "litellm is not installed (scripts/test installs it)"))
struct LiteLLMInteroperabilityTests {
    @Test func aRealServerStreamsTheAnswerWithTheKeyFromTheEnvironment() async throws {
        try await LiteLLM.run { url in
            let skill = try LanguageModelSkill(
                configuration: LanguageModelConfiguration(
                    url: url, model: "mock", apiKeyEnvironment: "LLM_KEY", instructions: "Be brief.",
                    offerChoices: false, handOff: false),
                environment: ["LLM_KEY": LiteLLM.key], limits: EndpointLimits())
            let (pieces, response) = try await collect(skill.stream(.message(.text("hi")), in: .test()))
            #expect(pieces.count > 1, "LiteLLM streams in pieces")
            #expect(pieces.joined() == LiteLLM.answer)
            #expect(response?.messages == [.text(LiteLLM.answer)])

            let wrongKey = try LanguageModelSkill(
                configuration: LanguageModelConfiguration(url: url, model: "mock", apiKeyEnvironment: "LLM_KEY"),
                environment: ["LLM_KEY": "sk-wrong"], limits: EndpointLimits())
            let refused = try await collect(wrongKey.stream(.message(.text("hi")), in: .test()))
            #expect(refused.response?.messages.map(\.errorCode) == ["llm.rejected"])

            let unknownModel = try LanguageModelSkill(
                configuration: LanguageModelConfiguration(url: url, model: "no-such-model", apiKeyEnvironment: "K"),
                environment: ["K": LiteLLM.key], limits: EndpointLimits())
            let unknown = try await collect(unknownModel.stream(.message(.text("hi")), in: .test()))
            #expect(unknown.response?.messages.map(\.errorCode) == ["llm.rejected"])
        }
    }
}
