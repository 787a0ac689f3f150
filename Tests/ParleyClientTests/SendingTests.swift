import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the client sends, in what order, and what its hooks do — checked where the skill receives it.
@Suite("Chat client sending and hooks", .serialized, .timeLimit(.minutes(2)))
struct SendingTests {
    /// Runs a client on a webhook channel whose bot records every request, in order.
    func withRecordedChat(
        configure: @Sendable (inout ChatClient.Configuration) -> Void = { _ in }, hooks: ChatClient.Hooks = .init(),
        _ body: @Sendable (ChatClient, EventReader, RecordingBot, InProcessServer) async throws -> Void
    ) async throws {
        try await RecordingBot.run { bot, webhook in
            let channel = ChannelConfiguration(id: "hooked", skill: .webhook(webhook))
            try await InProcessServer.run(channels: [channel]) { server in
                var configuration = ChatClient.Configuration(url: server.url, channelId: "hooked", userId: "dee")
                configure(&configuration)
                let client = ChatClient(configuration: configuration, hooks: hooks)
                let events = EventReader(await client.events())
                try await client.initialize()
                try await body(client, events, bot, server)
                await client.destroy()
            }
        }
    }

    @Test func theProfileGoesBeforeTheHiddenMessageWhichIsNeverShown() async throws {
        try await withRecordedChat(configure: {
            $0.initUserProfile = Profile(givenName: "Dee", properties: ["lastOrder": "1 medium pepperoni"])
            $0.initUserHiddenMessage = "start"
        }) { client, events, bot, _ in
            var events = events
            try await events.expectReply("echo: start")
            let requests = await bot.requests
            #expect(requests.count == 2)
            #expect(requests.first?["profile"]?["givenName"] == "Dee")
            #expect(requests.first?["profile"]?["properties"]?["lastOrder"] == "1 medium pepperoni")
            #expect(requests.last?["messagePayload"]?["text"] == "start")
            let transcript = await client.messages()
            #expect(transcript.map(\.sender) == [.bot], "only the answer; the hidden message is not kept")
        }
    }

    @Test func everyKindOfUserMessageArrivesIntact() async throws {
        try await withRecordedChat { client, events, bot, _ in
            var events = events
            try await client.send(text: "hi")
            try await events.expectReply("echo: hi")
            try await client.sendLocation(latitude: 37.529818, longitude: -122.265987, title: "HQ")
            try await events.expectReply("got location")
            try await client.submitForm(["name": "Dee", "size": 2], partialSubmitField: "size")
            try await events.expectReply("got formSubmission")
            try await client.sendPostback(.postback("Large", ["state": "askSize", "size": "large"]))
            try await events.expectReply("got postback")
            try await client.updateProfile(Profile(email: "dee@example.com"))
            try await client.send(
                .init(.inboundEvent(.init(eventType: "com.example.ping", eventVersion: "1", eventData: ["n": 1]))))
            try await events.expectReply("got inboundEvent")

            let payloads = await bot.requests.map { $0["messagePayload"] ?? ["profile": $0["profile"] ?? nil] }
            #expect(payloads.count == 6)
            #expect(payloads[1]["location"]?["latitude"] == 37.529818)
            #expect(payloads[1]["location"]?["title"] == "HQ")
            #expect(payloads[2]["submittedFields"] == ["name": "Dee", "size": 2])
            #expect(payloads[2]["partialSubmitField"] == "size")
            #expect(payloads[3]["postback"] == ["state": "askSize", "size": "large"])
            #expect(payloads[3]["text"] == "Large")
            #expect(payloads[4]["profile"]?["email"] == "dee@example.com")
            #expect(payloads[5]["eventType"] == "com.example.ping")
            let sent = await client.messages().filter { $0.sender == .user }.map(\.payload.type)
            #expect(sent == [.text, .location, .formSubmission, .postback, .inboundEvent])
            await expectFailure(.unsupportedAction) {
                try await client.sendPostback(Action(.call(phoneNumber: "123"), label: "Call"))
            }
        }
    }

    @Test func hooksChangeAndDropMessages() async throws {
        let hooks = ChatClient.Hooks(
            beforeSend: { message in
                guard message.payload.text != "secret" else { return nil }
                var message = message
                if message.payload.text == "shout" { message.payload = .text("SHOUT") }
                return message
            },
            beforeDisplay: { message in
                guard message.payload.text != "echo: hidden" else { return nil }
                var message = message
                message.payload.footerText = "seen by the hook"
                return message
            },
            beforeSendPostback: { action in
                guard action.label != "Nope" else { return nil }
                var action = action
                action.label = "Changed"
                return action
            })
        try await withRecordedChat(hooks: hooks) { client, events, bot, _ in
            var events = events
            #expect(try await client.send(text: "secret") == nil)
            try await client.send(text: "shout")
            let shouted = try await events.received()
            #expect(shouted.payload.text == "echo: SHOUT")
            #expect(shouted.payload.footerText == "seen by the hook")

            try await client.send(text: "hidden")  // the answer is dropped by beforeDisplay
            #expect(try await client.sendPostback(.postback("Nope", "x")) == nil)
            let changed = try #require(try await client.sendPostback(.postback("Yes", ["pick": "yes"])))
            #expect(changed.payload.text == "Changed")
            let next = try await events.received()
            #expect(next.payload.text == "got postback", "the dropped answer was never reported")

            let texts = await bot.requests.compactMap { $0["messagePayload"]?["text"]?.stringValue }
            #expect(texts == ["SHOUT", "hidden", "Changed"], "secret and Nope never left the client")
            let shown = await client.messages().filter { $0.sender == .bot }.compactMap(\.payload.text)
            #expect(shown == ["echo: SHOUT", "got postback"])
        }
    }

    @Test func jsonHooksWorkOnTheWireForm() async throws {
        let hooks = ChatClient.Hooks.json(
            beforeSend: { json in
                guard case .object(var object) = json, case .object(var payload)? = object["messagePayload"] else {
                    return json
                }
                if payload["text"] == "drop" { return nil }
                payload["text"] = .string("[\(payload["text"]?.stringValue ?? "")]")
                object["messagePayload"] = .object(payload)
                return .object(object)
            },
            beforeDisplay: { json in json["messagePayload"]?["text"] == "echo: [broken]" ? ["not": "a message"] : json }
        )
        try await withRecordedChat(hooks: hooks) { client, events, bot, _ in
            var events = events
            #expect(try await client.send(text: "drop") == nil)
            try await client.send(text: "broken")  // its answer no longer decodes: dropped
            try await client.send(text: "fine")
            try await events.expectReply("echo: [fine]")
            #expect(
                await bot.requests.compactMap { $0["messagePayload"]?["text"]?.stringValue } == ["[broken]", "[fine]"])
        }
    }

    @Test func attachmentsAreCheckedThenUploadedThenSent() async throws {
        try await withRecordedChat { client, events, bot, server in
            var events = events
            let file = Data("%PDF-1.7\n".utf8) + Data((0..<1015).map { UInt8($0 % 251) })  // the server sniffs
            let (fractions, progress) = AsyncStream.makeStream(of: Double.self)
            let sent = try #require(
                try await client.sendAttachment(file, fileName: "notes.pdf", mimeType: "application/pdf") { fraction in
                    progress.yield(fraction)
                })
            progress.finish()
            let uploaded = try await events.next("the upload") {
                if case .attachmentUploaded(let attachment) = $0 { attachment } else { nil }
            }
            #expect(uploaded.type == .file)
            #expect(uploaded.title == "notes.pdf")
            #expect(sent.payload == .attachment(uploaded))
            try await events.expectReply("got attachment")
            #expect(await bot.requests.last?["messagePayload"]?["attachment"]?["url"]?.stringValue == uploaded.url)
            var values: [Double] = []
            for await fraction in fractions { values.append(fraction) }
            #expect(values.first == 0)
            #expect(values.last == 1)
            #expect(values == values.sorted(), "progress only grows")
            let (body, _) = try await URLSession.shared.data(from: try #require(URL(string: uploaded.url)))
            #expect(body == file)
            _ = server

            await expectFailure(.attachmentTooLarge, "25 MiB + 1") {
                try await client.sendAttachment(
                    Data(count: 25 * 1024 * 1024 + 1), fileName: "big.bin", mimeType: "application/octet-stream")
            }
            await expectFailure(.attachmentTooLarge, "an empty file") {
                try await client.sendAttachment(Data(), fileName: "empty.txt", mimeType: "text/plain")
            }
        }
    }

    @Test func theShareMenuFiltersTypesAndSizes() async throws {
        try await withRecordedChat(configure: {
            $0.shareMenuConfiguration = ShareMenuConfiguration(
                items: [.photoAndVideoLibrary], customItems: [ShareMenuCustomItem(types: ["pdf"], maxSizeKiB: 1)])
        }) { client, events, bot, _ in
            var events = events
            await expectFailure(.attachmentTypeNotAllowed, "a text file") {
                try await client.sendAttachment(Data("hi".utf8), fileName: "a.txt", mimeType: "text/plain")
            }
            await expectFailure(.attachmentTooLarge, "a 2 KiB PDF over the item's 1 KiB") {
                try await client.sendAttachment(Data(count: 2048), fileName: "a.pdf", mimeType: "application/pdf")
            }
            try await client.sendAttachment(
                Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), fileName: "dot.png", mimeType: "image/png")
            try await events.expectReply("got attachment")
            #expect(await bot.requests.count == 1, "only the allowed file reached the skill")
        }
        try await withRecordedChat(configure: { $0.enableAttachment = false }) { client, _, _, _ in
            await expectFailure(.featureDisabled) {
                try await client.sendAttachment(Data("x".utf8), fileName: "x.png", mimeType: "image/png")
            }
        }
    }

    @Test func theShareMenuChangesAtRunTime() async throws {
        try await withRecordedChat { client, events, bot, _ in
            var events = events
            #expect(await client.shareMenuItems() == ShareMenuConfiguration(), "as configured: every item")
            let pdf = Data("%PDF-1.7\n".utf8) + Data((0..<2039).map { UInt8($0 % 251) })  // 2 KiB
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let narrow = ShareMenuConfiguration(
                items: [.photoAndVideoLibrary],
                customItems: [ShareMenuCustomItem(types: ["com.adobe.pdf"], maxSizeKiB: 1)])
            await client.setShareMenuItems(narrow.items, customItems: narrow.customItems)
            #expect(await client.shareMenuItems() == narrow)
            #expect(await client.configuration.shareMenuConfiguration == narrow, "a screen reading the flags sees it")
            await expectFailure(.attachmentTypeNotAllowed, "a text file the new menu does not offer") {
                try await client.sendAttachment(Data("hi".utf8), fileName: "a.txt", mimeType: "text/plain")
            }
            await expectFailure(.attachmentTooLarge, "a 2 KiB PDF over the new item's 1 KiB") {
                try await client.sendAttachment(pdf, fileName: "big.pdf", mimeType: "application/pdf")
            }
            try await client.sendAttachment(png, fileName: "dot.png", mimeType: "image/png")
            try await events.expectReply("got attachment")

            await client.setShareMenuItems(ShareMenuConfiguration(items: [.files]))
            #expect(await client.shareMenuItems().items == [.files])
            try await client.sendAttachment(pdf, fileName: "big.pdf", mimeType: "application/pdf")
            try await events.expectReply("got attachment")
            #expect(
                await bot.requests.compactMap { $0["messagePayload"]?["attachment"]?["title"]?.stringValue }
                    == ["dot.png", "big.pdf"], "only what the menu allowed at the time reached the skill")
        }
    }
}
