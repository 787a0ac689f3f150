import Foundation
import ParleyGenesys
import ParleyServerTesting
import Testing

/// The Bayeux client's I/O on a scripted server and the virtual clock: back-off timers, cookies, headers.
@Suite("Bayeux client", .timeLimit(.minutes(1)))
struct BayeuxClientTests {
    /// A Bayeux server in a test: the first connect fails (HTTP 503), the second delivers one event, later ones
    /// hold until cancelled.
    actor FlakyServer: WebClient {
        private(set) var requests: [WebRequest] = []
        private var connects = 0

        func send(_ request: WebRequest) async throws -> WebResponse {
            requests.append(request)
            let messages = try BayeuxMessage.batch(decoding: request.body ?? [])
            switch messages.first?.channel {
            case .some(.handshake):
                return WebResponse(
                    status: 200, headers: [("Set-Cookie", "BAYEUX_BROWSER=b1; Path=/; HttpOnly")],
                    body: Array(
                        #"[{"channel":"/meta/handshake","successful":true,"clientId":"c1","advice":{"reconnect":"retry","interval":0,"timeout":20000}}]"#
                            .utf8))
            case .some(.subscribe):
                return ScriptedWebClient.json(
                    #"[{"channel":"/meta/subscribe","successful":true,"subscription":"/_genesys"}]"#)
            case .some(.connect):
                connects += 1
                if connects == 1 { return WebResponse(status: 503) }
                if connects == 2 {
                    return ScriptedWebClient.json(
                        #"[{"channel":"/meta/connect","successful":true},{"channel":"/_genesys","data":{"n":1}}]"#)
                }
                try await suspendUntilCancelled()
                return WebResponse(status: 500)
            default:
                return ScriptedWebClient.json(#"[{"channel":"/meta/disconnect","successful":true}]"#)
            }
        }
    }

    @Test func backsOffOnTheClockKeepsCookiesAndSendsHeaders() async throws {
        let server = FlakyServer()
        let clock = VirtualClock()
        let client = BayeuxClient(
            configuration: .init(url: URL(string: "http://gms.test/genesys/cometd")!, headers: ["gms_user": "u1"]),
            web: server, clock: clock)
        var events = await client.events().makeAsyncIterator()
        await client.subscribe(.genesys)
        await client.start()
        // The failed connect parks a one-second back-off on the virtual clock; nothing is sent meanwhile.
        await clock.waitForSleepers(1)
        let beforeBackoff = await server.requests.count
        #expect(clock.nextDeadline == .zero.advanced(by: .seconds(1)))
        await clock.advance(by: .seconds(1))
        let delivered = await AsyncStream.next(&events) { if case .message = $0 { true } else { false } }
        guard case .message(let message) = delivered else {
            Issue.record("no event")
            return
        }
        #expect(message.data == ["n": 1])
        let requests = await server.requests
        #expect(requests.count > beforeBackoff)
        #expect(requests.allSatisfy { $0.headers["gms_user"] == "u1" && $0.method == "POST" })
        // Every request after the handshake carries the cookie it set.
        #expect(requests.dropFirst().allSatisfy { $0.headers["Cookie"] == "BAYEUX_BROWSER=b1" })
        #expect(requests.first?.headers["Cookie"] == nil)
        await client.disconnect(ext: ["transcriptPosition": "9"])
        #expect(await client.state == .disconnected)
        let last = try BayeuxMessage.batch(decoding: await server.requests.last?.body ?? [])
        #expect(last.first?.channel == .disconnect)
        #expect(last.first?.ext == ["transcriptPosition": "9"])
    }

    @Test func cookieJar() {
        var jar = CookieJar()
        jar.store(setCookie: "BAYEUX_BROWSER=abc; Path=/; HttpOnly")
        jar.store(setCookie: "lb=node2")
        #expect(jar.header == "BAYEUX_BROWSER=abc; lb=node2")
        jar.store(setCookie: "lb=node3; Max-Age=60")
        #expect(jar.header == "BAYEUX_BROWSER=abc; lb=node3")
        jar.store(setCookie: "BAYEUX_BROWSER=; Max-Age=0")
        #expect(jar.header == "lb=node3")
        jar.store(setCookie: "garbage")
        #expect(jar.cookies.map(\.name) == ["lb"])
    }
}
