#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// The app bar's buttons, as the model lists them (``ChatViewModel/headerButtons``): the language menu
    /// (`multiLangChat`), clear (`enableClearMessage`), end (`enableEndConversation`).
    struct HeaderButtons: ToolbarContent {
        let model: ChatViewModel
        /// False when ``ChatViewController`` shows them in the UIKit navigation bar instead.
        let isShown: Bool

        var body: some ToolbarContent {
            ToolbarItemGroup(placement: .primaryAction) {
                if isShown {
                    ForEach(model.headerButtons) { button in
                        HeaderButtonView(model: model, button: button)
                    }
                }
            }
        }
    }

    /// One of the app bar's buttons.
    struct HeaderButtonView: View {
        let model: ChatViewModel
        let button: HeaderButton

        var body: some View {
            switch button {
            case .language(let menu):
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
            case .clear(let label):
                Button {
                    Task { await model.clear() }
                } label: {
                    Image(systemName: "trash")
                }
                .accessibilityLabel(label)
            case .endConversation(let label):
                Button {
                    model.requestEndConversation()
                } label: {
                    Image(systemName: "xmark.circle")
                }
                .accessibilityLabel(label)
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
