import Foundation
import ParleyServer
import ParleyServerTesting
import Testing

@testable import ParleyWebBridge

/// The extension data the gallery skill (Browser/gallery-skill.json) sends with its greeting.
struct GalleryExtensions: Decodable, Sendable, Equatable {
    var appAction: String?
    var step: Int?
}

/// The web widget in headless Chromium, driven by Selenium (`Browser/widget_browser_test.py`), against a real
/// in-process server: the pizza order by clicking, every payload type, and the web-view bridge with the
/// JavaScript ParleyWebBridge generates.
@Suite("Widget in a real browser", .serialized, .timeLimit(.minutes(3)))
struct WidgetBrowserTests {
    static let browserFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Browser")

    /// The controls the script looks up by value, then the hostile strings.
    static let commandStrings = ["bridge-user", "hello", "fail please"] + HostileStrings.all

    @Test func widgetAndBridgeInChromium() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-widget-\(UUID())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let commands: [JSONValue] = Self.commandStrings.map { value in
            [
                "value": .string(value), "literal": .string(JavaScript.literal(value)),
                "sendMessage": .string(BridgeCommand.sendMessage(value).javaScript),
                "configuration": .string(JavaScript.configurationScript(["title": .string(value)])),
                "setAppInfo": .string(
                    BridgeCommand.setAppInfo(apiKey: value == "bridge-user" ? nil : value, uid: "bridge-user")
                        .javaScript),
            ]
        }
        let commandsFile = output.appendingPathComponent("commands.json")
        try Data(JSONValue.array(commands).jsonBytes()).write(to: commandsFile)

        // The script serves the language model's endpoint itself, on this port, so that it can hold its answer back.
        let modelPort = try freePort()
        let channels = [
            // Listed first so that the widget must skip it: it needs a token.
            ChannelConfiguration(id: "secure", secret: "not-used", clientAuthenticationEnabled: true),
            ChannelConfiguration(id: "demo", name: "Pizza demo"),
            ChannelConfiguration(
                id: "gallery", skill: .file(Self.browserFolder.appendingPathComponent("gallery-skill.json").path)),
            ChannelConfiguration(
                id: "llm",
                skill: try SkillReference(json: [
                    "llm": ["url": .string("http://127.0.0.1:\(modelPort)/v1"), "model": "m"]
                ])
            ),
        ]
        let run = try await InProcessServer.run(channels: channels) { server in
            try await Self.runScript(
                arguments: [
                    Self.browserFolder.appendingPathComponent("widget_browser_test.py").path,
                    server.url.absoluteString, commandsFile.path, output.path, String(modelPort),
                ],
                log: output.appendingPathComponent("browser.log"))
        }
        #expect(run.status == 0, "the browser checks failed:\n\(run.output)")
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_VERBOSE"] != nil { print(run.output) }

        // What the page posted to the fake web view, decoded as an app would.
        let bodies = try JSONValue(parsing: Data(contentsOf: output.appendingPathComponent("bridge-events.json")))
        let events = try #require(bodies.arrayValue).compactMap(\.stringValue).map(BridgeEvent<GalleryExtensions>.init)
        let echoed = HostileStrings.all.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(events.count == 4 + echoed.count)
        guard events.count == 4 + echoed.count else { return }
        guard case .agentLoaded = events[0] else {
            Issue.record("first event: \(events[0])")
            return
        }
        guard case .agentResponded(let response) = events[1] else {
            Issue.record("second event: \(events[1])")
            return
        }
        #expect(response.utterance == "Gallery ready.")
        #expect(response.options == ["Show all"])
        #expect(response.extensions == GalleryExtensions(appAction: "openGallery", step: 1))
        #expect(response.messagePayload?.type == .text)
        guard case .error(let skillError) = events[2], case .error(let badCommand) = events[3] else {
            Issue.record("third and fourth events: \(events[2]), \(events[3])")
            return
        }
        #expect(skillError == PageError(code: "gallery.failed", message: "Something went wrong."))
        #expect(badCommand.code == .invalidArgument)
        // Then one answer per hostile string sent with sendMessage, each echoing it exactly.
        let utterances = events.dropFirst(4).map { event -> String? in
            guard case .agentResponded(let echo) = event else { return nil }
            return echo.utterance
        }
        #expect(utterances == echoed.map { "You said: " + $0 })

        let screenshot = try Data(contentsOf: output.appendingPathComponent("widget.png"))
        #expect(screenshot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot of the conversation")
        if let keep = ProcessInfo.processInfo.environment["PARLEY_WIDGET_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try screenshot.write(to: URL(fileURLWithPath: keep))
        }
        try? FileManager.default.removeItem(at: output)
    }

    /// Identity and page headers (`Browser/identity_browser_test.py`): the widget's generated user id comes from
    /// `crypto.getRandomValues`, a channel with session secrets gets one secret and sends it with the socket and
    /// upload URLs, Chromium obeys the pages' `frame-ancestors`, and the agent console runs under its strict CSP.
    @Test func identityAndFramingInChromium() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-identity-\(UUID())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var demo = ChannelConfiguration(id: "demo", name: "Pizza demo")
        demo.frameOrigins = ["*"]  // any site may frame it: an explicit choice
        let channels = [
            demo,
            ChannelConfiguration(id: "closed", allowedOrigins: []),
            ChannelConfiguration(id: "sealed", sessionSecrets: true),
            ChannelConfiguration(id: "unset"),  // the default: framed by the server's own pages only
        ]
        let run = try await InProcessServer.run(channels: channels, configure: { $0.agentKey = "agent-key" }) {
            server in
            try await Self.runScript(
                arguments: [
                    Self.browserFolder.appendingPathComponent("identity_browser_test.py").path,
                    server.url.absoluteString, output.path,
                ],
                log: output.appendingPathComponent("browser.log"))
        }
        #expect(run.status == 0, "the browser checks failed:\n\(run.output)")
        #expect(run.output.contains("all identity browser checks passed"))
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_VERBOSE"] != nil { print(run.output) }
        if run.status == 0 { try? FileManager.default.removeItem(at: output) }
    }

    /// The widget's connection lifecycle (`Browser/connection_browser_test.py`): `connection.js`'s state machine
    /// event by event (the Swift client's states and events: handshake, heartbeat, retries and giving up, final
    /// closes, session secrets renewed on 4009 and replaced on 4007/4008 once, the network), then the real page
    /// connecting, reconnecting after a drop and disconnecting at the end.
    @Test func connectionStatesInChromium() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-connection-\(UUID())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", name: "Pizza demo")]) {
            server in
            try await Self.runScript(
                arguments: [
                    Self.browserFolder.appendingPathComponent("connection_browser_test.py").path,
                    server.url.absoluteString, output.path,
                ],
                log: output.appendingPathComponent("browser.log"))
        }
        #expect(run.status == 0, "the browser checks failed:\n\(run.output)")
        #expect(run.output.contains("all connection browser checks passed"))
        #expect(run.output.components(separatedBy: "\nok: ").count > 60, "every check of the machine ran")
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_VERBOSE"] != nil { print(run.output) }
        if run.status == 0 { try? FileManager.default.removeItem(at: output) }
    }

    /// The widget's parity with ParleyUI (`Browser/parity_browser_test.py`, issue 24): the language menu and what it
    /// sends, default client responses on the page's clock, avatars and a live agent's name from the agent socket,
    /// clear and end with its prompt, timestamps in every mode, and strings overridden per language — with the
    /// header's layout checked on screenshots.
    @Test func parityWithParleyUIInChromium() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-parity-\(UUID())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let channels = [
            ChannelConfiguration(id: "demo", name: "Pizza demo"),
            ChannelConfiguration(
                id: "slow", skill: .file(Self.browserFolder.appendingPathComponent("slow-skill.json").path)),
        ]
        let strings = Self.browserFolder.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ParleyUI/Resources/Strings")
        let run = try await InProcessServer.run(channels: channels, configure: { $0.agentKey = "agent-key" }) {
            server in
            try await Self.runScript(
                arguments: [
                    Self.browserFolder.appendingPathComponent("parity_browser_test.py").path,
                    server.url.absoluteString, strings.path, output.path,
                ],
                log: output.appendingPathComponent("browser.log"))
        }
        #expect(run.status == 0, "the browser checks failed:\n\(run.output)")
        #expect(run.output.contains("all parity browser checks passed"))
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_VERBOSE"] != nil { print(run.output) }
        // PARLEY_PARITY_ONLY=<part> runs one part of the script (such as "timestamps"), without the screenshots.
        guard run.status == 0, ProcessInfo.processInfo.environment["PARLEY_PARITY_ONLY"] == nil else { return }

        // The screenshots are the window the layout was measured in, in English and in French.
        let layout = try JSONValue(parsing: Data(contentsOf: output.appendingPathComponent("layout.json")))
        for (language, file) in [("en", "header.png"), ("fr", "header-fr.png")] {
            let png = try Data(contentsOf: output.appendingPathComponent(file))
            let size = try #require(Self.pngSize(png), "\(file) is a PNG")
            #expect(layout[language]?["width"]?.doubleValue == Double(size.width))
            #expect(layout[language]?["height"]?.doubleValue == Double(size.height))
            #expect(size.width >= 400 && size.height >= 600, "a phone-sized window, not an empty image")
        }
        // PARLEY_WIDGET_KEEP keeps the screenshots (header.png, header-fr.png, agent.png) to look at.
        if ProcessInfo.processInfo.environment["PARLEY_WIDGET_KEEP"] != nil {
            print("parity screenshots: \(output.path)")
            return
        }
        try? FileManager.default.removeItem(at: output)
    }

    /// The width and height in a PNG's header, or `nil` when `data` is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        func number(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Runs `python3 arguments…` without blocking a thread of the concurrency pool (the server shares it); the
    /// output goes to `log`.
    static func runScript(arguments: [String], log: URL) async throws -> (status: Int32, output: String) {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-B"] + arguments  // -B: no __pycache__ in the source tree
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try handle.close()
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
