import Foundation
import ParleyGenesys
import Testing

/// Chat API version 2 payloads. The answers have the members GMS's "API Responses" page documents for every Chat V2
/// answer (`statusCode`, `alias`, `chatEnded`, `chatId`, `messages`, `nextPosition`, `secureKey`, `userId`; events
/// with `from {nickname, participantId, type}`, `index`, `text`, `type`, `utcTime`), with the types the public
/// Java client (`genesys-chat-apiv2-sdk`) reads them as; the requests are what the public clients publish.
enum ChatV2Examples {
    static let requestChatAnswer = """
        {"messages":[{"from":{"nickname":"Ann","participantId":1,"type":"Client"},"index":1,"type":"ParticipantJoined",\
        "utcTime":1432845011000}],"chatEnded":false,"statusCode":0,"alias":"117","secureKey":"8b31761b2154884c",\
        "userId":"007553863DC30029","chatId":"00048aAPEQJ8000U","nextPosition":2}
        """
    static let agentMessage = """
        {"messages":[{"from":{"nickname":"Kristi Sippola","participantId":2,"type":"Agent"},"index":"4",\
        "text":"How can I help?","type":"Message","utcTime":1432845013000}],"chatEnded":false,"statusCode":0,\
        "alias":"117","secureKey":"8b31761b2154884c","userId":"007553863DC30029","chatId":"00048aAPEQJ8000U",\
        "nextPosition":5}
        """
    static let refused = """
        {"statusCode":2,"chatEnded":true,"errors":[{"code":102,"advice":"Chat session is not found"}],"alias":"117"}
        """
    static let requests = [
        #"{"operation":"requestChat","nickname":"Ann","subject":"Billing","userData":{"key1":"v1","key2":"v2"}}"#,
        #"{"operation":"sendMessage","message":"Hello","secureKey":"8b31761b2154884c"}"#,
        #"{"operation":"startTyping","message":"Ann started typing","secureKey":"8b31761b2154884c"}"#,
        #"{"operation":"requestNotifications","secureKey":"8b31761b2154884c","transcriptPosition":5}"#,
        #"{"operation":"updateNickname","nickname":"Annie","secureKey":"8b31761b2154884c"}"#,
        #"{"operation":"customNotice","message":"app in background","secureKey":"8b31761b2154884c"}"#,
        #"{"operation":"disconnect","secureKey":"8b31761b2154884c"}"#,
    ]
}

@Suite("Chat API v2 wire")
struct ChatV2WireTests {
    @Test func answersDecodeAndRoundTrip() throws {
        let answer = try ChatV2Response(json: JSONValue(parsing: ChatV2Examples.requestChatAnswer))
        #expect(answer.statusCode == 0)
        #expect(!answer.isFailure)
        #expect(answer.secureKey == "8b31761b2154884c")
        #expect(answer.userID == "007553863DC30029")
        #expect(answer.chatID == "00048aAPEQJ8000U")
        #expect(answer.alias == "117")
        #expect(answer.nextPosition == 2)
        #expect(answer.messages.map(\.type) == [.participantJoined])
        #expect(answer.messages[0].from == ChatV2Party(nickname: "Ann", participantID: "1", type: .client))
        #expect(answer.messages[0].date?.timeIntervalSince1970 == 1_432_845_011)
        #expect(try answer.jsonValue == JSONValue(parsing: ChatV2Examples.requestChatAnswer))

        let message = try ChatV2Response(json: JSONValue(parsing: ChatV2Examples.agentMessage))
        #expect(message.messages.map(\.index) == [4])  // "4", a string, as the Java client types it
        #expect(message.messages.map(\.text) == ["How can I help?"])
        #expect(message.messages[0].from.type == .agent)
        // Built answers write what they were given, in the documented shape.
        let built = ChatV2Response(
            secureKey: "k", nextPosition: 3,
            messages: [
                ChatV2Event(type: .message, from: .init(nickname: "A", participantID: "2", type: .agent), index: 2)
            ])
        #expect(try ChatV2Response(json: built.jsonValue) == built)
        #expect(built.jsonValue["messages"]?[0]?["from"]?["participantId"] == 2)
    }

    @Test func refusalsCarryTheirCodes() throws {
        let refused = try ChatV2Response(json: JSONValue(parsing: ChatV2Examples.refused))
        #expect(refused.isFailure)
        let error = try #require(refused.failure(.gmsChatRefused, "refused"))
        #expect(error.code == .gmsChatRefused)
        let failure = try #require(error.underlying as? ChatV2Failure)
        #expect(
            failure
                == ChatV2Failure(
                    statusCode: 2, chatEnded: true, errors: [.init(code: 102, advice: "Chat session is not found")]))
        #expect(!failure.isRetryable)
        #expect(failure.summary == "statusCode 2: 102 Chat session is not found")
    }

    @Test func requestsRoundTrip() throws {
        for text in ChatV2Examples.requests {
            let json = try JSONValue(parsing: text)
            let request = try ChatV2Request(json: json)
            #expect(request.jsonValue == json)
        }
        let refresh = try ChatV2Request(json: JSONValue(parsing: ChatV2Examples.requests[3]))
        #expect(refresh.operation == .requestNotifications)
        #expect(refresh.transcriptPosition == 5)
        #expect(refresh.secureKey == "8b31761b2154884c")
        #expect(refresh.stamped(secureKey: "other").secureKey == "other")
        #expect(refresh.stamped(secureKey: "other").jsonValue["transcriptPosition"] == 5)
    }

    @Test func unknownValuesRoundTrip() throws {
        let text = """
            {"messages":[{"from":{"nickname":"Bot","participantId":"ext-9","type":"Robot","avatar":"x.png"},\
            "index":3,"type":"FileUploaded","userData":{"file-id":"42"},"fresh":true}],"statusCode":0,"future":[1,2]}
            """
        let json = try JSONValue(parsing: text)
        let answer = try ChatV2Response(json: json)
        #expect(answer.messages[0].type == ChatV2EventType(rawValue: "FileUploaded"))
        #expect(answer.messages[0].from.type == ChatV2PartyType(rawValue: "Robot"))
        #expect(answer.messages[0].from.extra == ["avatar": "x.png"])
        #expect(answer.messages[0].userData == ["file-id": "42"])
        #expect(answer.jsonValue == json)
        #expect(answer.messages[0].from.jsonValue == json["messages"]?[0]?["from"])
        let request = try ChatV2Request(
            json: JSONValue(parsing: #"{"operation":"readReceipt","transcriptPosition":"7"}"#))
        #expect(request.operation == ChatV2Operation(rawValue: "readReceipt"))
        #expect(request.transcriptPosition == 7)
    }

    /// Hostile answers are typed errors with the member's path, never a trap.
    @Test(arguments: [
        (#"{"statusCode":"0"}"#, ParleyError.Code.typeMismatch, "statusCode"),
        (#"{"statusCode":1e12}"#, .invalidValue, "statusCode"),
        (#"{"statusCode":0.5}"#, .invalidValue, "statusCode"),
        (#"{"chatEnded":"yes"}"#, .typeMismatch, "chatEnded"),
        (#"{"nextPosition":9.3e18}"#, .invalidValue, "nextPosition"),
        (#"{"nextPosition":-1}"#, .invalidValue, "nextPosition"),
        (#"{"nextPosition":[]}"#, .typeMismatch, "nextPosition"),
        (#"{"alias":{}}"#, .typeMismatch, "alias"),
        (#"{"messages":{}}"#, .typeMismatch, "messages"),
        (
            #"{"messages":[{"from":{"type":"Agent"},"index":1e300,"type":"Message"}]}"#, .invalidValue,
            "messages[0].index"
        ),
        (
            #"{"messages":[{"from":{"type":"Agent"},"index":true,"type":"Message"}]}"#, .typeMismatch,
            "messages[0].index"
        ),
        (#"{"messages":[{"from":{"type":"Agent"},"type":"Message"}]}"#, .missingField, "messages[0].index"),
        (#"{"messages":[{"from":{"type":"Agent"},"index":1,"type":7}]}"#, .typeMismatch, "messages[0].type"),
        (
            #"{"messages":[{"from":{"type":"Agent"},"index":1,"type":"M","utcTime":-5}]}"#, .invalidValue,
            "messages[0].utcTime"
        ),
        (
            #"{"messages":[{"from":{"type":"Agent","participantId":1.5},"index":1,"type":"M"}]}"#, .invalidValue,
            "messages[0].from.participantId"
        ),
        (#"{"messages":[{"from":"Agent","index":1,"type":"M"}]}"#, .typeMismatch, "messages[0].from"),
        (#"{"errors":[{"code":"x"}]}"#, .invalidValue, "errors[0].code"),
        (#"[]"#, .typeMismatch, ""),
    ])
    func hostileAnswersAreTypedErrors(text: String, code: ParleyError.Code, path: String) throws {
        do {
            _ = try ChatV2Response(json: JSONValue(parsing: text))
            Issue.record("\(text) decoded")
        } catch {
            #expect(error.code == code, "\(text)")
            #expect(error.path?.description == "$" + (path.isEmpty ? "" : "." + path), "\(text)")
        }
    }
}
