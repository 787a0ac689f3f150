import Foundation
public import ParleyCore

/// A player that plays nothing and returns at once: for servers, CI and simulations. Missing files still fail,
/// so flows take their `loadPromptFailure` routes as they would with sound.
public struct SilentPlayer: AudioPlayer {
    /// Creates a silent player.
    public init() {}

    /// Returns at once; throws `speech.audioFileMissing` for a file that does not exist.
    public func play(_ item: PlaybackItem) async throws(ParleyError) {
        if case .file(let url) = item, !FileManager.default.fileExists(atPath: url.path) {
            throw ParleyError(.audioFileMissing, "no audio file at \(url.path)")
        }
    }
}
