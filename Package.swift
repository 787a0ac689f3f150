// swift-tools-version:6.1
import PackageDescription

/// Strictness shared by every target: Swift 6 mode plus the upcoming features the model codebases adopt.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "Parley",
    // iOS 17 and macOS 14 (docs/ios.md, "Platforms"): ParleyUI's model is `@Observable` (Observation ships with iOS 17
    // and macOS 14), and hummingbird-websocket, which the server is built on, requires both. The client alone would
    // run on iOS 16 (swift-websocket's floor), but a package has one set of platforms, and a split package is not
    // worth one OS version.
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "ParleyCore", targets: ["ParleyCore"]),
        .library(name: "ParleyConversation", targets: ["ParleyConversation"]),
        .library(name: "ParleyClient", targets: ["ParleyClient"]),
        .library(name: "ParleySkills", targets: ["ParleySkills"]),
        .library(name: "ParleyLanguageModel", targets: ["ParleyLanguageModel"]),
        .library(name: "ParleyServer", targets: ["ParleyServer"]),
        .library(name: "ParleyPostgres", targets: ["ParleyPostgres"]),
        .library(name: "ParleySpeech", targets: ["ParleySpeech"]),
        .library(name: "ParleyVoiceFlow", targets: ["ParleyVoiceFlow"]),
        .library(name: "ParleyGenesys", targets: ["ParleyGenesys"]),
        .library(name: "ParleyGMSSimulator", targets: ["ParleyGMSSimulator"]),
        .library(name: "ParleyWebBridge", targets: ["ParleyWebBridge"]),
        .library(name: "ParleyUI", targets: ["ParleyUI"]),
        .library(name: "ParleyChatUI", targets: ["ParleyChatUI"]),
        // Test kits, one per side, for an app's test targets; nothing else in this list depends on them.
        .library(name: "ParleyClientTesting", targets: ["ParleyClientTesting"]),
        .library(name: "ParleyServerTesting", targets: ["ParleyServerTesting"]),
        .executable(name: "parley", targets: ["parley"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // TLS for ParleyLanguageModel's https endpoints; already in the graph through postgres-nio and HummingbirdTLS.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.30.0"),
    ],
    targets: [
        // Wire model: payloads, actions, envelopes, JSONValue, errors; and the virtual clock and seeded random
        // generator that client tests and voice-flow simulations share. No package dependencies.
        .target(name: "ParleyCore"),
        // What a chat screen needs of a conversation, without a transport: the Conversation protocol, messages,
        // events, capabilities, connection status, typing and the screen options. ChatClient and the Genesys chat
        // implement it; ParleyUI shows it.
        .target(name: "ParleyConversation", dependencies: ["ParleyCore"]),
        // The headless chat client: ChatClient, its connection state machine, transports, outbox, transcript.
        .target(
            name: "ParleyClient",
            dependencies: [
                "ParleyCore",
                "ParleyConversation",
                // Speech input and read-aloud: ParleySpeech guards its program-running engines, so an iOS
                // app links no Subprocess through it.
                "ParleySpeech",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
            ]
        ),
        // Scripted skills: the dialog-definition format, its interpreter and the demo skill. The demo's
        // definition is a resource, Resources/pizza-demo.json.
        .target(
            name: "ParleySkills", dependencies: ["ParleyCore"], resources: [.copy("Resources/pizza-demo.json")]),
        // A language-model skill on any OpenAI-compatible chat-completions endpoint, streamed. Its HTTP
        // client is a small swift-nio one (corelibs URLSession cannot stream a body on Linux; AsyncHTTPClient would
        // add swift-nio-http2 and itself to every build for pooling and redirects that one POST a turn does not need).
        .target(
            name: "ParleyLanguageModel",
            dependencies: [
                "ParleySkills",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The chat server: channels, sockets, the turn, stores, live agents, speech endpoints, the web widget.
        .target(
            name: "ParleyServer",
            dependencies: [
                "ParleyCore",
                "ParleySkills",
                // A channel's skill may be a language model.
                "ParleyLanguageModel",
                // The web widget's texts are ParleyUI's string tables, served as JSON (GET /widget/strings.json).
                "ParleyUI",
                // The speech endpoints: the streaming recognizers and synthesisers.
                "ParleySpeech",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // `parley serve --tls-certificate/--tls-key`: Hummingbird's TLS channel, on swift-nio-ssl, which the
                // package graph already resolves (postgres-nio uses it).
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            // The web chat widget served at /: plain HTML, CSS and JavaScript; and the agent console
            // page served at /agent, one HTML file whose inline script and style are allowed by hash.
            resources: [.copy("Widget/Assets"), .copy("Agents/Assets/agent.html")]
        ),
        // Speech synthesis, recognition, recording and playback: protocols plus espeak-ng/pocketsphinx/sox and Apple
        // engines. The program-running engines use swift-subprocess, which declares no iOS support: an iOS
        // build links no Subprocess and has no EspeakSynthesizer, PocketsphinxRecognizer, SoxConverter or SoxPlayer.
        .target(
            name: "ParleySpeech",
            dependencies: [
                "ParleyCore",
                .product(
                    name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                // FilePath, for a program given by path: the System framework on macOS, this package on Linux.
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ],
            // The whisper engine's worker, run by WhisperRecognizer with python3; found with Bundle.module.
            resources: [.copy("Linux/whisper_worker.py")]
        ),
        // The PostgreSQL conversation store: its own target, so that an app embedding the SQLite server
        // never pulls postgres-nio.
        .target(
            name: "ParleyPostgres",
            dependencies: [
                "ParleyCore",
                "ParleyServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // JSON voice flows: model, loader, validator, engine and runner.
        .target(
            name: "ParleyVoiceFlow",
            dependencies: ["ParleyCore", "ParleySpeech", .product(name: "Logging", package: "swift-log")]
        ),
        // The presentation model of a chat screen: rows, timestamps, strings, theme, intents, links. No UI
        // framework, only Observation, so it is tested on Linux; the strings are `.strings` files copied as they are
        // and read by ParleyUI itself (see docs/ui.md, "Strings").
        .target(
            name: "ParleyUI", dependencies: ["ParleyCore", "ParleyConversation"],
            resources: [.copy("Resources/Strings")]),
        // SwiftUI and UIKit views over ParleyUI's model, and a WKWebView host for the widget. Apple only:
        // every file is behind `#if canImport(SwiftUI)` / `canImport(UIKit)` / `canImport(WebKit)`, so on Linux it
        // compiles to nothing but its re-export; no Apple toolchain runs in CI (docs/ios.md).
        .target(name: "ParleyChatUI", dependencies: ["ParleyUI"]),
        // The JavaScript bridge between an app and a chat page in a web view.
        .target(name: "ParleyWebBridge", dependencies: ["ParleyCore"]),
        // Test kit for an app's client side: in-memory transport, fault-injecting proxy, scripted agent.
        // No server and no Hummingbird: the proxy and the agent only talk sockets.
        .target(
            name: "ParleyClientTesting",
            dependencies: [
                "ParleyClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
            ]
        ),
        // Test kit for the server side: the real server in process on a free port. Re-exports
        // ParleyClientTesting, since a test of a server drives it with a client.
        .target(
            name: "ParleyServerTesting",
            dependencies: [
                "ParleyClientTesting",
                "ParleyServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command-line tool. It imports no test kit: what `voiceflow simulate` needs lives in ParleyCore
        // (VirtualClock, SeededRandomNumberGenerator) and ParleyVoiceFlow (ScriptedRecognizer).
        .executableTarget(
            name: "parley",
            dependencies: [
                "ParleyCore",
                "ParleyClient",
                "ParleyGenesys",
                "ParleyGMSSimulator",
                "ParleyLanguageModel",
                "ParleyPostgres",
                "ParleyServer",
                "ParleySpeech",
                "ParleyUI",
                "ParleyVoiceFlow",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // An app's own Swift skill in the embedded server, as docs/skills.md ("Skills in Swift") shows it:
        // `swift run SkillServer`. Not a product.
        .executableTarget(name: "SkillServer", dependencies: ["ParleyServer"], path: "Examples/SkillServer"),
        .testTarget(name: "ParleyCoreTests", dependencies: ["ParleyCore"], exclude: ["Fixtures"]),
        .testTarget(name: "ParleySkillsTests", dependencies: ["ParleySkills"]),
        .testTarget(
            name: "ParleyLanguageModelTests",
            dependencies: [
                "ParleyLanguageModel",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // LiteLLM's proxy, a real OpenAI-compatible server, runs as a child process.
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: [
                "ParleyPostgres",
                "ParleyServer",
                "ParleyServerTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
            ]
        ),
        .testTarget(
            name: "ParleyClientTests",
            dependencies: [
                "ParleyClient",
                "ParleyServerTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ParleyClientTestingTests",
            dependencies: [
                "ParleyClientTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ParleyServerTestingTests",
            dependencies: ["ParleyServerTesting", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        // Genesys Mobile Services: callback push dialogs, a Bayeux client, GMS chat. A client library an
        // app links: no server, no Hummingbird.
        // A Genesys chat is a Conversation of its own: it links neither the ODA chat client nor speech.
        .target(name: "ParleyGenesys", dependencies: ["ParleyCore", "ParleyConversation"]),
        // A Genesys Mobile Services simulator (callback dialogs, Chat API v1 with a scripted agent, Bayeux long
        // polling on ParleyGenesys's typed BayeuxMessage): Hummingbird routes under /genesys that `parley serve --gms`
        // mounts on the chat server. The chat server itself knows nothing of GMS.
        .target(
            name: "ParleyGMSSimulator",
            dependencies: [
                "ParleyGenesys",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ParleyGenesysTests",
            dependencies: [
                "ParleyGenesys", "ParleyGMSSimulator", "ParleyServer", "ParleyServerTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The Python peers run to their end awaited (see ParleyCLITests).
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            exclude: ["Peers"]
        ),
        .testTarget(
            name: "ParleyCLITests",
            dependencies: [
                "parley", "ParleyServerTesting", "ParleyUI",
                // The programs a test runs to their end (`parley decode`, openssl, curl) are awaited, never waited
                // for on a thread: a blocked thread of Swift's cooperative pool (two on a two-core machine) can stall
                // every other test.
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ParleyVoiceFlowTests",
            dependencies: ["ParleyVoiceFlow", "ParleySpeech", .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "ParleySpeechTests", dependencies: ["ParleySpeech"]),
        .testTarget(name: "ParleyUITests", dependencies: ["ParleyUI", "ParleyServerTesting"]),
        .testTarget(
            name: "ParleyWebBridgeTests",
            dependencies: ["ParleyWebBridge", "ParleyServerTesting"],
            exclude: ["Browser"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
