import ParleyCore
import Testing

/// Unknown payload types, action types, field display types, enumeration values and keys decode, and encode back
/// unchanged: a newer server never breaks an older client.
@Suite("Open wire types")
struct OpenWireTypesTests {
    func roundTrip<Value: JSONConvertible & Equatable>(_ type: Value.Type, _ text: String) throws -> Value {
        let input = try JSONValue(parsing: text)
        let value = try Value(json: input)
        #expect(value.jsonValue == input)
        #expect(try Value(json: value.jsonValue) == value)
        return value
    }

    @Test func unknownPayloadTypeKeepsItsMembersAndTypedSharedParts() throws {
        let message = try roundTrip(
            SkillMessage.self,
            #"{"messagePayload":{"type":"poll","question":"Crust?","choices":["thin","thick"],"actions":[{"type":"postback","label":"Skip","postback":"skip"}]},"source":"BOT"}"#
        )
        #expect(message.payload.content == .unknown("poll"))
        #expect(message.payload.type == "poll")
        #expect(message.payload.extra["question"] == "Crust?")
        #expect(message.payload.actions?.first?.label == "Skip")
    }

    @Test func unknownPayloadTypeWithUnexpectedSharedKeysStaysWhole() throws {
        let message = try roundTrip(
            SkillMessage.self, #"{"messagePayload":{"type":"grid","actions":"all","headerText":7}}"#)
        #expect(message.payload.content == .unknown("grid"))
        #expect(message.payload.actions == nil)
        #expect(message.payload.extra == ["actions": "all", "headerText": 7])
    }

    @Test func unknownActionType() throws {
        let action = try roundTrip(
            Action.self, #"{"type":"scan","label":"Scan a code","format":"qr","options":{"torch":true}}"#)
        #expect(action.kind == .unknown("scan"))
        #expect(action.label == "Scan a code")
        #expect(action.extra == ["format": "qr", "options": ["torch": true]])
        let odd = try roundTrip(Action.self, #"{"type":"scan","label":{"en":"Scan"}}"#)
        #expect(odd.label == nil)
        #expect(odd.extra == ["label": ["en": "Scan"]])
    }

    @Test func unknownFieldDisplayType() throws {
        let field = try roundTrip(
            Field.self, ##"{"displayType":"signature","id":"sign","label":"Sign here","penColor":"#000"}"##)
        #expect(field.kind == .unknown("signature"))
        #expect(field.kind.isEditable == false)
        #expect(field.id == "sign")
        #expect(field.extra == ["penColor": "#000"])
        let odd = try roundTrip(Field.self, #"{"displayType":"signature","required":"always"}"#)
        #expect(odd.required == nil)
        #expect(odd.extra == ["required": "always"])
    }

    @Test func unknownEnumerationValues() throws {
        let message = try roundTrip(
            SkillMessage.self,
            #"{"messagePayload":{"type":"card","layout":"grid","cards":[{"title":"a","actions":[{"type":"postback","label":"x","postback":"x","style":"subtle","displayType":"chip"}]}]},"source":"SYSTEM"}"#
        )
        #expect(message.source == "SYSTEM")
        guard case .card(let cards) = message.payload.content else {
            Issue.record("not a card")
            return
        }
        #expect(cards.layout == "grid")
        #expect(cards.cards[0].actions?[0].style == "subtle")
        _ = try roundTrip(MessagePayload.self, #"{"type":"status","status":"AWAY"}"#)
        _ = try roundTrip(MessagePayload.self, #"{"type":"textStream","text":"","streamState":"paused"}"#)
        _ = try roundTrip(MessagePayload.self, #"{"type":"command","command":"teleport"}"#)
    }

    @Test func unknownKeysAtEveryLevel() throws {
        let message = try roundTrip(
            SkillMessage.self,
            """
            {"messagePayload":{"type":"editForm","x1":1,"fields":[{"displayType":"singleSelect","id":"s","x2":[2],
             "options":[{"label":"a","x3":{"three":3}}]}],"actions":[{"type":"submitForm","label":"Go","x4":null,
             "voice":{"text":"go","x5":5}}],"footerForm":{"x6":6,"formRows":[{"x7":7,"columns":[{"x8":8,"fields":[]}]}]},
             "channelExtensions":{"x9":9}},
             "source":"BOT","x10":"ten","sequence":42}
            """
        )
        #expect(message.extra == ["x10": "ten", "sequence": 42])
        #expect(message.payload.extra == ["x1": 1])
        #expect(message.payload.channelExtensions?["x9"] == 9)
        #expect(message.payload.actions?[0].extra == ["x4": nil])
        #expect(message.payload.actions?[0].voice?.extra == ["x5": 5])
        #expect(message.payload.footerForm?.extra == ["x6": 6])
        #expect(message.payload.footerForm?.formRows?[0].extra == ["x7": 7])
        #expect(message.payload.footerForm?.formRows?[0].columns[0].extra == ["x8": 8])
        guard case .editForm(let form) = message.payload.content else {
            Issue.record("not an edit form")
            return
        }
        #expect(form.fields?[0].extra == ["x2": [2]])
        guard case .singleSelect(let choices) = form.fields?[0].kind else {
            Issue.record("not a select")
            return
        }
        #expect(choices.options[0].extra == ["x3": ["three": 3]])
    }

    @Test func explicitNullsSurvive() throws {
        let message = try roundTrip(
            SkillMessage.self, #"{"messagePayload":{"type":"text","text":"a","headerText":null},"msgId":null}"#)
        #expect(message.msgId == nil)
        #expect(message.payload.headerText == nil)
    }

    @Test func unknownFramesAndStateTypes() throws {
        let server = try roundTrip(ServerFrame.self, #"{"ack":{"clientMessageId":"c-1","sequence":7}}"#)
        #expect(server == .unknown(["ack": ["clientMessageId": "c-1", "sequence": 7]]))
        let client = try roundTrip(ClientFrame.self, #"{"resume":{"after":41}}"#)
        #expect(client == .unknown(["resume": ["after": 41]]))
        let state = try roundTrip(ClientFrame.self, #"{"state":{"type":"capabilities","extensions":["ack"]},"v":2}"#)
        guard case .state(let frame) = state else {
            Issue.record("not a state frame")
            return
        }
        #expect(frame.type == "capabilities")
        #expect(frame.extra == ["extensions": ["ack"]])
        #expect(frame.envelopeExtra == ["v": 2])
    }
}
