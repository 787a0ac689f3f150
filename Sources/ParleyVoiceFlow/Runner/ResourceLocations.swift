public import Foundation

/// Where a runner finds (and writes) files, per category, with the seed's language-folder rule.
///
/// A relative name is looked up in the category's folder: first in its language sub-folder (such as `en-US`), if
/// that exists, then in the folder itself. Absolute paths are used as they are. For ``FileCategory/recordAudio``
/// the language folder is created when missing, and recordings are written there.
public struct ResourceLocations: Sendable, Hashable {
    /// A kind of resource file.
    public enum FileCategory: String, Sendable, Hashable, CaseIterable {
        /// Recorded prompts (`FC_PLAY_AUDIO`).
        case playAudio = "FC_PLAY_AUDIO"
        /// Text files to synthesise (`FC_PLAY_TEXT`).
        case playText = "FC_PLAY_TEXT"
        /// Where recordings go (`FC_RECORD_AUDIO`).
        case recordAudio = "FC_RECORD_AUDIO"
        /// Recognition task and grammar files (`FC_SPEECH_RECOGNITION`).
        case speechRecognition = "FC_SPEECH_RECOGNITION"
        /// Alias and phoneme files (`FC_SPEECH_SYNTHESIS`).
        case speechSynthesis = "FC_SPEECH_SYNTHESIS"
        /// Voice flows, prompt module lists and audio-to-text maps (`FC_VOICEFLOW`).
        case voiceFlow = "FC_VOICEFLOW"
    }

    /// The folder of each category.
    public var folders: [FileCategory: URL]
    /// The language folder name (default `en-US`).
    public var languageFolder: String

    /// Creates locations.
    public init(folders: [FileCategory: URL] = [:], languageFolder: String = "en-US") {
        self.folders = folders
        self.languageFolder = languageFolder
    }

    /// The candidate paths for `name`, in the order they are tried.
    public func candidates(for name: String, in category: FileCategory) -> [URL] {
        if name.hasPrefix("/") { return [URL(fileURLWithPath: name)] }
        guard let folder = folders[category] else { return [URL(fileURLWithPath: name)] }
        return [
            folder.appendingPathComponent(languageFolder).appendingPathComponent(name),
            folder.appendingPathComponent(name),
        ]
    }

    /// The first existing file for `name`, or `nil`.
    public func find(_ name: String, in category: FileCategory) -> URL? {
        candidates(for: name, in: category).first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Where to write a recording named `name`: the language folder of ``FileCategory/recordAudio`` (created when
    /// missing), or the temporary folder when no record folder is set.
    public func recordingURL(for name: String) throws -> URL {
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        guard let folder = folders[.recordAudio] else {
            return FileManager.default.temporaryDirectory.appendingPathComponent(name)
        }
        let target = folder.appendingPathComponent(languageFolder)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return target.appendingPathComponent(name)
    }
}
