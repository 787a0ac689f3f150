#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI
    import Foundation
    #if canImport(AVKit)
        import AVKit
    #endif
    #if canImport(QuickLook)
        import QuickLook
    #endif

    /// An attachment in a bubble: a picture inline, a video or audio clip playable in place (AVKit's `VideoPlayer`),
    /// any other file as a button that downloads it and opens it with Quick Look
    /// (``ChatViewModel/downloadAttachment(_:session:)``). Where AVKit or Quick Look is missing, the link opens with
    /// the model's link handler.
    struct AttachmentView: View {
        let model: ChatViewModel
        let attachment: AttachmentContent

        var body: some View {
            if attachment.type == .image, let url = URL(string: attachment.url) {
                AsyncImage(url: url) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                .frame(maxWidth: 240, maxHeight: 240)
                .accessibilityAddTraits(.isImage)
            } else if attachment.type == .video || attachment.type == .audio, let url = URL(string: attachment.url) {
                MediaPlayerView(url: url, isVideo: attachment.type == .video, title: attachment.title)
            } else {
                FileAttachmentView(model: model, attachment: attachment)
            }
        }
    }

    /// A video or audio clip, played in place.
    struct MediaPlayerView: View {
        let url: URL
        let isVideo: Bool
        let title: String?
        #if canImport(AVKit)
            @State private var player: AVPlayer?
        #endif
        @ScaledMetric(relativeTo: .body) private var audioHeight = 44.0

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                if let title { Text(title).font(.footnote) }
                #if canImport(AVKit)
                    VideoPlayer(player: player)
                        .frame(width: 240, height: isVideo ? 135 : audioHeight)
                        .task { if player == nil { player = AVPlayer(url: url) } }
                #else
                    Link(url.lastPathComponent, destination: url)
                #endif
            }
        }
    }

    /// A file: a button that downloads it and shows it with Quick Look.
    struct FileAttachmentView: View {
        let model: ChatViewModel
        let attachment: AttachmentContent
        @State private var preview: URL?
        @State private var isDownloading = false

        var body: some View {
            Button {
                open()
            } label: {
                HStack(spacing: 6) {
                    Label(attachment.title ?? URL(string: attachment.url)?.lastPathComponent ?? "", systemImage: "doc")
                    if isDownloading { ProgressView().controlSize(.mini) }
                }
            }
            .disabled(isDownloading)
            #if canImport(QuickLook)
                .quickLookPreview($preview)
            #endif
        }

        private func open() {
            #if canImport(QuickLook)
                isDownloading = true
                Task {
                    preview = await model.downloadAttachment(attachment)
                    isDownloading = false
                }
            #else
                model.open(attachment.url)
            #endif
        }
    }
#endif
