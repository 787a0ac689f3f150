#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI
    import Foundation
    import UniformTypeIdentifiers

    /// The composer: the text field, the attach button with the share menu (`enableAttachment`,
    /// `shareMenuConfiguration`), the microphone (when the model shows it) and send.
    struct ComposerView: View {
        let model: ChatViewModel
        @State private var text = ""
        @State private var picking: ShareMenuEntry?
        @Environment(\.chatPalette) private var palette

        var body: some View {
            let composer = model.composer
            HStack(alignment: .bottom, spacing: 8) {
                if composer.showsAttachButton {
                    Menu {
                        ForEach(composer.shareMenu) { entry in
                            Button(entry.label) { choose(entry) }
                        }
                    } label: {
                        Image(systemName: "paperclip").imageScale(.large)
                    }
                    .accessibilityLabel(composer.attachAccessibilityLabel)
                }
                TextField(composer.placeholder, text: $text, axis: .vertical)
                    .lineLimit(1...5)
                    .foregroundStyle(Color(palette.inputFieldText))
                    .padding(8)
                    .background(Color(palette.inputField), in: RoundedRectangle(cornerRadius: 18))
                    .onSubmit(send)
                    .onChange(of: text) { _, newValue in
                        Task { await model.updateDraft(newValue) }
                    }
                if composer.showsMicrophone {
                    Button {
                        model.startSpeech()
                    } label: {
                        Image(systemName: "mic").imageScale(.large)
                    }
                    .accessibilityLabel(composer.microphoneAccessibilityLabel)
                }
                Button(action: send) {
                    Image(systemName: "paperplane.fill").imageScale(.large)
                }
                .disabled(text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
                .accessibilityLabel(composer.sendAccessibilityLabel)
            }
            .foregroundStyle(Color(palette.footerIcons))
            .padding(8)
            .fileImporter(
                isPresented: Binding(get: { picking != nil }, set: { if !$0 { picking = nil } }),
                allowedContentTypes: FileTypes.contentTypes(for: picking?.types ?? [])
            ) { result in
                guard case .success(let url) = result else { return }
                Task { await attach(url) }
            }
        }

        private func send() {
            let message = text
            text = ""
            Task { await model.send(text: message) }
        }

        private func choose(_ entry: ShareMenuEntry) {
            if case .builtIn(.location) = entry.kind {
                Task { await model.shareLocation() }
            } else {
                picking = entry
            }
        }

        private func attach(_ url: URL) async {
            let scoped = url.startAccessingSecurityScopedResource()
            defer { if scoped { url.stopAccessingSecurityScopedResource() } }
            guard let data = try? Data(contentsOf: url) else { return }
            let type = UTType(filenameExtension: url.pathExtension)?.preferredMIMEType ?? "application/octet-stream"
            await model.attach(data, fileName: url.lastPathComponent, mimeType: type)
        }
    }

    /// The share menu's file types (MIME types, `image/*` wildcards, extensions) as `UTType`s.
    enum FileTypes {
        static func contentTypes(for types: [String]) -> [UTType] {
            guard !types.isEmpty else { return [.item] }
            let mapped = types.compactMap { type -> UTType? in
                switch type.lowercased() {
                case "image/*": .image
                case "video/*": .movie
                case "audio/*": .audio
                case "text/*": .text
                default:
                    type.contains("/")
                        ? UTType(mimeType: type)
                        : UTType(filenameExtension: type.hasPrefix(".") ? String(type.dropFirst()) : type)
                }
            }
            return mapped.isEmpty ? [.item] : mapped
        }
    }
#endif
