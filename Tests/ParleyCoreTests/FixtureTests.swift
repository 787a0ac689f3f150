import Foundation
import ParleyCore
import Testing

/// Every JSON example of the seed documents and every payload shape of the protocol research decodes to the typed case
/// its name says, and re-encodes to JSON equal (as values) to the input.
@Suite("Fixtures from the seeds and the protocol")
struct FixtureTests {
    static let fixtures = (try? Fixture.all()) ?? []

    @Test func thereAreFixturesForEverySeedExampleAndPayloadType() throws {
        #expect(Self.fixtures.filter { $0.group == "seed" }.count == 15)
        let payloadTypes = Set(
            try Self.fixtures.filter { $0.typeName.hasSuffix("Message") }.map { try $0.payload().type })
        #expect(payloadTypes.count == 23)
    }

    @Test(arguments: fixtures)
    func decodesToTheNamedCaseAndRoundTrips(fixture: Fixture) throws {
        let input = try JSONValue(parsing: fixture.data)
        let (decodedCase, output) = try Self.decode(fixture)
        #expect(decodedCase == fixture.expectedCase)
        #expect(output == input, "re-encoded: \(output.jsonString(pretty: true))")
        // The bytes we write parse back, and JSONSerialization reads the same values we do.
        let written = Data(output.jsonString().utf8)
        #expect(try JSONValue(parsing: written) == input)
        let viaFoundation = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: written))
        #expect(try JSONValue(parsing: viaFoundation) == input)
    }

    @Test(arguments: fixtures.filter { $0.typeName.hasSuffix("Message") })
    func codableBridgeMatchesTheDirectPath(fixture: Fixture) throws {
        switch fixture.typeName {
        case "SkillMessage":
            let direct = try SkillMessage(decoding: fixture.data)
            let viaCodable = try JSONDecoder().decode(SkillMessage.self, from: fixture.data)
            #expect(viaCodable == direct)
            #expect(try SkillMessage(decoding: JSONEncoder().encode(direct)) == direct)
        default:
            let direct = try UserMessage(decoding: fixture.data)
            let viaCodable = try JSONDecoder().decode(UserMessage.self, from: fixture.data)
            #expect(viaCodable == direct)
            #expect(try UserMessage(decoding: JSONEncoder().encode(direct)) == direct)
        }
    }

    /// Decodes a fixture as the type its name gives; returns the case reached and the re-encoded JSON.
    static func decode(_ fixture: Fixture) throws -> (String, JSONValue) {
        let data = fixture.data
        switch fixture.typeName {
        case "SkillMessage":
            let message = try SkillMessage(decoding: data)
            return (message.payload.type.rawValue, message.jsonValue)
        case "UserMessage":
            let message = try UserMessage(decoding: data)
            return (message.payload.type.rawValue, message.jsonValue)
        case "Action":
            let action = try Action(decoding: data)
            return (action.type.rawValue, action.jsonValue)
        case "Attachment":
            let attachment = try Attachment(decoding: data)
            return (attachment.type.rawValue, attachment.jsonValue)
        case "Location":
            let location = try Location(decoding: data)
            return (location.title == nil ? "untitled" : "oracle-headquarters", location.jsonValue)
        case "TokenClaims":
            let claims = try TokenClaims(decoding: data)
            return ("example", claims.jsonValue)
        case "TokenHeader":
            let header = try JSONValue(parsing: data)
            return ((header["alg"]?.stringValue ?? "").lowercased(), header)
        case "ClientFrame":
            let frame = try ClientFrame(decoding: data)
            return (Self.caseName(frame), frame.jsonValue)
        case "ServerFrame":
            let frame = try ServerFrame(decoding: data)
            return (Self.caseName(frame), frame.jsonValue)
        default:
            Issue.record("no decoder for fixture type \(fixture.typeName)")
            return ("", .null)
        }
    }

    static func caseName(_ frame: ClientFrame) -> String {
        switch frame {
        case .message: "message"
        case .profile: "profile"
        case .state: "state"
        case .unknown: "unknown"
        }
    }

    static func caseName(_ frame: ServerFrame) -> String {
        switch frame {
        case .message: "message"
        case .state: "state"
        case .suggestions: "suggestions"
        case .unknown: "unknown"
        }
    }
}
