#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// The app bar's buttons: the language menu (`multiLangChat`), clear (`enableClearMessage`), end
    /// (`enableEndConversation`).
    struct HeaderButtons: ToolbarContent {
        let model: ChatViewModel

        var body: some ToolbarContent {
            ToolbarItemGroup(placement: .primaryAction) {
                if let menu = model.languageMenu {
                    Menu {
                        ForEach(menu.items) { item in
                            Button {
                                Task { await model.pickLanguage(item.tag) }
                            } label: {
                                if item.isSelected {
                                    Label(item.label, systemImage: "checkmark")
                                } else {
                                    Text(item.label)
                                }
                            }
                        }
                    } label: {
                        Image(systemName: "globe")
                    }
                    .accessibilityLabel(menu.label)
                }
                if model.header.showsClearButton {
                    Button {
                        Task { await model.clear() }
                    } label: {
                        Image(systemName: "trash")
                    }
                    .accessibilityLabel(model.header.clearButtonAccessibilityLabel)
                }
                if model.header.showsEndConversationButton {
                    Button {
                        model.requestEndConversation()
                    } label: {
                        Image(systemName: "xmark.circle")
                    }
                    .accessibilityLabel(model.header.endConversationButtonLabel)
                }
            }
        }
    }

    /// The connection status under the app bar (`showConnectionStatus`).
    struct StatusBanner: View {
        let banner: ConnectionBanner
        @Environment(\.chatPalette) private var palette

        var body: some View {
            Text(banner.text)
                .font(.footnote)
                .foregroundStyle(Color(palette.headerText))
                .frame(maxWidth: .infinity)
                .padding(.vertical, 4)
                .background(Color(palette.navigationBar))
                .accessibilityLabel(banner.accessibilityLabel)
        }
    }
#endif
