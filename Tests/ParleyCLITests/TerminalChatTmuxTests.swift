import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `parley chat` in a real terminal, as a person uses it: a tmux session runs the built `parley` against a
/// `parley serve` process; the test types with `send-keys` and reads the screen with `capture-pane`. What it reads
/// is what ParleyUI's model made: the connection banner, the title, timestamps, numbered buttons, the language
/// menu, texts in the chosen language.
@Suite("parley chat in tmux", .serialized, .timeLimit(.minutes(3)))
struct TerminalChatTmuxTests {
    /// A tmux server of the test's own (its own socket), with one session running a command.
    final class Terminal {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tmux-\(UUID())").path
        let session = "chat"

        init(running command: [String]) throws {
            let shell = ["/bin/sh", "-c", #""$0" "$@"; echo "[exit $?]"; sleep 600"#]
            try tmux(["new-session", "-d", "-s", session, "-x", "200", "-y", "60"] + shell + command)
        }

        deinit {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(atPath: socket)
        }

        /// Runs `tmux -S SOCKET ARGUMENTS…`; its output.
        ///
        /// Spawned and reaped here (`posix_spawnp`, `waitpid`), not with `Foundation.Process`, which left the tmux
        /// client that starts a server unreaped; and the output goes to a file, not a pipe, since the server that
        /// `new-session` forks keeps the descriptors it was given.
        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tmux-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let words = ["tmux", "-S", socket, "-f", "/dev/null"] + arguments
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            // No blocked signals: a thread of the test process may block SIGCHLD, and a tmux server that inherits
            // that mask never learns that the chat exited.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGCHLD)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
            guard spawned == 0 else { throw ServerProcess.Failure(description: "cannot run tmux: \(spawned)") }
            // Polled, with a bound: tmux answers at once, and a test must not hang on it.
            let deadline = ContinuousClock.now + .seconds(10)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard ContinuousClock.now < deadline else {
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    throw ServerProcess.Failure(description: "tmux \(arguments.joined(separator: " ")) hangs")
                }
                usleep(2000)
            }
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            // Exited normally with status 0: the low 7 bits are the signal, the next 8 the status.
            guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
                throw ServerProcess.Failure(description: "tmux \(arguments.joined(separator: " ")): \(status) \(text)")
            }
            return text
        }

        /// Types `text` and presses Enter.
        func type(_ text: String) throws {
            try tmux(["send-keys", "-t", session, "-l", text])
            try tmux(["send-keys", "-t", session, "Enter"])
        }

        /// The whole screen and its scrollback, wrapped lines joined.
        func screen() throws -> String {
            try tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", session])
        }

        /// Waits until the screen shows what `condition` looks for, or fails after `timeout` with the screen.
        @discardableResult
        func waitFor(
            _ what: String, within timeout: Duration = .seconds(20), _ condition: (String) -> Bool
        ) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            while true {
                let text = try screen()
                if condition(text) { return text }
                guard ContinuousClock.now < deadline else {
                    throw ServerProcess.Failure(description: "no \(what) within \(timeout); the screen:\n\(text)")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Waits for `text` on the screen, below the last line that is exactly `after` when given (what the person
        /// typed: the screen keeps what came before).
        @discardableResult
        func waitFor(_ text: String, after: String? = nil, within timeout: Duration = .seconds(20)) async throws
            -> String
        {
            try await waitFor("\"\(text)\"", within: timeout) { screen in
                guard let after else { return screen.contains(text) }
                return Self.below(after, in: screen).contains(text)
            }
        }

        /// The screen's text below the last line that is exactly `line`; empty when there is none.
        static func below(_ line: String, in screen: String) -> String {
            let lines = screen.components(separatedBy: "\n")
            guard let index = lines.lastIndex(where: { $0.trimmingCharacters(in: .whitespaces) == line }) else {
                return ""
            }
            return lines[(index + 1)...].joined(separator: "\n")
        }

        /// The command's exit status, once it printed it, or `nil` while it runs. The command runs under a shell that
        /// prints `[exit STATUS]` when it ends, as a person sees it (tmux's own `pane_dead_status` is not reliable
        /// when its server starts from a test process).
        func exitStatus() throws -> Int? {
            let screen = try screen()
            guard let rest = screen.components(separatedBy: "[exit ").dropFirst().last else { return nil }
            return Int(rest.prefix { $0.isNumber })
        }
    }

    @Test func aPersonOrdersInATerminalAndSwitchesToFrench() async throws {
        let data = temporaryDataFolder("tmux")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(["--port", "0", "--data", data.path, "--channel", "demo"])
        let port = try await server.listeningPort()
        let parley = DecodeCommandTests.productsDirectory.appendingPathComponent("parley").path
        let terminal = try Terminal(running: [
            parley, "chat", "--url", "http://127.0.0.1:\(port)", "--channel", "demo", "--user", "pat",
            "--hidden-message", "Hello", "--languages", "en,fr",
        ])

        // The title, the banner (showConnectionStatus) and the greeting, with buttons numbered from 1.
        try await terminal.waitFor("Ask — type a message")
        try await terminal.waitFor("[Connected]")
        try await terminal.waitFor("Welcome to Parley Pizza.")
        try await terminal.waitFor("  [1] Order Pizza")

        // An order: the cards with their buttons numbered, each message's absolute timestamp (timestampFormat).
        try terminal.type("Order Pizza")
        let cards = try await terminal.waitFor("• Hawaiian Pizza", after: "Order Pizza")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en")
        formatter.dateFormat = "MMMM d, yyyy"
        let today = formatter.string(from: Date())
        let yesterday = formatter.string(from: Date().addingTimeInterval(-86_400))
        let reply = Terminal.below("Order Pizza", in: cards).split(separator: "\n")
        #expect(
            reply.contains { line in
                line.hasPrefix("  ") && (line.contains(today) || line.contains(yesterday))
            }, "a timestamp line such as \"  \(today) 10:30\"")
        // The Hawaiian's "Order Large", by the number on screen.
        let hawaiian = reply.drop { !$0.hasPrefix("• Hawaiian Pizza") }
        let orderLarge = hawaiian.first { $0.contains("] Order Large") }
        let number = orderLarge.flatMap { $0.split(separator: "[").last?.split(separator: "]").first }
        #expect(number != nil, "no numbered Order Large under the Hawaiian pizza: \(reply)")
        try terminal.type(String(number ?? "1"))
        try await terminal.waitFor("large hawaiian pizza", after: "Order Pizza")

        // The language menu (multiLangChat), then French: the model's texts follow the chosen language.
        try terminal.type("/lang")
        let menu = try await terminal.waitFor("(/lang fr)", after: "/lang")
        #expect(menu.contains("Language:"))
        #expect(menu.contains("  * Detect Language (/lang detect)") || menu.contains("  * English (/lang en)"))
        try terminal.type("/lang fr")
        try await terminal.waitFor("[Connecté]", after: "/lang fr")

        try terminal.type("/quit")
        try await terminal.waitFor("the chat to end", within: .seconds(15)) { _ in
            (try? terminal.exitStatus()) != nil
        }
        #expect(try terminal.exitStatus() == 0)
        try await server.stop()
    }
}
