import ArgumentParser
import Foundation
import ParleyServer

/// `parley token`: mints a development token.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a channel JWT (HS256) for development.",
        discussion: """
            This is what an app's backend does: it holds the channel secret and gives the app a short-lived \
            token. Apps never hold the secret. The token's claims are iat, exp, channelId and userId.
            """
    )

    @Option(help: "The channel id.")
    var channel: String

    @Option(help: "The channel secret.")
    var secret: String

    @Option(help: "The user id.")
    var user: String

    @Option(help: "How long the token lives: seconds, or a number with s, m, h or d (30m, 1h); at most a year.")
    var ttl = "30m"

    func run() throws {
        guard let lifetime = DurationArgument(argument: ttl) else {
            throw ValidationError("--ttl \(ttl) is not a duration such as 90s, 30m or 1h (positive, at most a year)")
        }
        print(ChannelToken.mint(channelId: channel, userId: user, secret: secret, lifetime: lifetime.seconds))
    }
}
