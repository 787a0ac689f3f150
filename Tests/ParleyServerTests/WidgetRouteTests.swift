import Foundation
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Widget files and configuration", .serialized, .timeLimit(.minutes(1)))
struct WidgetRouteTests {
    static func get(_ url: String) async throws -> (body: String, response: HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
    }

    @Test func thePageScriptAndStyleAreServed() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "demo")]) { server in
            let base = "http://127.0.0.1:\(server.port)"
            for path in ["/", "/widget"] {
                let (body, response) = try await Self.get(base + path)
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
                #expect(
                    response.value(forHTTPHeaderField: "Content-Security-Policy")
                        == WidgetRoutes.contentSecurityPolicy(chatServers: []) + "; frame-ancestors 'self'")
                #expect(
                    response.value(forHTTPHeaderField: "X-Frame-Options") == "SAMEORIGIN",
                    "by default only the server's own pages frame it")
                #expect(response.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
                #expect(response.value(forHTTPHeaderField: "Referrer-Policy") == "no-referrer")
                #expect(body.contains(#"<script type="module" src="/widget/parley-widget.js"></script>"#))
            }
            let (script, scriptResponse) = try await Self.get(base + "/widget/parley-widget.js")
            #expect(scriptResponse.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.contains("window.setAppInfo = setAppInfo"))
            // It and every module it imports, at any depth, are served as JavaScript, to any origin (a module is a
            // CORS request), uncached.
            var modules = ["parley-widget.js"]
            var index = 0
            while index < modules.count {
                let (text, response) = try await Self.get(base + "/widget/" + modules[index])
                #expect(response.statusCode == 200, "\(modules[index])")
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
                #expect(response.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "*")
                #expect(response.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
                #expect(!text.contains("innerHTML"), "the widget never parses strings as HTML (\(modules[index]))")
                for match in text.matches(of: /from "\.\/([a-z-]+\.js)"/) where !modules.contains(String(match.1)) {
                    modules.append(String(match.1))
                }
                index += 1
            }
            #expect(modules.count >= 12 && modules.contains("connection.js") && modules.contains("payloads.js"))
            // The texts are ParleyUI's tables.
            let (strings, stringsResponse) = try await Self.get(base + "/widget/strings.json")
            #expect(stringsResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(stringsResponse.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "*")
            let tables = try JSONValue(parsing: strings)
            #expect(tables == WidgetRoutes.stringTables())
            #expect(tables["fr"]?["odais_write_a_message"] == "Écrivez un message")
            #expect((tables["en"]?.objectValue?.count ?? 0) >= 80, "every text of ParleyUI's English table")
            let (style, styleResponse) = try await Self.get(base + "/widget/parley-widget.css")
            #expect(styleResponse.value(forHTTPHeaderField: "Content-Type") == "text/css; charset=utf-8")
            #expect(style.contains("--parley-BotMessageColor: #BBDEFB"))
            let (_, missing) = try await Self.get(base + "/widget/nothing.js")
            #expect(missing.statusCode == 404)
        }
    }

    @Test func theConfigurationNamesTheFirstUnauthenticatedEnabledChannel() async throws {
        let channels = [
            ChannelConfiguration(id: "secure", secret: "s", clientAuthenticationEnabled: true),
            ChannelConfiguration(id: "off", enabled: false),
            ChannelConfiguration(id: "web", name: "Shop chat"),
            ChannelConfiguration(id: "other"),
        ]
        try await withServer(channels: channels) { server in
            let (body, response) = try await Self.get("http://127.0.0.1:\(server.port)/widget/config")
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(
                try JSONValue(parsing: body)
                    == [
                        "channelId": "web", "channelName": "Shop chat", "maxAttachmentSize": 26_214_400,
                        "sessionSecrets": false,
                    ])
            #expect(response.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "*")
        }
        try await withServer(channels: [channels[0]]) { server in
            let (body, _) = try await Self.get("http://127.0.0.1:\(server.port)/widget/config")
            #expect(try JSONValue(parsing: body)["channelId"] == .null)
        }
    }

    @Test func theConfigurationOfANamedChannelSaysWhetherItWantsASessionSecret() async throws {
        let channels = [
            ChannelConfiguration(id: "web"), ChannelConfiguration(id: "sealed", name: "Sealed", sessionSecrets: true),
            ChannelConfiguration(id: "signed", secret: "s", clientAuthenticationEnabled: true, sessionSecrets: true),
        ]
        try await withServer(channels: channels) { server in
            let base = "http://127.0.0.1:\(server.port)/widget/config"
            let (sealed, _) = try await Self.get(base + "?channelId=sealed")
            #expect(
                try JSONValue(parsing: sealed)
                    == [
                        "channelId": "sealed", "channelName": "Sealed", "maxAttachmentSize": 26_214_400,
                        "sessionSecrets": true,
                    ])
            let (signed, _) = try await Self.get(base + "?channelId=signed")
            #expect(try JSONValue(parsing: signed)["sessionSecrets"] == false, "a token names the user there")
            let (web, _) = try await Self.get(base)
            #expect(try JSONValue(parsing: web)["sessionSecrets"] == false)
            let (missing, response) = try await Self.get(base + "?channelId=nowhere")
            #expect(response.statusCode == 404)
            #expect(try JSONValue(parsing: missing)["error"]?["code"] == "channel.unknown")
        }
    }

    /// The `frame-ancestors` sources and `X-Frame-Options` of `/` or `/widget` with `query`.
    static func framing(_ server: TestServer, _ query: String, path: String = "/") async throws
        -> (ancestors: String?, frameOptions: String?)
    {
        var components = URLComponents(string: "http://127.0.0.1:\(server.port)\(path)")!
        components.percentEncodedQuery = query.isEmpty ? nil : query
        let (_, response) = try await URLSession.shared.data(from: components.url!)
        let http = try #require(response as? HTTPURLResponse)
        let policy = try #require(http.value(forHTTPHeaderField: "Content-Security-Policy"))
        #expect(policy.hasPrefix(WidgetRoutes.contentSecurityPolicy(chatServers: []) + "; "))
        let ancestors = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("frame-ancestors ") }
        #expect(ancestors.count == 1, "one frame-ancestors directive in \(policy)")
        return (
            ancestors.first.map { String($0.dropFirst("frame-ancestors ".count)) },
            http.value(forHTTPHeaderField: "X-Frame-Options")
        )
    }

    /// The page connects to its own origin only: its CSP names no other server, and a link's `?URI=` is refused by
    /// the script (docs/security.md, "Pages"); other chat servers are the operator's choice (`widgetChatServers`).
    /// The `connect-src` directive of a Content-Security-Policy.
    static func connect(_ policy: String?) -> String? {
        policy?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first {
            $0.hasPrefix("connect-src ")
        }
    }

    @Test func thePageConnectsOnlyToItsOwnOriginUnlessTheOperatorListsOthers() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "demo")]) { server in
            let (body, response) = try await Self.get("http://127.0.0.1:\(server.port)/?URI=attacker.example")
            #expect(Self.connect(response.value(forHTTPHeaderField: "Content-Security-Policy")) == "connect-src 'self'")
            #expect(!body.contains("parley-chat-servers"))
        }
        try await withServer(
            channels: [ChannelConfiguration(id: "demo")],
            configure: {
                $0.widgetChatServers = ["https://chat2.example.com", "http://10.0.0.7:8080", "https://x; script-src *"]
            }
        ) { server in
            let (body, response) = try await Self.get("http://127.0.0.1:\(server.port)/")
            #expect(
                Self.connect(response.value(forHTTPHeaderField: "Content-Security-Policy"))
                    == "connect-src 'self' https://chat2.example.com wss://chat2.example.com http://10.0.0.7:8080 "
                    + "ws://10.0.0.7:8080")
            #expect(
                body.contains(
                    #"<meta name="parley-chat-servers" content="https://chat2.example.com http://10.0.0.7:8080">"#))
        }
    }

    /// `channel` with `frameOrigins: ["*"]`: any site may frame its widget page.
    static func framedByAnyone(_ channel: ChannelConfiguration) -> ChannelConfiguration {
        var channel = channel
        channel.frameOrigins = ["*"]
        return channel
    }

    @Test func framingFollowsTheAllowedOriginsOfThePagesChannel() async throws {
        let channels = [
            ChannelConfiguration(id: "secure", secret: "s", clientAuthenticationEnabled: true),
            ChannelConfiguration(
                id: "web",
                allowedOrigins: [
                    "https://shop.example.com", "https://shop.example.com:8443", "http://[::1]:8080",
                    "https://bad.example; script-src *", "https://shop.example.com/", "https://shop.example.com",
                ]),
            ChannelConfiguration(id: "closed", allowedOrigins: []),
            Self.framedByAnyone(ChannelConfiguration(id: "anyone")),
            ChannelConfiguration(id: "off", enabled: false),
            // The default: sockets and uploads from any origin, framing by the server's own pages only.
            ChannelConfiguration(id: "unset"),
        ]
        let web = "'self' https://shop.example.com https://shop.example.com:8443 http://[::1]:8080"
        try await withServer(channels: channels) { server in
            let cases: [(query: String, ancestors: String, frameOptions: String?)] = [
                ("", web, nil),  // the default channel: the first open one
                ("channelId=", web, nil),
                ("channelId=closed", "'self'", "SAMEORIGIN"),
                ("channelId=anyone", "*", nil),
                ("channelId=nowhere", "'self'", "SAMEORIGIN"),
                ("channelId=off", "'self'", "SAMEORIGIN"),
                ("channelId=secure", "'self'", "SAMEORIGIN"),
                ("channelId=unset", "'self'", "SAMEORIGIN"),
                ("config=%7B%22channelId%22%3A%22anyone%22%7D", "*", nil),
                ("config=%7B%22channelId%22%3A%22anyone%22%7D&channelId=closed", "'self'", "SAMEORIGIN"),
                ("channelId=anyone&channelId=closed", "'self'", "SAMEORIGIN"),
                ("config=%7B%22title%22%3A%22x%22%7D", web, nil),
                ("config=not-json", "'self'", "SAMEORIGIN"),
                ("config=%7B%22channelId%22%3A5%7D", "'self'", "SAMEORIGIN"),
            ]
            for (query, ancestors, frameOptions) in cases {
                for path in ["/", "/widget"] {
                    let framing = try await Self.framing(server, query, path: path)
                    #expect(framing.ancestors == ancestors, "\(path)?\(query)")
                    #expect(framing.frameOptions == frameOptions, "\(path)?\(query)")
                }
            }
        }
        try await withServer(channels: [channels[0]]) { server in
            let framing = try await Self.framing(server, "")
            #expect(framing.ancestors == "'self'", "no open channel: nothing to embed")
            #expect(framing.frameOptions == "SAMEORIGIN")
        }
    }

    @Test func theAgentConsoleIsLockedDown() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "demo")], configure: { $0.agentKey = "key" }) {
            server in
            let (body, response) = try await Self.get("http://127.0.0.1:\(server.port)/agent")
            #expect(response.statusCode == 200)
            let policy = try #require(response.value(forHTTPHeaderField: "Content-Security-Policy"))
            let directives = Dictionary(
                uniqueKeysWithValues: policy.split(separator: ";").map { directive in
                    let words = directive.split(separator: " ").map(String.init)
                    return (words[0], Array(words.dropFirst()))
                })
            // The one inline script and the one inline style, allowed by hash and nothing else.
            let scripts = body.components(separatedBy: "<script>")
            let styles = body.components(separatedBy: "<style>")
            #expect(scripts.count == 2 && styles.count == 2)
            let script = try #require(scripts.last?.components(separatedBy: "</script>").first)
            let style = try #require(styles.last?.components(separatedBy: "</style>").first)
            #expect(script.contains("new WebSocket"))
            #expect(directives["script-src"] == ["'\(AgentConsolePage.sha256(script))'"])
            #expect(directives["style-src"] == ["'\(AgentConsolePage.sha256(style))'"])
            #expect(directives["default-src"] == ["'none'"])
            #expect(directives["connect-src"] == ["'self'"])
            #expect(directives["frame-ancestors"] == ["'none'"])
            #expect(directives["form-action"] == ["'none'"])
            #expect(directives["base-uri"] == ["'none'"])
            #expect(!policy.contains("unsafe"))
            // What a hash cannot allow must not be there.
            let markup = scripts[0] + (scripts.last?.components(separatedBy: "</script>").last ?? "")
            #expect(markup.contains("<form id=\"login\">"))
            #expect(markup.firstMatch(of: /\sstyle\s*=/) == nil, "no style attributes")
            #expect(markup.firstMatch(of: /<[^>]*\son[a-z]+\s*=/) == nil, "no inline event handlers")
            #expect(response.value(forHTTPHeaderField: "X-Frame-Options") == "DENY")
            #expect(response.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
            #expect(response.value(forHTTPHeaderField: "Referrer-Policy") == "no-referrer")
            #expect(response.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
        }
    }

    @Test func theAgentConsolePageIsAResourceWhoseHashesComeFromTheFile() throws {
        let page = try AgentConsolePage.load()
        #expect(page.html.hasPrefix("<!doctype html>"))
        let script = try AgentConsolePage.inlineText(of: "script", in: page.html, source: "agent.html")
        #expect(page.contentSecurityPolicy.contains("script-src '\(AgentConsolePage.sha256(script))'"))
        // A page the hashes cannot be computed for is refused, naming the file.
        for html in ["<p>no script</p>", "<script>a</script><script>b</script><style></style>", "<style>x"] {
            let error = #expect(throws: ParleyError.self) { try AgentConsolePage(html: html, source: "/x/agent.html") }
            #expect(error?.code == .serverResourceUnreadable)
            #expect(error?.message.contains("/x/agent.html") == true)
        }
    }

    @Test func aServerCanLeaveTheWidgetOut() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "demo")], configure: { $0.servesWidget = false }) {
            server in
            let (_, response) = try await Self.get("http://127.0.0.1:\(server.port)/")
            #expect(response.statusCode == 404)
        }
    }
}
