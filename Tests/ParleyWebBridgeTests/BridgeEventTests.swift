import Testing

@testable import ParleyWebBridge

/// An app's own extension type, as in miibo's guide (`appAction`, or state such as `username`).
struct AppExtensions: Decodable, Sendable, Equatable {
    var appAction: String?
    var username: String?
}

@Suite("ParleyWebBridge events")
struct BridgeEventTests {
    @Test func agentLoaded() {
        guard case .agentLoaded = AnyBridgeEvent(body: #"{"event":"agentLoaded"}"#) else {
            Issue.record("expected agentLoaded")
            return
        }
    }

    /// The seed's first shape: `extensions` beside `bestResponse` (miibo's 2022 apps).
    @Test func agentRespondedWithExtensionsBesideBestResponse() throws {
        let body = """
            {
                "event": "agentResponded",
                "bestResponse": {
                    "utterance": "差し支えなければお名前を教えてください。",
                    "options": ["匿名", "ジョナサン", "太郎", "ジョン"],
                    "is_enabled_free_input": true
                },
                "extensions": {"appAction": "askName"}
            }
            """
        guard case .agentResponded(let response) = BridgeEvent<AppExtensions>(body: body) else {
            Issue.record("expected agentResponded")
            return
        }
        #expect(response.utterance == "差し支えなければお名前を教えてください。")
        #expect(response.options == ["匿名", "ジョナサン", "太郎", "ジョン"])
        #expect(response.isFreeInputEnabled == true)
        #expect(response.extensions == AppExtensions(appAction: "askName"))
        #expect(response.extensionsJSON == ["appAction": "askName"])
        #expect(response.extensionsProblem == nil)
    }

    /// The seed's second shape: `extensions` inside `bestResponse` (2023), preferred over the one beside it.
    @Test func agentRespondedWithExtensionsInsideBestResponse() {
        let body = """
            {"event": "agentResponded",
             "bestResponse": {"utterance": "Hi Taro", "options": [], "is_enabled_free_input": true,
                              "extensions": {"username": "Taro"}},
             "extensions": {"username": "ignored"}}
            """
        guard case .agentResponded(let response) = BridgeEvent<AppExtensions>(body: body) else {
            Issue.record("expected agentResponded")
            return
        }
        #expect(response.extensions == AppExtensions(username: "Taro"))
    }

    /// `"extensions": null` (the seed's example) and no extensions at all: nil, no problem.
    @Test func agentRespondedWithoutExtensions() {
        for body in [
            #"{"event":"agentResponded","bestResponse":{"utterance":"Hi","options":["a"],"is_enabled_free_input":true},"extensions":null}"#,
            #"{"event":"agentResponded","bestResponse":{"utterance":"Hi"}}"#,
        ] {
            guard case .agentResponded(let response) = BridgeEvent<AppExtensions>(body: body) else {
                Issue.record("expected agentResponded for \(body)")
                continue
            }
            #expect(response.utterance == "Hi")
            #expect(response.extensions == nil && response.extensionsJSON == nil && response.extensionsProblem == nil)
        }
    }

    /// Extensions of the wrong shape do not lose the response: the raw JSON and the reason are kept.
    @Test func extensionsThatDoNotDecodeAreReportedNotFatal() {
        let body = #"{"event":"agentResponded","bestResponse":{"utterance":"Hi","extensions":{"appAction":42}}}"#
        guard case .agentResponded(let response) = BridgeEvent<AppExtensions>(body: body) else {
            Issue.record("expected agentResponded")
            return
        }
        #expect(response.utterance == "Hi")
        #expect(response.extensions == nil)
        #expect(response.extensionsJSON == ["appAction": 42])
        #expect(response.extensionsProblem?.code == .invalidValue)
        #expect(response.extensionsProblem?.path?.description == "$.bestResponse.extensions")
    }

    /// What Parley's widget adds: the whole payload and who sent it.
    @Test func parleyWidgetResponseCarriesThePayload() {
        let body = """
            {"event":"agentResponded","bestResponse":{"utterance":"Which crust?","options":["Thin","Thick"],
             "is_enabled_free_input":true,"extensions":null},"extensions":null,"source":"BOT",
             "messagePayload":{"type":"text","text":"Which crust?","actions":[
               {"type":"postback","label":"Thin","postback":{"crust":"thin"}},
               {"type":"postback","label":"Thick","postback":{"crust":"thick"}}]}}
            """
        guard case .agentResponded(let response) = AnyBridgeEvent(body: body) else {
            Issue.record("expected agentResponded")
            return
        }
        #expect(response.source == "BOT")
        #expect(response.messagePayload?.text == "Which crust?")
        #expect(response.messagePayload?.actions?.map(\.label) == ["Thin", "Thick"])
    }

    @Test func errorsWithNumberOrStringCodes() {
        guard case .error(let miibo) = AnyBridgeEvent(body: #"{"error":{"code":400,"message":"不適切なリクエストが送信されました。"}}"#)
        else {
            Issue.record("expected an error")
            return
        }
        #expect(miibo == PageError(code: "400", message: "不適切なリクエストが送信されました。"))
        guard case .error(let parley) = AnyBridgeEvent(body: #"{"error":{"code":"channel.unknown","message":"no"}}"#)
        else {
            Issue.record("expected an error")
            return
        }
        #expect(parley.code == "channel.unknown")
        guard case .error(let bare) = AnyBridgeEvent(body: #"{"error":"down"}"#) else {
            Issue.record("expected an error")
            return
        }
        #expect(bare == PageError(code: .unspecified, message: "down"))
    }

    @Test func unknownEventsAreKeptWhole() {
        guard case .unknown(let event) = AnyBridgeEvent(body: #"{"event":"agentTyping","x":1}"#) else {
            Issue.record("expected unknown")
            return
        }
        #expect(event.name == "agentTyping")
        #expect(event.json == ["event": "agentTyping", "x": 1])
        #expect(event.problem == nil)
        #expect(event.body == #"{"event":"agentTyping","x":1}"#)
    }

    /// None of these may crash or throw: each is an unknown event with the reason.
    @Test(arguments: [
        ("not json", "json.malformed"),
        ("[1,2]", "decode.typeMismatch"),
        (#""just a string""#, "decode.typeMismatch"),
        ("{}", "decode.missingField"),
        (#"{"event":"agentResponded"}"#, "decode.missingField"),
        (#"{"event":"agentResponded","bestResponse":"hi"}"#, "decode.typeMismatch"),
        (#"{"event":"agentResponded","bestResponse":{"utterance":1}}"#, "decode.typeMismatch"),
        (#"{"event":"agentResponded","bestResponse":{"utterance":"a","options":[1]}}"#, "decode.typeMismatch"),
        ("", "json.malformed"),
    ])
    func brokenBodiesAreUnknownWithAProblem(body: String, code: String) {
        guard case .unknown(let event) = AnyBridgeEvent(body: body) else {
            Issue.record("expected unknown for \(body)")
            return
        }
        #expect(event.body == body)
        #expect(event.problem?.code.rawValue == code, "\(body): \(String(describing: event.problem))")
    }

    /// A page that posts an object (not a string) reaches the app as JSON; both decode the same.
    @Test func anObjectBodyDecodesLikeItsText() {
        guard
            case .agentResponded(let response) = AnyBridgeEvent(
                json: ["event": "agentResponded", "bestResponse": ["utterance": "Hi", "options": ["a"]]])
        else {
            Issue.record("expected agentResponded")
            return
        }
        #expect(response.options == ["a"])
        guard case .agentLoaded = AnyBridgeEvent(json: .string(#"{"event":"agentLoaded"}"#)) else {
            Issue.record("expected agentLoaded from a JSON string value")
            return
        }
    }
}
