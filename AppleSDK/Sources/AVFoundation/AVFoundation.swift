// Mirrors: AVFoundation of the iOS 18 SDK (Xcode 16). Apple's AVFoundation re-exports AVFAudio (every AVAudio… and
// AVSpeech… type is reachable through `import AVFoundation`); the playback types the chat's media rows use are
// declared here.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/avfoundation (AVFAudio listed as a re-exported framework)
// - https://developer.apple.com/documentation/avfoundation/avplayer (declared `@MainActor class AVPlayer`)
// - https://developer.apple.com/documentation/avfoundation/avplayer/init() (`nonisolated init()`)
// - https://developer.apple.com/documentation/avfoundation/avplayer/init(url:)-9cqj1 (`nonisolated init(URL:)`,
//   imported in Swift as `init(url:)`)
// - https://developer.apple.com/documentation/avfoundation/avplayer/play() (`nonisolated func play()`)
// - https://developer.apple.com/documentation/avfoundation/avplayer/pause()
// - https://developer.apple.com/documentation/avfoundation/avplayer/replacecurrentitem(with:)
// - https://developer.apple.com/documentation/avfoundation/avplayeritem
//
// AVPlayer's isolation is taken from Apple's current documentation (main-actor class, non-isolated initialisers
// and transport methods). Whether the iOS 18 SDK already carried `@MainActor` on the class could not be confirmed
// from a page that names the SDK; the main-actor declaration is the stricter one (a SwiftUI view, where the chat
// uses it, is main-actor isolated anyway).
@_exported import AVFAudio

/// `class AVPlayerItem : NSObject` (iOS 4).
@available(iOS 4.0, macOS 10.7, tvOS 9.0, watchOS 1.0, visionOS 1.0, *)
open class AVPlayerItem: NSObject {
    /// `convenience init(url URL: URL)`.
    public init(url URL: URL) { fatalError() }
}

/// `@MainActor class AVPlayer : NSObject` (iOS 4).
@available(iOS 4.0, macOS 10.7, tvOS 9.0, watchOS 1.0, visionOS 1.0, *)
@MainActor
open class AVPlayer: NSObject {
    /// `nonisolated init()`.
    public nonisolated override init() { fatalError() }
    /// `nonisolated init(url URL: URL)`.
    public nonisolated init(url URL: URL) { fatalError() }
    /// `nonisolated init(playerItem item: AVPlayerItem?)`.
    public nonisolated init(playerItem item: AVPlayerItem?) { fatalError() }
    /// `var currentItem: AVPlayerItem? { get }`.
    open var currentItem: AVPlayerItem? { fatalError() }
    /// `var rate: Float { get set }`.
    open var rate: Float {
        get { fatalError() }
        set { fatalError() }
    }
    /// `nonisolated func play()`.
    open nonisolated func play() { fatalError() }
    /// `nonisolated func pause()`.
    open nonisolated func pause() { fatalError() }
    /// `func replaceCurrentItem(with item: AVPlayerItem?)`.
    open func replaceCurrentItem(with item: AVPlayerItem?) { fatalError() }
}
