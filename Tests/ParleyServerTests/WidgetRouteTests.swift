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
                #expect(response.value(forHTTPHeaderField: "Content-Security-Policy") == WidgetRoutes.contentSecurityPolicy)
                #expect(body.contains(#"<script src="/widget/parley-widget.js"></script>"#))
            }
            let (script, scriptResponse) = try await Self.get(base + "/widget/parley-widget.js")
            #expect(scriptResponse.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.contains("window.setAppInfo = setAppInfo"))
            #expect(!script.contains("innerHTML"), "the widget never parses strings as HTML")
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
                    == ["channelId": "web", "channelName": "Shop chat", "maxAttachmentSize": 26_214_400])
        }
        try await withServer(channels: [channels[0]]) { server in
            let (body, _) = try await Self.get("http://127.0.0.1:\(server.port)/widget/config")
            #expect(try JSONValue(parsing: body)["channelId"] == .null)
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
