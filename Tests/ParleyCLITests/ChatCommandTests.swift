import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

@testable import parley

/// `parley chat` driven through a pipe, as a script drives it, and the renderer on every payload type.
@Suite("parley chat", .serialized, .timeLimit(.minutes(2)))
struct ChatCommandTests {
    func parley(_ arguments: [String], input: String) async throws -> DecodeCommandTests.Run {
        try await DecodeCommandTests().parley(arguments, input: input)
    }

    @Test func aPipedOrderPrintsThePizzaCardsAndFollowsANumberedChoice() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let run = try await parley(
                ["chat", "--url", server.url.absoluteString, "--channel", "demo", "--user", "pat"],
                input: "Order Pizza\n4\n")
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("Hawaiian Pizza"))
            #expect(run.output.contains("Cheese Pizza"))
            // The greeting's question numbers its two buttons first; the cards go on from 3.
            #expect(run.output.contains("  [2] Cancel A Previous Order\n• Hawaiian Pizza"))
            #expect(run.output.contains("    [4] Order Large"))
            #expect(run.output.contains("large hawaiian pizza"), "the choice [4] was the Hawaiian's Order Large")
            #expect(!run.output.contains("[connected]"), "no status lines when piped")
        }
    }

    /// The README's first command, driven through a pipe: a whole order, from greeting to delivery.
    @Test func theDemoTakesAnOrderFromGreetingToDelivery() async throws {
        let run = try await parley(
            ["demo", "--name", "Ann"], input: "Order Pizza\n4\n/location 37.5,-122.3\n")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix("Hi Ann! Welcome to Parley Pizza.\n"))
        #expect(run.output.contains("Where should we deliver your large cheese pizza?"))
        #expect(run.output.contains("Your large cheese pizza on thick crust is on its way"))
    }

    /// `parley chat --backend genesys`: the same screen model and terminal, a GMS chat behind them — here the
    /// simulator of a real `parley serve --gms` process.
    @Test func theGenesysBackendChatsWithTheGMSSimulatorThroughTheSameScreen() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID())")
        let server = try await ServerProcess.start(["--gms", "--port", "0", "--data", data.path])
        let port = try await server.listeningPort()
        let run = try await parley(
            [
                "chat", "--backend", "genesys", "--url", "http://127.0.0.1:\(port)", "--service", "S1",
                "--name", "Ann Lee",
            ],
            input: "hello there\nbye\n")
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let hello = try #require(lines.firstIndex { $0.contains("You said: hello there") }, "\(run.output)")
        let goodbye = try #require(lines.firstIndex { $0.contains("Goodbye!") }, "\(run.output)")
        #expect(hello < goodbye)
        #expect(run.output.contains("Kristi Sippola has joined the session"))
        #expect(!run.output.contains("is typing"), "typing notices are the typing indicator, not messages")

        let picture = data.appendingPathComponent("picture.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: picture)
        let refused = try await parley(
            ["chat", "--backend", "genesys", "--url", "http://127.0.0.1:\(port)", "--service", "S2"],
            input: "/attach \(picture.path)\n/lang fr\nstill here\n")
        #expect(refused.output.contains("You said: still here"), "\(refused.output)")
        #expect(refused.output.contains("backend cannot send files"), "\(refused.output)")
        #expect(!refused.output.contains("Uploading"), "the screen knows before it tries")
        #expect(refused.output.contains("backend cannot change the chat language"), "\(refused.output)")

        let version2 = try await parley(
            [
                "chat", "--backend", "genesys", "--chat-api", "2", "--url", "http://127.0.0.1:\(port)",
                "--service", "customer-support", "--name", "Bo",
            ],
            input: "over cometd\n")
        #expect(version2.status == 0, "\(version2.output)")
        #expect(version2.output.contains("You said: over cometd"), "\(version2.output)")
        try await server.stop()
    }

    @Test func anUnreachableServerFailsWithAClearMessage() async throws {
        let port = try freePort()
        let run = try await parley(["chat", "--url", "http://127.0.0.1:\(port)", "--channel", "demo"], input: "hi\n")
        #expect(run.status == 1)
        #expect(run.output.contains("parley: cannot connect: client.connectionFailed"))
    }

    /// The rows ParleyUI's model makes of a fixture, without timestamps.
    func rowsOf(_ file: String) throws -> (SkillMessage, [ChatRow]) {
        let folder = DecodeCommandTests.fixtures.appendingPathComponent("protocol")
        let message = try SkillMessage(decoding: try Data(contentsOf: folder.appendingPathComponent(file)))
        let rows = RowBuilder(enableTimestamp: false, now: Date()).rows(for: [ChatMessage(envelope: .skill(message))])
        return (message, rows)
    }

    @Test func everyPayloadFixtureTheModelShowsRendersReadably() throws {
        let folder = DecodeCommandTests.fixtures.appendingPathComponent("protocol")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("SkillMessage.")
        }
        #expect(files.count >= 30)
        var renderer = ChatRenderer()
        var shown = 0
        for file in files {
            let (message, rows) = try rowsOf(file)
            let lines = renderer.update(rows).lines
            // What the model shows no row for (docs/ui.md §1.1), and a stream before its end.
            let hidden: [PayloadType] = [
                .formSubmission, .status, .closeSession, .sessionClosed, .inboundEvent, .outboundEvent, .suggest,
                .command, .updateApplicationContextCommand, .executeApplicationActionCommand, .getDebugInfoCommand,
            ]
            let streaming = ["SkillMessage.textStream.start.json", "SkillMessage.textStream.running.json"]
            if hidden.contains(message.payload.type) || streaming.contains(file) {
                #expect(lines.isEmpty, "\(file)")
                continue
            }
            shown += 1
            #expect(!lines.isEmpty, "\(file) renders nothing")
            #expect(!lines.contains { $0.contains("\\n") }, "\(file): escaped text")
        }
        #expect(shown >= 20)
    }

    @Test func aRowIsPrintedOnceAndAStreamWhenItEnds() throws {
        var renderer = ChatRenderer()
        let (_, rows) = try rowsOf("SkillMessage.text.every-action.json")
        #expect(!renderer.update(rows).lines.isEmpty)
        #expect(renderer.update(rows).lines.isEmpty, "nothing new the second time")
        let (_, running) = try rowsOf("SkillMessage.textStream.running.json")
        #expect(renderer.update(running).lines.isEmpty)
    }

    @Test func cardsAndFormsRenderFieldByFieldWithNumbers() throws {
        var renderer = ChatRenderer()
        let (text, rows) = try rowsOf("SkillMessage.text.every-action.json")
        let lines = renderer.update(rows).lines
        let numbered = lines.filter { $0.hasPrefix("  [") }
        #expect(numbered.count == text.payload.actions?.count)
        #expect(numbered.first?.hasPrefix("  [1] ") == true)
        #expect(renderer.choice(1)?.item.action == text.payload.actions?.first)
        #expect(renderer.choice(1)?.rowId == rows.first?.id)

        let (form, formRows) = try rowsOf("SkillMessage.editForm.expense.json")
        let formLines = renderer.update(formRows).lines
        guard case .editForm(let editForm) = form.payload.content else { return }
        for field in editForm.allFields {
            #expect(
                formLines.contains {
                    $0.hasPrefix("  \(field.label ?? field.id ?? "field") (\(field.kind.displayType)")
                })
        }
        #expect(renderer.editForm?.content.form == editForm)
        #expect(formLines.contains("  (type /form to fill it in)"))
    }

    @Test func timestampsAgentNamesAndDisabledActionsComeFromTheRows() throws {
        let folder = DecodeCommandTests.fixtures.appendingPathComponent("protocol")
        let message = try SkillMessage(
            decoding: try Data(contentsOf: folder.appendingPathComponent("SkillMessage.text.every-action.json")))
        let date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC
        let answer = ChatMessage(
            date: date, envelope: .user(UserMessage(payload: .text("ok"))))
        var builder = RowBuilder(timeZone: TimeZone(identifier: "UTC") ?? .current, now: date)
        builder.strings = Strings(locale: "fr")
        let rows = builder.rows(for: [ChatMessage(date: date, envelope: .skill(message)), answer])
        var renderer = ChatRenderer()
        let lines = renderer.update(rows).lines
        #expect(lines.contains("  janvier 1, 2026 00:00"), "the model's absolute timestamp, in its language")
        #expect(lines.contains { $0.hasSuffix("(answered)") }, "disablePastActions: the user answered")
    }
}
