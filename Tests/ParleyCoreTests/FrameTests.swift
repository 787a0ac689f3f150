import Foundation
import ParleyCore
import Testing

@Suite("Frames, envelopes and token claims")
struct FrameTests {
    @Test func heartbeatFrames() throws {
        #expect(StateFrame.ping.jsonString() == #"{"state":{"type":"ping"}}"#)
        #expect(StateFrame.pong.jsonString() == #"{"state":{"type":"pong"}}"#)
        #expect(try ClientFrame(decoding: #"{"state":{"type":"ping"}}"#) == .state(.ping))
        #expect(try ServerFrame(decoding: #"{"state":{"type":"pong"}}"#) == .state(.pong))
    }

    @Test func authFrame() throws {
        let frame = StateFrame.auth(jwt: "a.b.c")
        #expect(frame.jsonValue == ["state": ["type": "auth", "token": "a.b.c", "tokenType": "jwt"]])
        guard case .state(let decoded) = try ClientFrame(decoding: Fixture.named("ClientFrame.state.auth").data) else {
            Issue.record("not a state frame")
            return
        }
        #expect(decoded.type == .auth)
        #expect(decoded.tokenType == "jwt")
        #expect(try TokenClaims(token: try #require(decoded.token)).userId == "John")
    }

    @Test func deviceTokenFrameKeepsItsOptions() throws {
        guard case .state(let frame) = try ClientFrame(decoding: Fixture.named("ClientFrame.state.device-token").data)
        else {
            Issue.record("not a state frame")
            return
        }
        #expect(frame.type == .token)
        #expect(frame.deviceType == "ios")
        #expect(frame.extra["store.undelivered.messages"] == false)
    }

    @Test func profileUpdates() throws {
        guard case .profile(let ios) = try ClientFrame(decoding: Fixture.named("ClientFrame.profile.ios-seed").data)
        else {
            Issue.record("not a profile")
            return
        }
        #expect(ios.profile.displayGivenName == "First")
        #expect(ios.profile.properties?["lastOrderedItems"] == "1 medium pepperoni")
        guard case .profile(let web) = try ClientFrame(decoding: Fixture.named("ClientFrame.profile.web-sdk").data)
        else {
            Issue.record("not a profile")
            return
        }
        #expect(web.profile.displayGivenName == "Jane")
        #expect(web.sdkMetadata?.version == "25.02")
    }

    @Test func suggestionsAndErrors() throws {
        let suggestions = try ServerFrame(decoding: Fixture.named("ServerFrame.suggestions.autocomplete").data)
        #expect(suggestions == .suggestions(Suggestions(["order a pizza", "order status", "order history"])))
        let message = try SkillMessage(decoding: Fixture.named("SkillMessage.error.malformed-frame").data)
        guard case .error(let content) = message.payload.content else {
            Issue.record("not an error payload")
            return
        }
        #expect(content.errorMessage == "expected ',' or '}' in an object, found 'x' (line 1, column 12)")
        #expect(content.parleyError?.code == .malformedJSON)
        #expect(content.parleyError?.path == JSONPath([.key("messagePayload")]))
        #expect(MessagePayload.ErrorMessage("plain").parleyError == nil)
    }

    @Test func skillEnvelopeFields() throws {
        let message = try SkillMessage(decoding: Fixture.named("SkillMessage.text.full-envelope").data)
        #expect(message.effectiveSource == .bot)
        #expect(message.msgId == "0b4bf2a1-5d3c-4a34-9d0f-8a61e2d7c001")
        #expect(message.endOfTurn == true)
        #expect(message.requestId == "wsreq/1732000000000/01234")
        #expect(message.threadId == "thread-7")
        #expect(message.createdOnDate == Date(timeIntervalSince1970: 1_795_256_130))
        #expect(
            SkillMessage(payload: .text("x"), createdOn: 1_763_720_130_500).createdOnDate
                == Date(timeIntervalSince1970: 1_763_720_130.5))
        let seed = try SkillMessage(decoding: Fixture.named("SkillMessage.text.actions").data)
        #expect(seed.source == nil)
        #expect(seed.effectiveSource == .bot)
        #expect(seed.userId == "guest")
    }

    @Test func agentMessagesCarryTheirAgent() throws {
        let message = try SkillMessage(decoding: Fixture.named("SkillMessage.text.agent").data)
        #expect(message.source == .agent)
        let agent = try #require(message.payload.channelExtensions?.agentSession)
        #expect(agent.name == "Ava")
        #expect(agent.avatarBackgroundColor == "#004C8C")
        let byName = ChannelExtensions(["agentName": "Sam"])
        #expect(byName.agentSession?.name == "Sam")
    }

    @Test func channelExtensionFlagsAcceptBooleansAndStrings() {
        #expect(ChannelExtensions(["replaceMessage": true]).replaceMessage)
        #expect(ChannelExtensions(["replaceMessage": "true"]).replaceMessage)
        #expect(ChannelExtensions(["websdk.replaceMessage": "TRUE"]).replaceMessage)
        #expect(!ChannelExtensions(["replaceMessage": "false"]).replaceMessage)
        #expect(ChannelExtensions(["appendMessage": "True"]).appendMessage)
        #expect(!ChannelExtensions().appendMessage)
    }

    @Test func userEnvelopeFields() throws {
        let message = try UserMessage(decoding: Fixture.named("UserMessage.text.web-sdk-envelope").data)
        #expect(message.sdkMetadata == SDKMetadata(version: "25.02"))
        #expect(message.requestId == "wsreq/1732000000000/01234")
        let voice = try UserMessage(decoding: Fixture.named("UserMessage.text.voice").data)
        #expect(voice.sdkMetadata?.speechId == "8f1c2b7e-asr-0001")
        let android = try UserMessage(decoding: Fixture.named("UserMessage.text.android-metadata").data)
        #expect(android.metadata == ["clientVersion": "21.10"])
    }

    @Test func tokenClaims() throws {
        let claims = try TokenClaims(decoding: Fixture.named("TokenClaims.example").data)
        #expect(claims.issuedAt == 1_569_828_182)
        #expect(claims.expiresAt == 1_569_831_782)
        #expect(claims.channelId == "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
        #expect(claims.userId == "John")
        #expect(claims.expiryDate.timeIntervalSince(claims.issuedDate) == 3600)

        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let token = base64URL(#"{"alg":"HS256","typ":"JWT"}"#) + "." + base64URL(claims.jsonString()) + ".sig"
        #expect(try TokenClaims(token: token) == claims)
        #expect(parleyError { _ = try TokenClaims(token: "not-a-token") }?.code == .invalidToken)
        #expect(parleyError { _ = try TokenClaims(token: "a.\(base64URL("{oops")).c") }?.code == .invalidToken)
        let missing = parleyError { _ = try TokenClaims(token: "a.\(base64URL(#"{"iat":1,"exp":2,"userId":"u"}"#)).c") }
        #expect(missing?.code == .missingField)
        #expect(missing?.path?.description == "$.channelId")
    }
}

@Suite("Close codes")
struct CloseCodeTests {
    @Test func everyConnectionErrorHasItsOwnCloseCode() {
        let codes: [ParleyError.Code] = [
            .authRequired, .invalidToken, .tokenExpired, .tokenNotYetValid, .tokenLifetimeTooLong, .channelMismatch,
            .unknownChannel, .channelDisabled,
        ]
        let closeCodes = codes.map(CloseCode.init(for:))
        #expect(closeCodes.map(\.rawValue) == [4001, 4002, 4003, 4004, 4005, 4006, 4010, 4011])
        #expect(closeCodes.allSatisfy { $0.isFinal })
        #expect(CloseCode(for: .originForbidden) == .policyViolation)
        #expect(CloseCode(for: .frameTooLarge) == .messageTooBig)
        #expect(CloseCode(for: .malformedJSON) == .internalError)
        #expect(!CloseCode.abnormal.isFinal)
        #expect(!CloseCode.goingAway.isFinal)
    }
}

@Suite("Codes as Codable values")
struct CodeCodingTests {
    @Test func errorAndCloseCodesEncodeAsTheirRawValues() throws {
        #expect(
            String(decoding: try JSONEncoder().encode(ParleyError.Code.malformedJSON), as: UTF8.self)
                == #""json.malformed""#)
        #expect(String(decoding: try JSONEncoder().encode(CloseCode.tokenExpired), as: UTF8.self) == "4003")
        #expect(try JSONDecoder().decode(ParleyError.Code.self, from: Data(#""auth.future""#.utf8)) == "auth.future")
        #expect(String(decoding: try JSONEncoder().encode(PayloadType.textStream), as: UTF8.self) == #""textStream""#)
    }
}
