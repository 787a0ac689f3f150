#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI
    import Foundation
    import UniformTypeIdentifiers
    #if canImport(PhotosUI)
        import PhotosUI
    #endif

    /// The composer: the attach button with the share menu (`enableAttachment`, `shareMenuConfiguration`), the text
    /// field over the model's ``ChatViewModel/draft``, the mute button (`enableSpeechSynthesis`), and send — or the
    /// microphone in its place while the field is empty (``ChatViewModel/composerButton``), as in Oracle's SDK.
    struct ComposerView: View {
        @Bindable var model: ChatViewModel
        @State private var picker: ActivePicker?
        @Environment(\.chatPalette) private var palette

        var body: some View {
            let composer = model.composer
            HStack(alignment: .bottom, spacing: 8) {
                if composer.showsAttachButton {
                    ShareMenuButton(composer: composer) { entry in choose(entry) }
                }
                // The field edits the model's draft: a dictated text (`enableAutoSendSpeechResponse` off) lands there
                // and is edited in place.
                TextField(composer.placeholder, text: $model.composerText, axis: .vertical)
                    .font(.body)
                    .lineLimit(1...5)
                    .foregroundStyle(Color(palette.inputFieldText))
                    .padding(8)
                    .background(Color(palette.inputField), in: RoundedRectangle(cornerRadius: 18))
                    .onSubmit { send() }
                if let mute = model.muteButton {
                    Button {
                        Task { await model.toggleSpeechMuted() }
                    } label: {
                        Image(systemName: mute.isMuted ? "speaker.slash" : "speaker.wave.2").imageScale(.large)
                    }
                    .accessibilityLabel(mute.accessibilityLabel)
                }
                switch model.composerButton {
                case .microphone:
                    Button {
                        model.startSpeech()
                    } label: {
                        Image(systemName: "mic").imageScale(.large)
                    }
                    .accessibilityLabel(composer.microphoneAccessibilityLabel)
                case .send(let isEnabled):
                    Button {
                        send()
                    } label: {
                        Image(systemName: "paperplane.fill").imageScale(.large)
                    }
                    .disabled(!isEnabled)
                    .accessibilityLabel(composer.sendAccessibilityLabel)
                }
            }
            .foregroundStyle(Color(palette.footerIcons))
            .padding(8)
            .modifier(SharePickers(model: model, picker: $picker))
        }

        private func send() {
            Task { await model.sendDraft() }
        }

        private func choose(_ entry: ShareMenuEntry) {
            switch entry.picker {
            case .location: Task { await model.shareLocation() }
            case .photoLibrary(let kinds): picker = .photoLibrary(kinds)
            case .camera(let kinds): picker = .camera(kinds)
            case .files(let types): picker = .files(types)
            }
        }
    }

    /// The attach button and its menu: one item per ``ShareMenuEntry``, in the model's order.
    struct ShareMenuButton: View {
        let composer: Composer
        let choose: (ShareMenuEntry) -> Void

        var body: some View {
            Menu {
                ForEach(composer.shareMenu) { entry in
                    Button {
                        choose(entry)
                    } label: {
                        Label(entry.label, systemImage: Self.symbol(for: entry))
                    }
                }
            } label: {
                Image(systemName: "paperclip").imageScale(.large)
            }
            .accessibilityLabel(composer.attachAccessibilityLabel)
        }

        static func symbol(for entry: ShareMenuEntry) -> String {
            switch entry.picker {
            case .photoLibrary: "photo.on.rectangle"
            case .camera: "camera"
            case .files: "doc"
            case .location: "location"
            }
        }
    }

    /// The picker a share-menu item opened.
    enum ActivePicker: Hashable, Sendable {
        case photoLibrary(MediaKinds)
        case camera(MediaKinds)
        case files([FileTypeFilter])

        /// The picker without its settings.
        enum Kind: Sendable {
            case photoLibrary, camera, files
        }

        var kind: Kind {
            switch self {
            case .photoLibrary: .photoLibrary
            case .camera: .camera
            case .files: .files
            }
        }
    }

    /// The pickers behind the share menu: the photo library (PhotosUI), the camera (`UIImagePickerController`), and
    /// files (`fileImporter`, with the menu item's types as `UTType`s). Each hands the picked file to
    /// ``ChatViewModel/attach(_:fileName:mimeType:)``, which checks it against `shareMenuConfiguration`.
    struct SharePickers: ViewModifier {
        let model: ChatViewModel
        @Binding var picker: ActivePicker?
        #if canImport(PhotosUI)
            @State private var photo: PhotosPickerItem?
        #endif

        func body(content: Content) -> some View {
            content
                .fileImporter(isPresented: isPresented(.files), allowedContentTypes: fileTypes) { result in
                    guard case .success(let url) = result else { return }
                    Task { await attachFile(url) }
                }
                #if canImport(PhotosUI)
                    .photosPicker(
                        isPresented: isPresented(.photoLibrary), selection: $photo, matching: photoFilter
                    )
                    .onChange(of: photo) { _, item in
                        guard let item else { return }
                        photo = nil
                        Task { await attachPhoto(item) }
                    }
                #endif
                #if canImport(UIKit)
                    .fullScreenCover(isPresented: isPresented(.camera)) {
                        CameraPicker(kinds: cameraKinds) { data, fileName, mimeType in
                            picker = nil
                            guard let data else { return }
                            Task { await model.attach(data, fileName: fileName, mimeType: mimeType) }
                        }
                    }
                #endif
        }

        /// A binding that is true while `picker` is of one kind; setting false closes it.
        private func isPresented(_ kind: ActivePicker.Kind) -> Binding<Bool> {
            $picker.isShowing(kind)
        }

        private var fileTypes: [UTType] {
            guard case .files(let filters) = picker else { return [.item] }
            let types = filters.compactMap { filter -> UTType? in
                switch filter {
                case .identifier(let identifier): UTType(identifier)
                case .mimeType(let mimeType): UTType(mimeType: mimeType)
                case .filenameExtension(let fileExtension): UTType(filenameExtension: fileExtension)
                }
            }
            return types.isEmpty ? [.item] : types
        }

        private var cameraKinds: MediaKinds {
            if case .camera(let kinds) = picker { return kinds }
            return [.images, .videos]
        }

        private func attachFile(_ url: URL) async {
            let scoped = url.startAccessingSecurityScopedResource()
            defer { if scoped { url.stopAccessingSecurityScopedResource() } }
            guard let data = try? Data(contentsOf: url) else { return }
            let mimeType = UTType(filenameExtension: url.pathExtension)?.preferredMIMEType ?? "application/octet-stream"
            await model.attach(data, fileName: url.lastPathComponent, mimeType: mimeType)
        }

        #if canImport(PhotosUI)
            private var photoFilter: PHPickerFilter {
                guard case .photoLibrary(let kinds) = picker else { return .any(of: [.images, .videos]) }
                if kinds == .images { return .images }
                if kinds == .videos { return .videos }
                return .any(of: [.images, .videos])
            }

            private func attachPhoto(_ item: PhotosPickerItem) async {
                guard let data = try? await item.loadTransferable(type: Data.self) else { return }
                let type = item.supportedContentTypes.first
                let fileExtension = type?.preferredFilenameExtension ?? "jpeg"
                let mimeType = type?.preferredMIMEType ?? "image/jpeg"
                await model.attach(data, fileName: "photo.\(fileExtension)", mimeType: mimeType)
            }
        #endif
    }

    extension Binding where Value == ActivePicker? {
        /// True while the picker is of kind `kind`; setting false closes it. The closures touch only the binding (no
        /// main-actor state), so they are `@Sendable` whichever way the SDK declares `Binding(get:set:)`.
        func isShowing(_ kind: ActivePicker.Kind) -> Binding<Bool> {
            let picker = self
            return Binding<Bool>(
                get: { picker.wrappedValue?.kind == kind },
                set: { showing in if !showing, picker.wrappedValue?.kind == kind { picker.wrappedValue = nil } }
            )
        }
    }
#endif
