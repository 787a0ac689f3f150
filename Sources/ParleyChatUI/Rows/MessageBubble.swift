#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// A message: avatar and name at the start of a run, the bubble, its buttons, the timestamp and, for the user's
    /// messages, the delivery state and a retry button.
    struct MessageBubble: View {
        let model: ChatViewModel
        let row: MessageRow
        @Environment(\.chatPalette) private var palette
        @ScaledMetric(relativeTo: .body) private var avatarSize = 32.0

        private var isUser: Bool { row.sender == .user }

        var body: some View {
            HStack(alignment: .bottom, spacing: 8) {
                if isUser { Spacer(minLength: 40) }
                if !isUser {
                    Group {
                        if let avatar = row.avatar {
                            AvatarView(avatar: avatar)
                        } else {
                            Color.clear
                        }
                    }
                    .frame(width: avatarSize, height: avatarSize)
                    .accessibilityHidden(true)
                }
                VStack(alignment: isUser ? .trailing : .leading, spacing: 4) {
                    if let name = row.senderName {
                        Text(name)
                            .font(.caption.weight(.semibold))
                            .foregroundStyle(row.senderNameColor.map { Color($0) } ?? Color(palette.timestamp))
                    }
                    bubble
                        .accessibilityElement(children: .combine)
                        .accessibilityLabel(row.accessibilityLabel)
                    ActionButtons(items: row.actions, layout: row.actionsLayout) { item in
                        Task { await model.perform(item, in: row) }
                    }
                    ActionButtons(items: row.globalActions, layout: row.globalActionsLayout) { item in
                        Task { await model.perform(item, in: row) }
                    }
                    footer
                }
                if !isUser { Spacer(minLength: 40) }
            }
            .padding(.top, row.groupPosition.startsGroup ? 8 : 0)
        }

        @ViewBuilder private var bubble: some View {
            let background = Color(isUser ? palette.userMessage : palette.botMessage)
            let foreground = Color(isUser ? palette.userText : palette.botText)
            VStack(alignment: .leading, spacing: 6) {
                if let header = row.headerText { Text(header).font(.subheadline.weight(.semibold)) }
                MessageContentView(model: model, row: row)
                if let footer = row.footerText { Text(footer).font(.footnote) }
            }
            .foregroundStyle(foreground)
            .padding(10)
            .background(background, in: RoundedRectangle(cornerRadius: 14))
        }

        @ViewBuilder private var footer: some View {
            HStack(spacing: 6) {
                if let timestamp = row.timestamp { Text(timestamp) }
                if let delivery = row.deliveryText { Text(delivery) }
                if row.canRetry {
                    Button {
                        Task { await model.retry(row.id) }
                    } label: {
                        Image(systemName: "arrow.clockwise")
                    }
                    .accessibilityLabel(row.deliveryText ?? "")
                }
            }
            .font(.caption2)
            .foregroundStyle(Color(palette.timestamp))
        }
    }

    /// What a bubble holds, by content.
    struct MessageContentView: View {
        let model: ChatViewModel
        let row: MessageRow

        var body: some View {
            switch row.content {
            case .text(let text, let isStreaming):
                HStack(alignment: .lastTextBaseline, spacing: 4) {
                    Text(LocalizedStringKey(text))  // Markdown links open through the environment's openURL
                    if isStreaming { ProgressView().controlSize(.mini) }
                }
            case .cards(let cards):
                CardsView(cards: cards) { item in
                    Task { await model.perform(item, in: row) }
                } open: { link in
                    model.open(link)
                }
            case .editForm(let form):
                EditFormView(model: model, rowId: row.id, content: form) { item in
                    Task { await model.perform(item, in: row) }
                }
            case .readOnly(let content):
                ReadOnlyContentView(content: content)
            case .attachment(let attachment):
                AttachmentView(model: model, attachment: attachment)
            case .location(let location):
                Button {
                    model.open(
                        location.url ?? "https://maps.apple.com/?ll=\(location.latitude),\(location.longitude)")
                } label: {
                    Label(location.title ?? "\(location.latitude), \(location.longitude)", systemImage: "mappin")
                }
            case .raw(let json):
                Text(json.jsonString()).font(.caption.monospaced())
            case .error(let message):
                Label(message, systemImage: "exclamationmark.triangle")
            case .unknown(let type, _):
                Text(type).font(.caption.monospaced())
            }
        }
    }

    /// An avatar: an asset or a URL, or initials on a disc.
    struct AvatarView: View {
        let avatar: Avatar
        @Environment(\.chatPalette) private var palette

        var body: some View {
            switch avatar {
            case .image(let name):
                if let url = URL(string: name), url.scheme == "https" || url.scheme == "http" {
                    AsyncImage(url: url) { image in
                        image.resizable().scaledToFill()
                    } placeholder: {
                        Circle().fill(Color(palette.botMessage))
                    }
                    .clipShape(Circle())
                } else {
                    Image(name).resizable().scaledToFill().clipShape(Circle())
                }
            case .initials(let initials, let text, let background):
                Circle()
                    .fill(background.map { Color($0) } ?? Color(palette.actionButton))
                    .overlay {
                        Text(initials)
                            .font(.caption.weight(.bold))
                            .foregroundStyle(text.map { Color($0) } ?? Color(palette.actionLabelText))
                    }
            }
        }
    }

    /// A file being sent: its progress, or its failure and a retry button.
    struct UploadRowView: View {
        let upload: UploadRow
        let retry: @MainActor () -> Void
        @Environment(\.chatPalette) private var palette

        var body: some View {
            HStack {
                Spacer(minLength: 40)
                VStack(alignment: .trailing, spacing: 4) {
                    Label(upload.fileName, systemImage: "doc")
                    switch upload.state {
                    case .uploading(let progress):
                        ProgressView(value: progress)
                    case .failed:
                        if upload.canRetry {
                            Button(action: retry) { Image(systemName: "arrow.clockwise") }
                                .accessibilityLabel(upload.statusText)
                        }
                    }
                    Text(upload.statusText).font(.caption2).foregroundStyle(Color(palette.timestamp))
                }
                .padding(10)
                .background(Color(palette.userMessage), in: RoundedRectangle(cornerRadius: 14))
                .foregroundStyle(Color(palette.userText))
            }
            .accessibilityElement(children: .combine)
        }
    }

    /// Someone is typing (`showTypingStatus`).
    struct TypingView: View {
        let typing: TypingRow
        @Environment(\.chatPalette) private var palette

        var body: some View {
            HStack(spacing: 8) {
                if let avatar = typing.avatar { AvatarView(avatar: avatar).frame(width: 24, height: 24) }
                Text([typing.name, typing.text].compactMap { $0 }.joined(separator: " "))
                    .font(.footnote.italic())
                    .foregroundStyle(Color(palette.timestamp))
            }
            .padding(.vertical, 4)
            .accessibilityElement(children: .combine)
        }
    }
#endif
