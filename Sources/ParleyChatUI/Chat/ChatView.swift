#if canImport(SwiftUI)
    public import SwiftUI
    public import ParleyUI
    import Foundation

    #if canImport(UIKit)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #endif

    /// A chat screen over ParleyUI's ``ChatViewModel``: the message list (bubbles, cards, forms, attachments, day
    /// headers, the typing indicator), the connection status banner, the composer (send or microphone, attach with
    /// the share menu, mute), the header's buttons and language menu, alerts, the end-of-conversation prompt and the
    /// in-chat web view.
    ///
    /// It only draws the model and calls its intents; every decision (what shows, which flag does what, the texts,
    /// the colours) is the model's, tested on Linux. Texts use the system's text styles, so they follow Dynamic
    /// Type; VoiceOver reads the model's `odais_access_*` labels.
    ///
    /// ```swift
    /// let client = ChatClient(configuration: .init(url: serverURL, channelId: "demo"))
    /// NavigationStack { ChatView(model: ChatViewModel(client: client)) }
    /// ```
    ///
    /// `scripts/check-apple --typecheck` compiles it on Linux against interface modules of the iOS 18 SDK; only a
    /// Mac links and runs it (`docs/ios.md`).
    public struct ChatView: View {
        /// The screen's model.
        @Bindable public var model: ChatViewModel
        private let opensLinks: Bool
        /// Whether the app bar's buttons and the status banner are drawn here; ``ChatViewController`` draws them in
        /// the UIKit navigation bar instead.
        let showsHeader: Bool
        @Environment(\.colorScheme) private var colorScheme
        @Environment(\.scenePhase) private var scenePhase

        /// A screen for `model`. It starts the model (``ChatViewModel/start()``), tells the client when the app goes
        /// to the background and comes back, and, unless `opensLinks` is false, opens external links and `tel:` with
        /// the system (``ChatViewModel/PlatformActions/openExternally``).
        public init(model: ChatViewModel, opensLinks: Bool = true) {
            self.init(model: model, opensLinks: opensLinks, showsHeader: true)
        }

        init(model: ChatViewModel, opensLinks: Bool, showsHeader: Bool) {
            self.model = model
            self.opensLinks = opensLinks
            self.showsHeader = showsHeader
        }

        /// The screen.
        public var body: some View {
            let palette = model.configuration.theme.palette(for: colorScheme)
            VStack(spacing: 0) {
                if showsHeader, let banner = model.connectionBanner {
                    StatusBanner(banner: banner)
                }
                MessageList(model: model)
                if model.speech.isActive {
                    SpeechPanel(model: model)
                }
                ComposerView(model: model)
            }
            .background(Color(palette.chatBackground))
            .environment(\.chatPalette, palette)
            .navigationTitle(model.header.title)
            .toolbar { HeaderButtons(model: model, isShown: showsHeader) }
            .alert(
                model.alert?.title ?? "", isPresented: $model.isAlertPresented,
                actions: { Button(model.alert?.dismissLabel ?? "OK") { model.dismissAlert() } },
                message: { Text(model.alert?.message ?? "") }
            )
            .alert(
                model.endConversationPrompt?.title ?? "", isPresented: $model.isEndConversationPromptPresented,
                actions: {
                    Button(model.endConversationPrompt?.confirmLabel ?? "", role: .destructive) {
                        Task { await model.confirmEndConversation() }
                    }
                    Button(model.endConversationPrompt?.cancelLabel ?? "", role: .cancel) {
                        model.cancelEndConversation()
                    }
                },
                message: { Text(model.endConversationPrompt?.message ?? "") }
            )
            .sheet(item: $model.presentedWebView) { page in
                WebViewSheet(page: page) { model.closeWebView() }
            }
            .sheet(isPresented: $model.isPopupPresented) {
                PopupSheet(model: model)
            }
            .onChange(of: scenePhase) { _, phase in
                // The client closes its socket in the background and reconnects in the foreground (docs/client.md).
                switch phase {
                case .background: Task { await model.sceneDidEnterBackground() }
                case .active: Task { await model.sceneWillEnterForeground() }
                default: break
                }
            }
            .task {
                if opensLinks { model.platform.openExternally = { url in SystemLinks.open(url) } }
                await model.start()
            }
        }
    }

    /// Opens a URL with the system: the browser, the phone app for `tel:`.
    enum SystemLinks {
        @MainActor static func open(_ url: URL) {
            #if canImport(UIKit)
                UIApplication.shared.open(url)
            #elseif canImport(AppKit)
                _ = NSWorkspace.shared.open(url)
            #endif
        }
    }
#endif
