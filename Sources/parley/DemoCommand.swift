import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ParleyClient
import ParleyLanguageModel
import ParleyServer
import ServiceLifecycle

/// `parley demo`: the server with the demo skill on a temporary data folder, and a terminal chat with it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Order a pizza: the demo skill's server and a terminal chat with it, nothing to configure.",
        discussion: """
            Starts `parley serve` with the demo skill on 127.0.0.1 (a free port unless --port) and a temporary \
            data folder, then opens `parley chat` on it. The server stops and its folder is removed when the \
            chat ends (type /quit or press Ctrl-D).
            """
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 0

    @Option(help: "Your name, for the skill's greeting (default: $USER).")
    var name: String?

    @Option(help: "The chat language: en or fr (/lang changes it during the chat).")
    var language = "en"

    @Option(
        help: ArgumentHelp(
            "Chat with the language model --model at this OpenAI-compatible API base instead of the pizza skill "
                + "(such as http://127.0.0.1:11434/v1 for Ollama).", valueName: "url"))
    var llm: String?

    @Option(help: ArgumentHelp("The model of --llm, as its endpoint names it.", valueName: "name"))
    var model: String?

    /// The demo skill, or the language model of `--llm` and `--model`.
    func skill() throws -> SkillReference {
        switch (llm, model) {
        case (nil, nil): return .demo
        case (let url?, let model?):
            let configuration = LanguageModelConfiguration(url: url, model: model)
            do {
                try configuration.validate()
            } catch {
                throw ValidationError("--llm: \(error.message)")
            }
            return .llm(configuration)
        default: throw ValidationError("--llm and --model go together")
        }
    }

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: port, dataDirectory: data,
            channels: [ChannelConfiguration(id: "demo", name: "Pizza demo", skill: try skill())])
        // A key of this run only; the console signs in with a token it signs, for an agent named "Agent".
        let agentKey = (0..<2).map { _ in UUID().uuidString }.joined()
        configuration.agentKey = agentKey
        let agentToken = AgentToken.mint(agent: "Agent", key: agentKey, lifetime: AgentToken.maxLifetime)
        var logger = Logger(label: "parley.demo")
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(configuration: configuration, logger: logger) { port in
            portContinuation.yield(port)
        }
        let services = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let status = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { return Int32(1) }
            if TerminalChat.standardInputIsTerminal {
                TerminalChat.say("Parley demo: the pizza skill at http://127.0.0.1:\(port), channel demo.")
                TerminalChat.say(
                    "Live agents: open http://127.0.0.1:\(port)/agent and sign in with the token \(agentToken), "
                        + "then type \"agent\" here."
                )
            }
            var chat = ChatClient.Configuration(url: .loopback(port: port), channelId: "demo")
            chat.initUserProfile = (name ?? ProcessInfo.processInfo.environment["USER"]).map { Profile(givenName: $0) }
            chat.initUserHiddenMessage = "Hello"
            chat.multiLangChat = MultiLangChat(
                supportedLanguages: [SupportedLanguage(lang: "en"), SupportedLanguage(lang: "fr", label: "Français")],
                primaryLanguage: language)
            chat.enableSendTypingStatus = true
            let status = await TerminalChat.run(chat)
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return status
        }
        if status != 0 { throw ExitCode(status) }
    }
}
