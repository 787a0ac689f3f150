import Foundation
import ParleyCore
import Testing

@Suite("JSONValue parsing and writing")
struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(
            parsing:
                #"{"s":"a\"b\\c\/d\n\u00e9\ud83c\udf55","n":-12.5e2,"i":1569828182,"t":true,"f":false,"z":null,"a":[1,[],{}]}"#
        )
        #expect(value["s"] == "a\"b\\c/d\né🍕")
        #expect(value["n"] == .number(-1250))
        #expect(value["i"]?.intValue == 1_569_828_182)
        #expect(value["t"] == true)
        #expect(value["f"] == false)
        #expect(value["z"] == .null)
        #expect(value["a"] == [1, [], [:]])
        #expect(value.objectValue?.keys == ["s", "n", "i", "t", "f", "z", "a"])
    }

    @Test func writesCompactJSONInMemberOrder() {
        let value: JSONValue = ["b": 1, "a": [true, nil, 2.5], "c": "x\"y\u{1}"]
        #expect(value.jsonString() == #"{"b":1,"a":[true,null,2.5],"c":"x\"y\u0001"}"#)
    }

    @Test func writesPrettyJSON() {
        let value: JSONValue = ["a": [1, 2], "b": [:]]
        #expect(value.jsonString(pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}")
    }

    @Test(arguments: [
        "0", "-0", "1", "-1", "9007199254740992", "1.5", "37.529818", "-122.265987", "1e-05", "6.02e+23", "0.1",
        "123456789012345678", "5e-324", "1.7976931348623157e308",
    ])
    func numbersSurviveAWriteAndRead(text: String) throws {
        let value = try JSONValue(parsing: text)
        let again = try JSONValue(parsing: value.jsonString())
        #expect(again == value)
        #expect(value.doubleValue == Double(text))
    }

    @Test func wholeNumbersAreWrittenWithoutAFraction() {
        #expect(JSONValue.number(1_569_828_182).jsonString() == "1569828182")
        #expect(JSONValue.number(-3).jsonString() == "-3")
        #expect(JSONValue.number(0.25).jsonString() == "0.25")
    }

    @Test func stringsRoundTripThroughEscapes() throws {
        let text = "quote \" backslash \\ tab \t newline \n nul \u{0} emoji 🍕 accents éü"
        let written = JSONValue.string(text).jsonString()
        #expect(try JSONValue(parsing: written) == .string(text))
    }

    /// Short ASCII strings are made without `String(decoding:as:)` (JSONParser's `SmallString`): every length
    /// around the inline limit, as keys and values, must give the very strings the standard library would.
    @Test func shortStringsEqualTheStandardLibrarysOwn() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for length in 0...20 {
            for text in [
                String(decoding: alphabet.prefix(length), as: UTF8.self), String(repeating: "é", count: length),
            ] {
                let value = try JSONValue(parsing: "{\"\(text)\": \"\(text)\"}")
                let object = try #require(value.objectValue)
                #expect(object.keys == [text])
                #expect(object[text] == .string(text))
                #expect(object.members.first?.key.utf8.elementsEqual(text.utf8) == true)
                #expect(object.members.first?.key.hashValue == text.hashValue)
                #expect(value["\(text)"]?.stringValue.map { $0 + "!" } == text + "!")
            }
        }
    }

    @Test func objectEqualityIgnoresOrderButWritingKeepsIt() throws {
        let first = try JSONValue(parsing: #"{"a":1,"b":{"c":2,"d":3}}"#)
        let second = try JSONValue(parsing: #"{"b":{"d":3,"c":2},"a":1}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(second.jsonString() == #"{"b":{"d":3,"c":2},"a":1}"#)
        #expect(first != (try JSONValue(parsing: #"{"a":1,"b":{"c":2}}"#)))
    }

    @Test func parsesFromDataAndArrays() throws {
        let text = #"{"messagePayload":{"type":"text","text":"hi"}}"#
        #expect(try JSONValue(parsing: Data(text.utf8)) == JSONValue(parsing: text))
        #expect(try JSONValue(parsing: Array(text.utf8)) == JSONValue(parsing: text))
        #expect(try JSONValue(parsing: text.utf8.reversed().reversed()) == JSONValue(parsing: text))
    }

    @Test func agreesWithJSONSerializationOnTheSeedMessages() throws {
        for fixture in try Fixture.all() {
            let ours = try JSONValue(parsing: fixture.data)
            let theirs = try JSONSerialization.jsonObject(with: fixture.data)
            let viaTheirs = try JSONSerialization.data(withJSONObject: theirs)
            #expect(try JSONValue(parsing: viaTheirs) == ours, "\(fixture.name)")
        }
    }

    @Test func codableBridgeRoundTrips() throws {
        let value: JSONValue = ["a": [1, "two", nil, false], "b": ["c": 2.5]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(try JSONValue(parsing: data) == value)
    }

    @Test func objectSubscriptReplacesAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == 3)
    }

    @Test func largeObjectsAreCheckedForRepeatedKeys() {
        let members = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(throws: Never.self) { try JSONValue(parsing: "{\(members)}") }
        #expect(
            performing: { try JSONValue(parsing: "{\(members),\"k7\":0}") },
            throws: { error in
                (error as? ParleyError)?.code == .duplicateKey && (error as? ParleyError)?.path?.description == "$.k7"
            })
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(throws: ParleyError.self) { try JSONValue(parsing: deep) }
        #expect(error.code == .nestingTooDeep)
        let allowed =
            String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: allowed) }
    }

    @Test func pathsRoundTripThroughText() throws {
        let path = JSONPath([.key("messagePayload"), .key("system.state"), .index(3), .key("a\"b")])
        #expect(path.description == #"$.messagePayload["system.state"][3]["a\"b"]"#)
        #expect(JSONPath(parsing: path.description) == path)
        #expect(JSONPath(parsing: "$") == JSONPath())
        #expect(JSONPath(parsing: "messagePayload") == nil)
    }
}
