import ArgumentParser
import Foundation
import ParleyClient

/// `parley chat`: a terminal chat with a Parley or Oracle chat server.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a skill in the terminal.",
        discussion: """
            In a terminal: type messages, choose actions by number, /help for commands. With a pipe or a file on \
            standard input: one message per line; the skill's replies are printed as text, then the next line is \
            sent. Example: printf 'Order Pizza\\n' | parley chat --url http://127.0.0.1:8080 --channel demo
            """
    )

    @Option(help: "The chat server, such as http://127.0.0.1:8080 or https://oda.example.com.")
    var url: String

    @Option(help: "The channel id (not needed with --token, whose claims name it).")
    var channel: String?

    @Option(help: "The user id; a random one when absent.")
    var user: String?

    @Option(help: "A JWT for a channel with client authentication (from your backend or `parley token`).")
    var token: String?

    @Option(help: "A message sent when the chat opens, not shown (Oracle's initUserHiddenMessage).")
    var hiddenMessage: String?

    func validate() throws {
        guard let serverURL = URL(string: url), serverURL.scheme != nil, serverURL.host != nil else {
            throw ValidationError("--url \(url) is not a URL such as http://127.0.0.1:8080")
        }
        if channel == nil, token == nil { throw ValidationError("--channel is required without --token") }
    }

    func run() async throws {
        guard let serverURL = URL(string: url) else { throw ValidationError("--url \(url) is not a URL") }
        var configuration: ChatClient.Configuration
        if let token {
            configuration = .init(url: serverURL) { token }
        } else {
            configuration = .init(url: serverURL, channelId: channel ?? "", userId: user)
        }
        configuration.initUserHiddenMessage = hiddenMessage
        let status = await TerminalChat.run(configuration)
        if status != 0 { throw ExitCode(status) }
    }
}

extension TerminalChat {
    /// Runs a terminal chat with a new client on standard input and output.
    static func run(_ configuration: ChatClient.Configuration) async -> Int32 {
        let chat = TerminalChat(client: ChatClient(configuration: configuration), interactive: standardInputIsTerminal)
        return await chat.run(lines: standardInputLines())
    }
}
