import HTTPTypes
import Testing

@testable import ParleyServer

@Suite("HTTP field names")
struct HTTPFieldNameTests {
    /// Every field name the server spells itself is a valid name, with the spelling it is sent with.
    @Test func theServersOwnFieldNamesAreValid() {
        #expect(HTTPField.Name.xFrameOptions.rawName == "X-Frame-Options")
        #expect(HTTPField.Name.referrerPolicy.rawName == "Referrer-Policy")
        #expect(HTTPField.Name.parleySessionSecret.canonicalName == "x-parley-session-secret")
        #expect(HTTPField.Name.forwarded.canonicalName == "forwarded")
        #expect(HTTPField.Name.xForwardedFor.canonicalName == "x-forwarded-for")
        #expect(HTTPField.Name.xRealIP.canonicalName == "x-real-ip")
    }
}
