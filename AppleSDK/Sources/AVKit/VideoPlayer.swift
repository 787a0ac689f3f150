// Mirrors the iOS 18 SDK (Xcode 16) AVKit framework: SwiftUI's `VideoPlayer`. Transcribed from
// developer.apple.com/documentation/avkit/videoplayer (`@MainActor @preconcurrency struct VideoPlayer<VideoOverlay>
// where VideoOverlay : View`, iOS 14), …/videoplayer/init(player:) (`@MainActor @preconcurrency init(player:
// AVPlayer?)`, where VideoOverlay == EmptyView) and …/videoplayer/init(player:videooverlay:). AVKit re-exports
// AVFoundation, whose AVPlayer it plays. Interface only: bodies trap, nothing here runs.
@_exported import AVFoundation
public import SwiftUI

/// A view that displays content from a player and a native user interface to control playback.
@available(iOS 14.0, *)
@MainActor @preconcurrency public struct VideoPlayer<VideoOverlay: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
    /// Creates a video-player user interface for the player object.
    @MainActor @preconcurrency public init(player: AVPlayer?, @ViewBuilder videoOverlay: () -> VideoOverlay) {
        fatalError()
    }
}

extension VideoPlayer where VideoOverlay == EmptyView {
    /// Creates a video-player user interface for the player object.
    @MainActor @preconcurrency public init(player: AVPlayer?) { fatalError() }
}
