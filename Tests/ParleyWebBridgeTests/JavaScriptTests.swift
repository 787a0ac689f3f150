import Testing

@testable import ParleyWebBridge

@Suite("ParleyWebBridge commands and JavaScript literals")
struct JavaScriptTests {
    @Test func aStringLiteralIsJSONThatCannotCloseAScriptOrBreakALine() throws {
        #expect(JavaScript.literal("Hi </script>\u{2028}\u{2029}") == #""Hi <\/script>\u2028\u2029""#)
        #expect(JavaScript.literal("<!-- x") == #""\u003C!-- x""#)
        for value in HostileStrings.all {
            let literal = JavaScript.literal(value)
            #expect(!literal.lowercased().contains("</"), "\(literal)")
            #expect(!literal.contains("<!--"))
            #expect(
                !literal.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\n" || $0 == "\r" })
            // Still JSON, with the same value: so the browser test's evaluation is the only other reading.
            #expect(try JSONValue(parsing: literal) == .string(value))
        }
    }

    @Test func literalsOfOtherValuesKeepTheirValue() throws {
        let value: JSONValue = ["text": "a</script>b", "list": [1, 2.5, true, .null], "nested": ["x": "\u{2028}"]]
        let literal = JavaScript.literal(value)
        #expect(literal == #"{"text":"a<\/script>b","list":[1,2.5,true,null],"nested":{"x":"\u2028"}}"#)
        #expect(try JSONValue(parsing: literal) == value)
    }

    @Test func commandsCallTheFunctionWithLiteralArguments() {
        #expect(BridgeCommand.sendMessage("hi").javaScript == #"sendMessage("hi");"#)
        #expect(BridgeCommand.sendMessage(#"a"b"#).javaScript == #"sendMessage("a\"b");"#)
        #expect(BridgeCommand.setAppInfo(apiKey: "key", uid: "user-1").javaScript == #"setAppInfo("key","user-1");"#)
        #expect(BridgeCommand.setAppInfo(apiKey: nil, uid: "u").javaScript == #"setAppInfo(null,"u");"#)
        #expect(BridgeCommand.clearConversation.javaScript == "parley.clearConversation();")
        #expect(BridgeCommand.endConversation.javaScript == "parley.endConversation();")
        #expect(
            JavaScript.configurationScript(["channelId": "demo", "title": "</script>"])
                == #"window.parleyConfig = {"channelId":"demo","title":"<\/script>"};"#)
    }

    @Test func hostileArgumentsStayInsideTheirArgument() throws {
        for value in HostileStrings.all {
            for command in [BridgeCommand.sendMessage(value), .setAppInfo(apiKey: value, uid: value)] {
                let script = command.javaScript
                #expect(script.hasPrefix(command.function + "(") && script.hasSuffix(");"))
                // The text between the parentheses is a JSON array of the arguments, equal to them.
                let inner = script.dropFirst(command.function.count + 1).dropLast(2)
                #expect(try JSONValue(parsing: "[" + inner + "]") == .array(command.arguments))
            }
        }
    }

    @Test(arguments: ["sendMessage", "parley.sendMessage", "$x._y1", "a.b.c"])
    func functionNamesThatAreIdentifiers(name: String) throws {
        #expect(try BridgeCommand(function: name, arguments: ["x"]).javaScript == "\(name)(\"x\");")
    }

    @Test(arguments: ["", "send Message", "alert(1);x", "a..b", ".a", "a.", "1a", "a[0]", "x\u{2028}y", "é"])
    func otherFunctionNamesAreRefused(name: String) {
        #expect(throws: ParleyError.self) { _ = try BridgeCommand(function: name) }
    }
}
