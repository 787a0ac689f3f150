#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI
    import Foundation

    /// The model's ``WebViewPresentation``: a header with the close button, in the configured colours, over the
    /// page; partly open (`partial`) or full height. Where WebKit or UIKit is missing, the page opens with the system.
    struct WebViewSheet: View {
        let page: WebViewPresentation
        let close: @MainActor () -> Void

        var body: some View {
            VStack(spacing: 0) {
                HStack {
                    Spacer()
                    Button(action: close) {
                        Text(page.closeButtonLabel)
                            .foregroundStyle(Color(page.closeButtonLabelColor))
                            .padding(.horizontal, 12)
                            .padding(.vertical, 6)
                            .background(Color(page.closeButtonColor), in: Capsule())
                    }
                }
                .padding(8)
                .background(Color(page.headerColor))
                #if canImport(WebKit) && canImport(UIKit)
                    ChatWebPage(url: page.url)
                #else
                    Link(page.url.absoluteString, destination: page.url).padding()
                    Spacer()
                #endif
            }
            .presentationDetents(page.size == .full ? [.large] : [.medium, .large])
        }
    }

    /// The message of a `popup` action, drawn as a row in a sheet.
    struct PopupSheet: View {
        let model: ChatViewModel

        var body: some View {
            VStack(alignment: .leading, spacing: 12) {
                if let popup = model.popup {
                    ForEach(PopupRows.rows(popup, strings: model.strings)) { row in
                        RowView(model: model, row: row)
                    }
                }
                Button(model.strings[.done]) { model.dismissPopup() }
            }
            .padding()
            .presentationDetents([.medium])
        }
    }

    /// The rows of a popup's message (ParleyUI's row builder, with no timestamps).
    enum PopupRows {
        @MainActor static func rows(_ payload: MessagePayload, strings: Strings) -> [ChatRow] {
            let message = ChatMessage(envelope: .skill(SkillMessage(payload: payload)))
            return RowBuilder(strings: strings, enableTimestamp: false, now: Date()).rows(for: [message])
        }
    }
#endif
