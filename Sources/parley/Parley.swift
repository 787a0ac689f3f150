import ArgumentParser

/// The `parley` command-line tool.
@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parley: a conversational assistant for your app, with a server you run yourself.",
        subcommands: [
            DemoCommand.self, ChatCommand.self, ServeCommand.self, TokenCommand.self, DecodeCommand.self,
            VoiceFlowCommand.self,
        ]
    )
}
