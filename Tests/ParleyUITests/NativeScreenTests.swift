import Foundation
import ParleyServerTesting
import Testing

@testable import ParleyUI

/// What the native screen (ParleyChatUI) draws beyond the rows: the composer's microphone-or-send button over the
/// draft, the mute button, the app bar's buttons, the share menu's pickers and file types, the app's life, and
/// attachments downloaded for Quick Look.
@Suite("ChatViewModel native screen", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct NativeScreenTests {
    static let echo = [ChannelConfiguration(id: "echo", skill: .echo)]

    @Test func theMicrophoneTakesTheSendButtonsPlaceWhileTheFieldIsEmpty() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let model = try await SpeechViewModelTests.model(server) { $0.enableAutoSendSpeechResponse = false }
            #expect(model.composerButton == .microphone)
            model.editDraft("order")
            #expect(model.draft == "order", "the field shows the model's draft at once")
            #expect(model.composerButton == .send(isEnabled: true))
            model.editDraft("   ")
            #expect(model.composerButton == .microphone, "a blank field is empty")
            model.editDraft("")
            // Dictated text lands in the draft, which the field edits: nothing is lost when auto-send is off.
            #expect(await model.startSpeechInput() == .done)
            await waitUntil("the dictated draft") { model.draft == "order pizza" }
            #expect(model.composerButton == .send(isEnabled: true))
            model.editDraft(model.draft + " now")
            #expect(await model.sendDraft() == .done)
            await waitUntil("the echo") { model.texts.suffix(2) == ["order pizza now", "order pizza now"] }
            #expect(model.draft == "")
            #expect(model.composerButton == .microphone)
        }
    }

    @Test func withoutSpeechTheSendButtonIsDisabledWhileTheFieldIsEmpty() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let model = try await ChatViewModelTests.model(server, channel: "echo")
            #expect(model.composerButton == .send(isEnabled: false))
            model.editDraft("hi")
            #expect(model.composerButton == .send(isEnabled: true))
        }
    }

    @Test func theMuteButtonSaysWhatItWillDo() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let silent = try await SpeechViewModelTests.model(server)
            #expect(silent.muteButton == nil)

            let reading = try await SpeechViewModelTests.model(server) { $0.enableSpeechSynthesis = true }
            #expect(reading.muteButton == MuteButton(isMuted: true, accessibilityLabel: "Unmute audio response"))
            #expect(await reading.toggleSpeechMuted() == .done)
            await waitUntil("unmuted") { reading.muteButton?.isMuted == false }
            #expect(reading.muteButton?.accessibilityLabel == "Mute audio response")
            #expect(await reading.toggleSpeechMuted() == .done)
            await waitUntil("muted again") { reading.muteButton?.isMuted == true }
        }
    }

    @Test func theAppBarButtonsInOrder() async throws {
        try await InProcessServer.run(channels: ChatViewModelTests.channels) { server in
            let plain = try await ChatViewModelTests.model(server) { $0.enableEndConversation = false }
            #expect(plain.headerButtons.isEmpty)

            let full = try await ChatViewModelTests.model(server) {
                $0.enableClearMessage = true
                $0.multiLangChat = MultiLangChat(
                    supportedLanguages: [SupportedLanguage(lang: "en"), SupportedLanguage(lang: "fr")])
            }
            #expect(full.headerButtons.map(\.id) == ["language", "clear", "end"])
            #expect(full.headerButtons.dropFirst().first == .clear(accessibilityLabel: "Clear messages"))
            guard case .language(let menu) = full.headerButtons.first else {
                Issue.record("the language menu comes first")
                return
            }
            #expect(menu == full.languageMenu)
        }
    }

    @Test func eachShareMenuItemOpensItsPicker() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let model = try await ChatViewModelTests.model(server, channel: "echo")
            #expect(
                model.composer.shareMenu.map(\.picker) == [
                    .photoLibrary([.images, .videos]), .files([.anyItem]), .camera([.images, .videos]), .location,
                ])

            let custom = try await ChatViewModelTests.model(server, channel: "echo") {
                $0.shareMenuConfiguration = ShareMenuConfiguration(
                    items: [.camera],
                    customItems: [
                        ShareMenuCustomItem(types: ["public.jpeg", "com.adobe.pdf"], label: "Scans"),
                        ShareMenuCustomItem(types: ["image/*", "text/plain", ".CSV", "docx"], label: "Other"),
                    ])
            }
            #expect(custom.composer.shareMenu.map(\.label) == ["Camera", "Scans", "Other"])
            #expect(
                custom.composer.shareMenu.map(\.picker) == [
                    .camera([.images, .videos]),
                    .files([.identifier("public.jpeg"), .identifier("com.adobe.pdf")]),
                    .files([
                        .identifier("public.image"), .mimeType("text/plain"), .filenameExtension("csv"),
                        .filenameExtension("docx"),
                    ]),
                ])
        }
    }

    @Test func fileTypesAreUniformTypeIdentifiersFirst() {
        #expect(FileTypeFilter("public.jpeg") == .identifier("public.jpeg"), "an identifier, not an extension")
        #expect(FileTypeFilter("com.microsoft.word.doc") == .identifier("com.microsoft.word.doc"))
        #expect(FileTypeFilter("video/*") == .identifier("public.movie"))
        #expect(FileTypeFilter("audio/*") == .identifier("public.audio"))
        #expect(FileTypeFilter("*/*") == .anyItem)
        #expect(FileTypeFilter("Application/PDF") == .mimeType("application/pdf"))
        #expect(FileTypeFilter(".jpeg") == .filenameExtension("jpeg"))
        let photos = ShareMenuEntry(
            kind: .builtIn(.photoAndVideoLibrary), label: "Photos", types: ["image/png"], maxSize: 1)
        #expect(photos.picker == .photoLibrary(.images))
        let videos = ShareMenuEntry(kind: .builtIn(.camera), label: "Camera", types: ["public.movie"], maxSize: 1)
        #expect(videos.picker == .camera(.videos))
    }

    @Test func theAppsLifeClosesAndReopensTheSocket() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let model = try await ChatViewModelTests.model(server, channel: "echo")
            await model.sceneDidEnterBackground()
            await waitUntil("disconnected in the background") { model.status == .disconnected }
            await model.sceneWillEnterForeground()
            await waitUntil("connected again") { model.status == .connected }
            #expect(await model.send(text: "back") == .done)
            await waitUntil("the echo") { model.texts.suffix(2) == ["back", "back"] }
        }
    }

    @Test func anAttachmentIsDownloadedUnderItsNameForQuickLook() async throws {
        try await InProcessServer.run(channels: Self.echo) { server in
            let model = try await ChatViewModelTests.model(server, channel: "echo")
            let source = FileManager.default.temporaryDirectory.appendingPathComponent(
                "parley-\(UUID().uuidString).txt")
            try Data("the menu".utf8).write(to: source)
            defer { try? FileManager.default.removeItem(at: source) }

            let file = try #require(
                await model.downloadAttachment(
                    AttachmentContent(type: .file, url: source.absoluteString, title: "Menu.txt")))
            #expect(file.lastPathComponent == "Menu.txt")
            #expect(try Data(contentsOf: file) == Data("the menu".utf8))
            #expect(model.alert == nil)

            let untitled = try #require(
                await model.downloadAttachment(
                    AttachmentContent(type: .file, url: source.absoluteString, title: "menu")))
            #expect(untitled.lastPathComponent == source.lastPathComponent, "a title without an extension")

            // The server answers 404 for an attachment it does not have.
            let missing = server.url.appendingPathComponent("attachments/no-such-file-\(UUID()).pdf")
            #expect(await model.downloadAttachment(AttachmentContent(type: .file, url: missing.absoluteString)) == nil)
            #expect(model.alert?.error.code == .attachmentDownloadFailed)
            model.dismissAlert()
            #expect(await model.downloadAttachment(AttachmentContent(type: .file, url: "not a url")) == nil)
            #expect(model.alert?.message == model.strings[.checkURL])
        }
    }
}

/// The settable properties a SwiftUI view binds to (`@Bindable`), so that no view writes `Binding(get:set:)`.
@Suite("ChatViewModel bindings", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct BindingPropertiesTests {
    @Test func theComposerTextIsTheDraft() async throws {
        try await InProcessServer.run(channels: NativeScreenTests.echo) { server in
            let model = try await ChatViewModelTests.model(server, channel: "echo")
            model.composerText = "pizza"
            #expect(model.draft == "pizza")
            #expect(model.composerText == "pizza")
        }
    }

    @Test func dismissingPresentationsThroughTheirBindings() async throws {
        try await InProcessServer.run(channels: ChatViewModelTests.channels) { server in
            let model = try await ChatViewModelTests.model(server)
            #expect(model.isAlertPresented == false)
            model.open("not a link")
            #expect(model.isAlertPresented)
            model.isAlertPresented = false
            #expect(model.alert == nil)

            #expect(model.requestEndConversation() == .done)
            #expect(model.isEndConversationPromptPresented)
            model.isEndConversationPromptPresented = false  // the system hides the alert as the button is tapped
            #expect(await model.confirmEndConversation() == .done, "the confirmation still finds its prompt")
            #expect(model.isEndConversationPromptPresented == false)

            var look = model.configuration
            look.linkHandler = .webView
            model.configuration = look
            #expect(model.open("https://example.com/menu") == .done)
            #expect(model.presentedWebView?.url.absoluteString == "https://example.com/menu")
            model.presentedWebView = nil
            #expect(model.webView == nil)
        }
    }
}
