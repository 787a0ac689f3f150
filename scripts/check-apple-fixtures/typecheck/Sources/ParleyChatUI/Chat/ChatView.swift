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
    /// headers, the typing indicator), the connection status banner, the composer (send, attach, microphone), the
    /// header's buttons and language menu, alerts, the end-of-conversation prompt and the in-chat web view.
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
    /// Not compiled in CI (no Apple toolchain there): see `docs/ios.md`.
    public struct ChatView: View {
        /// The screen's model.
        public let model: ChatViewModel
        private let opensLinks: Bool
        @Environment(\.colorScheme) private var colorScheme
        @Environment(\.scenePhase) private var scenePhase

        /// A screen for `model`. It starts the model (``ChatViewModel/start()``), tells the client when the app goes
        /// to the background and comes back, and, unless `opensLinks` is false, opens external links and `tel:` with
        /// the system (``ChatViewModel/PlatformActions/openExternally``).
        public init(model: ChatViewModel, opensLinks: Bool = true) {
            self.model = model
            self.opensLinks = opensLinks
        }

        /// The screen.
        public var body: some View {
            let palette = model.configuration.theme.palette(for: colorScheme)
            VStack(spacing: 0) {
                if let banner = model.connectionBanner {
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
            .toolbar { HeaderButtons(model: model) }
            .alert(
                model.alert?.title ?? "",
                isPresented: Binding(get: { model.alert != nil }, set: { if !$0 { model.dismissAlert() } }),
                actions: { Button(model.alert?.dismissLabel ?? "OK") { model.dismissAlert() } },
                message: { Text(model.alert?.message ?? "") }
            )
            .alert(
                model.endConversationPrompt?.title ?? "",
                isPresented: Binding(
                    get: { model.endConversationPrompt != nil }, set: { if !$0 { model.cancelEndConversation() } }),
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
            .sheet(item: Binding(get: { model.webView }, set: { if $0 == nil { model.closeWebView() } })) { page in
                WebViewSheet(page: page) { model.closeWebView() }
            }
            .sheet(isPresented: Binding(get: { model.popup != nil }, set: { if !$0 { model.dismissPopup() } })) {
                PopupSheet(model: model)
            }
            .onChange(of: scenePhase) { _, phase in
                // The client closes its socket in the background and reconnects in the foreground (docs/client.md).
                switch phase {
                case .background: Task { await model.client.applicationDidEnterBackground() }
                case .active: Task { await model.client.applicationWillEnterForeground() }
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
