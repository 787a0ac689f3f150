import ParleyCore
import Testing

@testable import ParleyServer

struct TrustedProxiesTests {
    let loopbackProxy = try! TrustedProxies(parsing: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"])

    @Test func networksParseAndContainTheirAddresses() throws {
        #expect(loopbackProxy.trusts("127.0.0.1"))
        #expect(!loopbackProxy.trusts("127.0.0.2"))
        #expect(loopbackProxy.trusts("10.255.1.2"))
        #expect(!loopbackProxy.trusts("11.0.0.1"))
        #expect(loopbackProxy.trusts("fd12:3456::1"))
        #expect(!loopbackProxy.trusts("fe80::1"))
        #expect(loopbackProxy.trusts("::ffff:10.1.2.3"), "an IPv4 address written as IPv6 is the IPv4 address")
        #expect(!loopbackProxy.trusts("not an address"))
        let v6 = try TrustedProxies(parsing: ["2001:db8::/32", "::1"])
        #expect(v6.trusts("2001:db8:0:1::5"))
        #expect(v6.trusts("::1"))
        #expect(!v6.trusts("2001:db9::1"))
        #expect(try TrustedProxies(parsing: ["0.0.0.0/0"]).trusts("203.0.113.7"))
    }

    @Test(arguments: ["10.0.0.0/33", "300.1.1.1", "1.2.3", "::1/129", "1::2::3", "10.0.0.0/x", "", "10.0.0.0/8/8"])
    func whatIsNoNetworkIsRefusedWithACode(_ text: String) {
        #expect(throws: ParleyError.self) { try TrustedProxies(parsing: [text]) }
        do {
            _ = try TrustedProxies(parsing: [text])
        } catch {
            #expect(error.code == .invalidValue)
        }
    }

    @Test func theRightmostUntrustedHopIsTheClient() {
        // nginx appended the address it saw (203.0.113.7) to what the client sent (a forged 198.51.100.1).
        #expect(
            loopbackProxy.clientAddress(
                peer: "127.0.0.1", forwarded: [], xForwardedFor: ["198.51.100.1, 203.0.113.7"]) == "203.0.113.7")
        // Two proxies of ours: the hop that 10.0.0.5 saw is the client.
        #expect(
            loopbackProxy.clientAddress(
                peer: "127.0.0.1", forwarded: [], xForwardedFor: ["203.0.113.7", "10.0.0.5"]) == "203.0.113.7")
        // Every hop trusted: the leftmost.
        #expect(
            loopbackProxy.clientAddress(peer: "127.0.0.1", forwarded: [], xForwardedFor: ["10.0.0.6, 10.0.0.5"])
                == "10.0.0.6")
        // An unreadable hop: nothing left of it is believed, the last good hop right of it counts.
        #expect(
            loopbackProxy.clientAddress(
                peer: "127.0.0.1", forwarded: [], xForwardedFor: ["198.51.100.1, garbage, 10.0.0.5"]) == "10.0.0.5")
        // No header: the peer.
        #expect(loopbackProxy.clientAddress(peer: "127.0.0.1", forwarded: [], xForwardedFor: []) == "127.0.0.1")
    }

    @Test func aPeerThatIsNoTrustedProxyIsTheClientWhateverItSends() {
        #expect(
            loopbackProxy.clientAddress(
                peer: "203.0.113.7", forwarded: ["for=198.51.100.1"], xForwardedFor: ["1.1.1.1"])
                == "203.0.113.7")
        #expect(
            TrustedProxies.none.clientAddress(peer: "127.0.0.1", forwarded: [], xForwardedFor: ["1.1.1.1"])
                == "127.0.0.1")
    }

    @Test func forwardedIsReadWithPortsBracketsAndQuotes() {
        #expect(
            loopbackProxy.clientAddress(
                peer: "127.0.0.1", forwarded: [#"for=198.51.100.1;proto=https, for="[2001:db8::7]:4711""#],
                xForwardedFor: ["203.0.113.99"]) == "2001:db8::7")
        #expect(
            loopbackProxy.clientAddress(peer: "10.1.1.1", forwarded: [], xForwardedFor: ["192.0.2.4:5000"])
                == "192.0.2.4")
    }
}
