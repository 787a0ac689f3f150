#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// The rows, top to bottom, scrolled to the newest.
    struct MessageList: View {
        let model: ChatViewModel

        var body: some View {
            ScrollViewReader { proxy in
                ScrollView {
                    LazyVStack(alignment: .leading, spacing: 4) {
                        ForEach(model.rows) { row in
                            RowView(model: model, row: row).id(row.id)
                        }
                    }
                    .padding(.horizontal)
                    .padding(.vertical, 8)
                }
                .onChange(of: model.rows.last?.id) { _, last in
                    guard let last else { return }
                    withAnimation { proxy.scrollTo(last, anchor: .bottom) }
                }
            }
        }
    }

    /// One row.
    struct RowView: View {
        let model: ChatViewModel
        let row: ChatRow
        @Environment(\.chatPalette) private var palette

        var body: some View {
            switch row {
            case .dayHeader(let header):
                Text(header.text)
                    .font(.caption)
                    .foregroundStyle(Color(palette.timestamp))
                    .frame(maxWidth: .infinity)
                    .padding(.vertical, 8)
                    .accessibilityAddTraits(.isHeader)
            case .message(let message):
                MessageBubble(model: model, row: message)
            case .upload(let upload):
                UploadRowView(upload: upload) { Task { await model.retry(upload.id) } }
            case .typing(let typing):
                TypingView(typing: typing)
            }
        }
    }
#endif
