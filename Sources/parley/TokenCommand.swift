import ArgumentParser
import Foundation
import ParleyServer

/// `parley token`: mints a development channel token, or a live agent's token.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a channel JWT (HS256) for development, or a live agent's token (--agent).",
        discussion: """
            A channel token is what an app's backend makes: it holds the channel secret and gives the app a \
            short-lived token. Apps never hold the secret. The token's claims are iat, exp, channelId and userId.

            With --agent NAME it mints an agent token instead, signed with the server's agent key (--secret, \
            --secret-file or PARLEY_AGENT_KEY): the agent signs in to the agent console with it and acts as NAME, \
            whatever it declares. It lives --ttl (default 8h, at most 24h). See docs/agents.md.
            """
    )

    @Option(help: "The channel id (for a channel token).")
    var channel: String?

    @Option(help: "The channel secret, or the agent key with --agent (better: --secret-file or the environment).")
    var secret: String?

    @Option(help: ArgumentHelp("A file holding the secret (or the agent key).", valueName: "path"))
    var secretFile: String?

    @Option(help: "The user id (for a channel token).")
    var user: String?

    @Option(help: ArgumentHelp("Mint an agent token for the agent with this name.", valueName: "name"))
    var agent: String?

    @Option(
        help: ArgumentHelp(
            "How long the token lives: seconds, or a number with s, m, h or d (30m, 1h); at most a year.",
            discussion: "Default 30m; for an agent token 8h, at most 24h."))
    var ttl: String?

    func validate() throws {
        if secret != nil, secretFile != nil {
            throw ValidationError("--secret and --secret-file go one at a time")
        }
        if let agent {
            guard channel == nil, user == nil else {
                throw ValidationError("--agent mints an agent token: no --channel or --user")
            }
            guard AgentToken.isValidName(agent) else {
                throw ValidationError(
                    "--agent is a name of 1 to \(AgentToken.maxNameLength) characters, not blank, no control characters"
                )
            }
        } else if channel == nil || user == nil {
            throw ValidationError("a channel token needs --channel and --user (or --agent NAME for an agent token)")
        }
    }

    func run() throws {
        let defaultTTL = agent == nil ? "30m" : "8h"
        guard let lifetime = DurationArgument(argument: ttl ?? defaultTTL) else {
            throw ValidationError(
                "--ttl \(ttl ?? defaultTTL) is not a duration such as 90s, 30m or 1h (positive, at most a year)")
        }
        let secret = try resolvedSecret()
        if let agent {
            guard lifetime.seconds <= AgentToken.maxLifetime else {
                throw ValidationError("--ttl: an agent token lives at most 24h")
            }
            print(AgentToken.mint(agent: agent, key: secret, lifetime: lifetime.seconds))
        } else if let channel, let user {
            print(ChannelToken.mint(channelId: channel, userId: user, secret: secret, lifetime: lifetime.seconds))
        }
    }

    /// `--secret`, else the text of `--secret-file`, else (for an agent token) `PARLEY_AGENT_KEY`.
    private func resolvedSecret() throws -> String {
        if let secret, !secret.isEmpty { return secret }
        if let secretFile {
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: secretFile), encoding: .utf8)
            } catch {
                throw ValidationError("--secret-file \(secretFile): \(error.localizedDescription)")
            }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ValidationError("--secret-file \(secretFile) is empty") }
            return trimmed
        }
        if agent != nil, let key = ProcessInfo.processInfo.environment["PARLEY_AGENT_KEY"], !key.isEmpty {
            return key
        }
        throw ValidationError(
            agent == nil
                ? "--secret or --secret-file is needed"
                : "the agent key is needed: --secret, --secret-file or PARLEY_AGENT_KEY")
    }
}
