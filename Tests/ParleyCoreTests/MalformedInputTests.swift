import Foundation
import ParleyCore
import Testing

/// Bad input gives a `ParleyError` with a stable code and the JSON path of the problem — never a crash, never an empty
/// message.
@Suite("Malformed input")
struct MalformedInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let input: [UInt8]
        let code: ParleyError.Code
        let path: String
        let message: String
        var description: String { name }

        init(_ name: String, _ input: String, _ code: ParleyError.Code, at path: String, saying message: String) {
            self.init(name, Array(input.utf8), code, at: path, saying: message)
        }

        init(_ name: String, _ input: [UInt8], _ code: ParleyError.Code, at path: String, saying message: String) {
            self.name = name
            self.input = input
            self.code = code
            self.path = path
            self.message = message
        }
    }

    static let cases: [Case] = [
        Case("empty input", "", .malformedJSON, at: "$", saying: "found the end of the input (line 1, column 1)"),
        Case(
            "truncated frame", #"{"messagePayload":{"type":"text","text":"hi""#, .malformedJSON, at: "$.messagePayload",
            saying: "expected ',' or '}' in an object, found the end of the input"),
        Case(
            "single quotes", "{'type':'text'}", .malformedJSON, at: "$",
            saying: "expected a string key in an object, found '''"),
        Case(
            "unquoted key", #"{"messagePayload":{type:"text"}}"#, .malformedJSON, at: "$.messagePayload",
            saying: "expected a string key in an object, found 't' (line 1, column 20)"),
        Case(
            "trailing garbage", #"{"state":{"type":"ping"}} x"#, .malformedJSON, at: "$",
            saying: "unexpected 'x' after the JSON value (line 1, column 27)"),
        Case(
            "leading zero", #"{"messagePayload":{"type":"location","location":{"latitude":01,"longitude":2}}}"#,
            .malformedJSON, at: "$.messagePayload.location.latitude", saying: "a number cannot have a leading zero"),
        Case(
            "raw control character", "{\"messagePayload\":{\"type\":\"text\",\"text\":\"a\u{1}b\"}}", .malformedJSON,
            at: "$.messagePayload.text", saying: "control character byte 0x01 inside a string must be escaped"),
        Case(
            "bad escape", #"{"messagePayload":{"type":"text","text":"a\qb"}}"#, .malformedJSON,
            at: "$.messagePayload.text",
            saying: #"invalid escape '\' followed by 'q'"#),
        Case(
            "invalid UTF-8",
            Array(#"{"messagePayload":{"type":"text","text":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8),
            .invalidUTF8, at: "$.messagePayload.text", saying: "invalid UTF-8 sequence starting with byte 0xC3"),
        Case(
            "unpaired surrogate", #"{"messagePayload":{"type":"text","text":"\ud83c!"}}"#, .invalidUTF8,
            at: "$.messagePayload.text", saying: "unpaired surrogate escape in a string"),
        Case(
            "duplicate key", #"{"messagePayload":{"type":"text","text":"a","text":"b"}}"#, .duplicateKey,
            at: "$.messagePayload.text", saying: #"the key "text" appears more than once"#),
        Case(
            "duplicate key after keys of other lengths",
            #"{"messagePayload":{"type":"text","text":"a","channelExtensions":{},"type":"card"}}"#, .duplicateKey,
            at: "$.messagePayload.type", saying: #"the key "type" appears more than once"#),
        Case(
            "number out of range",
            #"{"messagePayload":{"type":"location","location":{"latitude":1e400,"longitude":2}}}"#,
            .numberOutOfRange, at: "$.messagePayload.location.latitude", saying: "the number 1e400 does not fit"),
        Case(
            "too deep", String(repeating: #"{"a":"#, count: 600), .nestingTooDeep,
            at: "$" + String(repeating: ".a", count: 512), saying: "nest deeper than 512 levels"),
        Case(
            "frame is not an object", #"["messagePayload"]"#, .typeMismatch, at: "$",
            saying: "expected an object, found array"),
        Case(
            "missing messagePayload", #"{"userId":"guest"}"#, .missingField, at: "$.messagePayload",
            saying: #"missing required field "messagePayload""#),
        Case(
            "payload is a string", #"{"messagePayload":"hi"}"#, .typeMismatch, at: "$.messagePayload",
            saying: "expected an object, found string"),
        Case(
            "missing payload type", #"{"messagePayload":{"text":"hi"}}"#, .missingField, at: "$.messagePayload.type",
            saying: #"missing required field "type""#),
        Case(
            "missing text", #"{"messagePayload":{"type":"text"}}"#, .missingField, at: "$.messagePayload.text",
            saying: #"missing required field "text""#),
        Case(
            "null text", #"{"messagePayload":{"type":"text","text":null}}"#, .typeMismatch, at: "$.messagePayload.text",
            saying: "expected a string, found null"),
        Case(
            "number as text", #"{"messagePayload":{"type":"text","text":42}}"#, .typeMismatch,
            at: "$.messagePayload.text",
            saying: "expected a string, found number"),
        Case(
            "deep wrong type",
            #"{"messagePayload":{"type":"card","layout":"vertical","cards":[{"title":"a"},{"title":"b","actions":[{"type":"call","phoneNumber":18005555555}]}]}}"#,
            .typeMismatch, at: "$.messagePayload.cards[1].actions[0].phoneNumber",
            saying: "expected a string, found number"),
        Case(
            "fractional integer", #"{"messagePayload":{"type":"form","forms":[],"formColumns":1.5}}"#, .invalidValue,
            at: "$.messagePayload.formColumns", saying: "expected an integer, found 1.5"),
        Case(
            "missing attachment url", #"{"messagePayload":{"type":"attachment","attachment":{"type":"image"}}}"#,
            .missingField, at: "$.messagePayload.attachment.url", saying: #"missing required field "url""#),
        Case(
            "boolean as string", #"{"messagePayload":{"type":"text","text":"a"},"endOfTurn":"yes"}"#, .typeMismatch,
            at: "$.endOfTurn", saying: "expected a boolean, found string"),
    ]

    @Test(arguments: cases)
    func skillMessageReportsCodeAndPath(_ testCase: Case) {
        let error = parleyError { _ = try SkillMessage(decoding: testCase.input) }
        #expect(error?.code == testCase.code)
        #expect(error?.path?.description == testCase.path)
        #expect(error?.message.contains(testCase.message) == true, "\(error?.message ?? "no error")")
    }

    @Test func thereAreAtLeastTenDistinctMalformedCases() {
        #expect(Set(Self.cases.map(\.code)).count >= 8)
        #expect(Self.cases.count >= 10)
    }

    @Test func theSeedsTrailingCommaIsReportedWhereItIs() throws {
        let url = Fixture.directory.appendingPathComponent("malformed/Action.url.seed-trailing-comma.json")
        let error = parleyError { _ = try Action(decoding: Data(contentsOf: url)) }
        #expect(error?.code == .malformedJSON)
        #expect(error?.message == "expected a string key in an object, found '}' (line 6, column 1)")
        #expect(error?.path?.description == "$")
    }

    @Test func errorsDescribeThemselves() {
        let error = parleyError { _ = try UserMessage(decoding: #"{"messagePayload":{"type":"text"}}"#) }
        #expect(
            error?.description == #"error[decode.missingField] at $.messagePayload.text: missing required field "text""#
        )
    }

    @Test func codableDecodingReportsTheFullPath() throws {
        struct Envelope: Decodable {
            let messages: [SkillMessage]
        }
        let json = #"{"messages":[{"messagePayload":{"type":"text","text":"ok"}},{"messagePayload":{"type":"text"}}]}"#
        let error = parleyError { _ = try JSONDecoder().decode(Envelope.self, from: Data(json.utf8)) }
        #expect(error?.code == .missingField)
        #expect(error?.path?.description == "$.messages[1].messagePayload.text")
    }

    @Test func errorsTravelAsErrorPayloads() throws {
        let error = ParleyError(
            .missingField, "missing required field \"text\"", path: JSONPath([.key("messagePayload"), .key("text")]))
        let reply = SkillMessage(payload: .error(error), userId: "guest")
        #expect(
            reply.jsonString()
                == #"{"messagePayload":{"type":"error","errorMessage":"missing required field \"text\"","errorCode":"decode.missingField","errorPath":"$.messagePayload.text"},"source":"BOT","userId":"guest"}"#
        )
        guard case .message(let decoded) = try ServerFrame(decoding: reply.jsonBytes()),
            case .error(let content) = decoded.payload.content
        else {
            Issue.record("not an error payload")
            return
        }
        #expect(content.parleyError == error)
        #expect(try JSONDecoder().decode(ParleyError.self, from: JSONEncoder().encode(error)) == error)
    }
}
