import Foundation
import ParleyServerTesting
import ParleyUI
import Testing

/// Uploads, failed messages sent again, the share menu, and a live agent's rows, against the real server.
@Suite("ChatViewModel attachments, retries and agents", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct AttachmentsAgentsAndRetryTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64))

    static func model(
        url: URL, channel: String = "echo", user: String = "ada",
        _ change: (inout ChatClient.Configuration) -> Void = { _ in }
    ) async -> ChatViewModel {
        var flags = ChatClient.Configuration(url: url, channelId: channel, userId: user)
        change(&flags)
        let model = ChatViewModel(
            client: ChatClient(configuration: flags), configuration: ChatViewModel.Configuration(locale: "en"))
        await model.start()
        return model
    }

    @Test func aFileUploadsAndBecomesAnAttachmentRow() async throws {
        try await InProcessServer.run(channels: [Self.echo]) { server in
            let model = await Self.model(url: server.url)
            try await model.conversation.initialize()
            #expect(model.composer.showsAttachButton)
            #expect(model.composer.shareMenu.map(\.label) == ["Photo & Video Library", "Files", "Camera", "Location"])
            #expect(model.composer.shareMenu.first?.types == ["image/*", "video/*"])

            #expect(await model.attach(Self.png, fileName: "pixel.png", mimeType: "image/png") == .done)
            #expect(model.uploadRows.isEmpty, "the upload row goes when the message is sent")
            await waitUntil("the attachment row") { model.texts.contains("attachment: pixel.png") }
            let row = try #require(model.messageRows.first)
            #expect(row.sender == .user)
            guard case .attachment(let attachment) = row.content else {
                Issue.record("not an attachment")
                return
            }
            #expect(attachment.type == .image)
            #expect(attachment.url.hasPrefix(server.url.absoluteString))
            #expect(attachment.url.hasSuffix("/pixel.png"))
            #expect(row.accessibilityLabel == "User, image attacment pixel.png")
        }
    }

    @Test func aRefusedFileIsAnAlertAndTheShareMenuFollowsTheConfiguration() async throws {
        try await InProcessServer.run(channels: [Self.echo]) { server in
            let model = await Self.model(url: server.url) {
                $0.shareMenuConfiguration = ShareMenuConfiguration(
                    items: [.photoAndVideoLibrary],
                    customItems: [ShareMenuCustomItem(types: ["text/plain"], label: "Notes", maxSizeKiB: 1)])
            }
            try await model.conversation.initialize()
            #expect(model.composer.shareMenu.map(\.label) == ["Photo & Video Library", "Notes"])
            #expect(model.composer.shareMenu.last?.maxSize == 1024)
            #expect(model.composer.shareMenu.last?.types == ["text/plain"])

            let refused = await model.attach(Data("%PDF".utf8), fileName: "menu.pdf", mimeType: "application/pdf")
            #expect(refused.failureCode == .attachmentTypeNotAllowed)
            #expect(model.alert?.title == "Alert")
            #expect(model.alert?.message == "File type not supported")
            #expect(model.uploadRows.isEmpty)
            let large = await model.attach(Data(count: 2048), fileName: "long.txt", mimeType: "text/plain")
            #expect(large.failureCode == .attachmentTooLarge)
            #expect(model.alert?.message == "You can only attach files of size upto 25MB")

            let off = await Self.model(url: server.url, user: "bo") { $0.enableAttachment = false }
            try await off.conversation.initialize()
            #expect(off.composer.showsAttachButton == false)
            #expect(off.composer.shareMenu.isEmpty)
        }
    }

    @Test func aFailedUploadIsRetriedWhenTheServerIsBack() async throws {
        let port = try freePort()
        let url = URL.loopback(port: port)
        let model = await Self.model(url: url) {
            $0.reconnect = .never
            $0.uploadRetryLimit = 0  // no automatic retry: the row offers one
        }
        _ = try? await model.conversation.initialize()  // nothing listens yet: initialized, not connected
        let failed = await model.attach(Self.png, fileName: "pixel.png", mimeType: "image/png")
        #expect(failed.failureCode == .uploadFailed)
        let upload = try #require(model.uploadRows.first)
        #expect(upload.canRetry)
        #expect(upload.statusText == "Upload failed")
        #expect(upload.size == Self.png.count)
        #expect(model.alert == nil, "a failed upload shows in its row")

        try await InProcessServer.run(channels: [Self.echo], configure: { $0.port = port }) { _ in
            #expect(await model.retry(upload.id) == .done)
            #expect(model.uploadRows.isEmpty)
            await waitUntil("the attachment row") { model.texts == ["attachment: pixel.png"] }
            await model.conversation.destroy()
        }
    }

    /// A client on a port where nothing listens, with a clock that only moves when told (so retries wait).
    static func cutOffModel(folder: URL? = nil, port: Int) async -> (ChatViewModel, ChatClient) {
        var flags = ChatClient.Configuration(url: .loopback(port: port), channelId: "echo", userId: "ada")
        flags.reconnect = .never
        flags.storageFolder = folder
        let client = ChatClient(configuration: flags, clock: VirtualClock())
        let model = ChatViewModel(client: client, configuration: ChatViewModel.Configuration(locale: "en"))
        await model.start()
        _ = try? await client.initialize()
        return (model, client)
    }

    @Test func anUploadTheClientTriesAgainSaysSoAndCanBeCancelled() async throws {
        let (model, client) = await Self.cutOffModel(port: try freePort())
        let attaching = Task { await model.attach(Self.png, fileName: "pixel.png", mimeType: "image/png") }
        await waitUntil("the retry") { model.uploadRows.first?.statusText == "Upload failed, trying again…" }
        let row = try #require(model.uploadRows.first)
        #expect(row.canCancel)
        #expect(!row.canRetry, "the client retries by itself")
        #expect(await model.cancelUpload(row.id) == .done)
        #expect(await attaching.value == .ignored)
        #expect(model.uploadRows.isEmpty)
        #expect(model.alert == nil)
        await client.destroy()
    }

    @Test func anUploadResumedAfterARestartHasARow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ui-uploads-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let (before, beforeClient) = await Self.cutOffModel(folder: folder, port: port)
        let attaching = Task { await before.attach(Self.png, fileName: "pixel.png", mimeType: "image/png") }
        await waitUntil("the retry") { before.uploadRows.first?.statusText == "Upload failed, trying again…" }
        await beforeClient.destroy()  // the app ends
        _ = await attaching.value

        let (after, afterClient) = await Self.cutOffModel(folder: folder, port: port)
        await waitUntil("the resumed upload's row") { after.uploadRows.first?.fileName == "pixel.png" }
        let row = try #require(after.uploadRows.first)
        #expect(row.canCancel)
        #expect(row.size == Self.png.count)
        #expect(await after.cancelUpload(row.id) == .done)
        await waitUntil("the row goes") { after.uploadRows.isEmpty }
        #expect(await afterClient.uploads().isEmpty)
        await afterClient.destroy()
    }

    @Test func aMessageTheServerRefusesIsSentAgainOnRetry() async throws {
        try await InProcessServer.run(channels: [Self.echo], configure: { $0.maxFrameSize = 2048 }) { server in
            let model = await Self.model(url: server.url)
            try await model.conversation.initialize()
            let long = String(repeating: "pizza ", count: 500)
            #expect(await model.send(text: long) == .done)
            await waitUntil("the failure") { model.messageRows.first?.delivery == .failed }
            let failed = try #require(model.messageRows.first)
            #expect(failed.canRetry)
            #expect(failed.deliveryText == "Not delivered")

            #expect(await model.retry(failed.id) == .done)
            await waitUntil("the second failure") {
                model.messageRows.count == 1 && model.messageRows[0].id != failed.id
                    && model.messageRows[0].delivery == .failed
            }
            #expect(model.messageRows[0].content == failed.content, "the same text, sent again")
            var transcript = await model.conversation.transcriptUpdates().makeAsyncIterator()
            let now = await transcript.next(isolation: #isolation)
            #expect(now?.count == 2, "the transcript keeps both; the screen shows one")
            #expect(await model.retry("nothing").failureCode == .nothingToRetry)
            #expect(await model.send(text: "short") == .done)
            await waitUntil("the echo") { model.texts.last == "short" && model.messageRows.count == 3 }
        }
    }

    @Test func aLiveAgentsRowsAndTyping() async throws {
        try await InProcessServer.run(channels: [Self.demo], configure: { $0.agentKey = "agents-only" }) { server in
            let model = await Self.model(url: server.url, channel: "demo", user: "uma") {
                $0.botAvatar = "bot.png"
                $0.initUserHiddenMessage = "Hello"
            }
            try await model.conversation.initialize()
            let agent = try await ScriptedAgent.connect(
                to: server.url, key: "agents-only",
                agent: AgentSession(name: "Ava", avatarImage: "https://x/ava.png", nameTextColor: "#336699"))
            _ = try await agent.next("welcome")
            await waitUntil("the question") { model.messageRows.count == 2 }
            #expect(await model.send(text: "I want to talk to an agent") == .done)
            _ = try await agent.next("queue")
            _ = try await agent.next("queue")
            await agent.join(channelId: "demo", userId: "uma")
            _ = try await agent.next("joined")

            await agent.typing(.responding, channelId: "demo", userId: "uma")
            await waitUntil("the agent typing") { model.typingRow?.sender == .agent }
            #expect(model.typingRow?.name == "Ava")
            #expect(model.typingRow?.avatar == .image("https://x/ava.png"))
            await agent.say(.text("Hi, I'm Ava."), channelId: "demo", userId: "uma")
            await agent.say(.text("How can I help?"), channelId: "demo", userId: "uma")
            await waitUntil("the agent's messages") { model.texts.last == "How can I help?" }
            #expect(model.typingRow == nil)
            let rows = model.messageRows.suffix(2)
            #expect(rows.map(\.sender) == [.agent, .agent])
            #expect(rows.map(\.groupPosition) == [.first, .last])
            #expect(rows.first?.senderName == "Ava")
            #expect(rows.first?.senderNameColor?.hex == "#336699")
            #expect(rows.first?.avatar == .image("https://x/ava.png"))
            #expect(model.messageRows.first?.avatar == .image("bot.png"))

            await model.setAgentDetails(AgentSession(name: "Bob"))
            #expect(model.messageRows.suffix(2).first?.senderName == "Bob")
            await model.setPersonAvatar("me.png")
            #expect(model.messageRows.first { $0.sender == .user }?.avatar == .image("me.png"))
            await agent.close()
            await model.conversation.destroy()
        }
    }
}
