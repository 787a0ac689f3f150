import ParleyCore
import Testing

/// `JSONValue(parsingLeniently:)`: strict JSON plus one trailing comma before `]` or `}`, for voice-flow files
/// and Genesys GMS answers.
@Suite("Lenient JSON parsing")
struct LenientParsingTests {
    @Test func trailingCommasAreAcceptedAndCommasInStringsKept() throws {
        let value = try JSONValue(parsingLeniently: #"[{"a": "x,]", "b": [1, 2,],}, ]"#)
        #expect(value == [["a": "x,]", "b": [1, 2]]])
        #expect(value.objectValue == nil)
        #expect(value[0]?.objectValue?.keys == ["a", "b"])
    }

    @Test func theDocumentationExampleParses() throws {
        let value = try JSONValue(parsingLeniently: #"[{"id": "VF_START",},]"#)
        #expect(value == [["id": "VF_START"]])
    }

    @Test func bytesAndTextGiveTheSameValue() throws {
        let text = "{\n  \"_action\": \"DisplayMenu\",\n  \"_content\": [\n    {\"_label\": \"a\",},\n  ],\n}"
        let fromText = try JSONValue(parsingLeniently: text)
        #expect(try JSONValue(parsingLeniently: Array(text.utf8)) == fromText)
        #expect(try JSONValue(parsingLeniently: text.utf8) == fromText)
        #expect(fromText["_content"]?[0]?["_label"] == "a")
    }

    @Test func strictParsingStillRejectsTrailingCommas() {
        for text in ["[1,]", #"{"a": 1,}"#, "[1,\n]"] {
            #expect(throws: ParleyError.self) { try JSONValue(parsing: text) }
            #expect(throws: ParleyError.self) { try JSONValue(parsing: Array(text.utf8)) }
        }
    }

    @Test(arguments: ["[,]", "{,}", "[1,,2]", "[1,,]", "[1 2]", #"{"a": 1,,}"#, "[1] // note", "/* c */ [1]", "[1,]x"])
    func otherLeniencyStaysAnError(text: String) {
        #expect(throws: ParleyError.self) { try JSONValue(parsingLeniently: text) }
    }

    @Test func errorsGiveTheLineAndColumnOfTheTextAsGiven() {
        do {
            _ = try JSONValue(parsingLeniently: "[1,\n 2,\n x]")
            Issue.record("should fail")
        } catch {
            #expect(error.code == .malformedJSON)
            #expect(error.message.contains("line 3"), "\(error.message)")
        }
    }

    @Test func theOtherStrictRulesHold() {
        #expect(throws: ParleyError.self) { try JSONValue(parsingLeniently: #"{"a": 1, "a": 2,}"#) }
        #expect(throws: ParleyError.self) { try JSONValue(parsingLeniently: [0x5B, 0xFF, 0x2C, 0x5D]) }
        do {
            _ = try JSONValue(parsingLeniently: #"{"a": 1, "a": 2,}"#)
        } catch {
            #expect(error.code == .duplicateKey)
        }
    }
}
