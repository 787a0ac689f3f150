// swift-format-ignore-file
// (The examples are copied verbatim from README.md and GettingStarted.md.)
import Foundation
import ParleyCore
import Testing

/// The Swift examples of the README and the Getting Started article, compiled and checked.
/// `everyExampleIsHere` fails when a document changes and this file does not.
@Suite("README and Getting Started examples")
struct ReadmeTests {
    @Test func messageModelExample() throws {
        let frame = #"{"messagePayload":{"type":"card","layout":"horizontal","cards":[{"title":"Hawaiian Pizza","actions":[{"type":"postback","label":"Order Small","postback":{"pizzaSize":"small"}}]}]},"source":"BOT","userId":"guest"}"#
        let message = try SkillMessage(decoding: frame)
        if case .card(let cards) = message.payload.content {
            print(cards.cards.map(\.title))                  // ["Hawaiian Pizza"]
            print(cards.cards[0].actions?[0].label ?? "")    // Order Small
        }

        let reply = UserMessage(payload: .postback(["pizzaSize": "small"], text: "Order Small"), userId: "guest")
        print(reply.jsonString())
        // {"messagePayload":{"type":"postback","postback":{"pizzaSize":"small"},"text":"Order Small"},"userId":"guest"}

        guard case .card(let cards) = message.payload.content else {
            Issue.record("not a card")
            return
        }
        #expect(cards.cards.map(\.title) == ["Hawaiian Pizza"])
        #expect(cards.cards[0].actions?[0].label == "Order Small")
        #expect(reply.jsonString() == #"{"messagePayload":{"type":"postback","postback":{"pizzaSize":"small"},"text":"Order Small"},"userId":"guest"}"#)
    }

    @Test func errorExample() {
        var caught: ParleyError?
        do {
            _ = try SkillMessage(decoding: #"{"messagePayload":{"type":"text","text":42}}"#)
        } catch {
            print(error.code, error.path!)   // decode.typeMismatch $.messagePayload.text
            caught = error
        }
        #expect(caught?.code == .typeMismatch)
        #expect(caught?.path?.description == "$.messagePayload.text")
    }

    @Test func decodeASkillsMessage() throws {
        let data = Array(#"{"messagePayload":{"type":"text","text":"What do you want to do?","actions":[{"type":"postback","label":"Order Pizza","postback":{"action":"orderPizza"}}]},"source":"BOT"}"#.utf8)
        switch try ServerFrame(decoding: data) {
        case .message(let message):
            if case .text(let text) = message.payload.content {
                print(text.text)                                        // What do you want to do?
                print(message.payload.actions?.map(\.label) ?? [])      // [Optional("Order Pizza")]
                #expect(text.text == "What do you want to do?")
                #expect(message.payload.actions?.map(\.label) == ["Order Pizza"])
            }
        case .state, .suggestions, .unknown:
            break
        }
    }

    @Test func sendTheUsersChoice() throws {
        let choice = Action.postback("Order Pizza", ["action": "orderPizza"])
        if case .postback(let postback) = choice.kind {
            let outgoing = UserMessage(payload: .postback(postback, text: choice.label), userId: "guest")
            print(outgoing.jsonString())
            #expect(outgoing.jsonValue == [
                "messagePayload": ["type": "postback", "postback": ["action": "orderPizza"], "text": "Order Pizza"],
                "userId": "guest",
            ])
        }
    }

    @Test func handleBadInput() {
        var caught: ParleyError?
        do {
            _ = try ServerFrame(decoding: Array(#"{"messagePayload":{"type":"card","cards":[]}}"#.utf8))
        } catch {
            print(error.code)         // decode.missingField
            print(error.path!)        // $.messagePayload.layout
            caught = error
        }
        #expect(caught?.code == .missingField)
        #expect(caught?.path?.description == "$.messagePayload.layout")
    }

    @Test func keepWhatYouDoNotKnow() throws {
        let future = try MessagePayload(decoding: #"{"type":"poll","question":"Crust?"}"#)
        print(future.content == .unknown("poll"))    // true
        print(future.jsonString())                   // {"type":"poll","question":"Crust?"}
        #expect(future.content == .unknown("poll"))
        #expect(future.jsonString() == #"{"type":"poll","question":"Crust?"}"#)
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let documents = ["README.md", "Sources/ParleyCore/ParleyCore.docc/GettingStarted.md"]
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = try documents.flatMap { document in
            try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
                .components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        }.filter { !$0.contains("ChatClient") }  // compiled by ParleyClientTests/GettingStartedTests.swift
        #expect(blocks.count == 6)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for block in blocks {
            for line in block.split(separator: "\n") where !line.hasPrefix("import ") {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "README line not compiled here: \(line)")
            }
        }
    }
}
