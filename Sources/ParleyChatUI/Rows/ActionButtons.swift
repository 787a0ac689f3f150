#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// A message's, card's or form's buttons, in a row (scrolling sideways) or a column, as the model's
    /// ``ActionsLayout`` says; a button the model disabled (`disablePastActions`) is drawn disabled.
    struct ActionButtons: View {
        let items: [ActionItem]
        let layout: ActionsLayout.Direction
        let perform: (ActionItem) -> Void
        @Environment(\.chatPalette) private var palette

        var body: some View {
            if !items.isEmpty {
                switch layout {
                case .horizontal:
                    ScrollView(.horizontal, showsIndicators: false) {
                        HStack(spacing: 6) { buttons }
                    }
                case .vertical:
                    VStack(alignment: .leading, spacing: 6) { buttons }
                }
            }
        }

        private var buttons: some View {
            ForEach(items) { item in
                Button {
                    perform(item)
                } label: {
                    Text(item.label ?? item.action.type.rawValue)
                        .font(.subheadline)
                        .padding(.horizontal, 12)
                        .padding(.vertical, 6)
                }
                .foregroundStyle(Color(palette.actionLabelText))
                .background(Color(palette.actionButton), in: Capsule())
                .opacity(item.isEnabled ? 1 : 0.5)
                .disabled(!item.isEnabled)
            }
        }
    }
#endif
