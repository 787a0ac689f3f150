public import ParleyCore

// AVAudioSession exists where UIKit does (iOS, iPadOS, tvOS, visionOS, Mac Catalyst): a `canImport` guard, not
// `os(iOS)`, so the Linux type-check compiles the branch.
#if canImport(UIKit) && canImport(AVFAudio)
    import AVFAudio
#endif

/// The audio-session parameters of the reference API's `initializeAudioSession(jsonData:)`: how the app's audio
/// mixes with other apps' and where it is routed.
///
/// ```json
/// {"categories": {"mixWithOthers": "yes", "duckOthers": "no", "allowBluetooth": "yes", "defaultToSpeaker": "yes",
///                 "interruptSpokenAudioAndMixWithOthers": "no", "allowBluetoothA2DP": "no", "allowAirPlay": "no"},
///  "mode": "default"}
/// ```
///
/// Only Apple's iOS-family platforms have an audio session (`AVAudioSession`); elsewhere the configuration is kept
/// and reported as not applied (``AudioSessionReport``).
public struct AudioSessionConfiguration: Sendable, Hashable {
    /// The session mode. Open: the reference names `default`, `voiceChat`, `gameChat` and `spokenAudio`.
    public struct Mode: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The JSON spelling.
        public var rawValue: String
        /// Creates a mode from its JSON spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a mode from a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The JSON spelling.
        public var description: String { rawValue }

        /// `AVAudioSession.Mode.default`.
        public static let `default`: Self = "default"
        /// `AVAudioSession.Mode.voiceChat`: the reference's default session (`ASM_Default(Voice Chat)`).
        public static let voiceChat: Self = "voiceChat"
        /// `AVAudioSession.Mode.gameChat`.
        public static let gameChat: Self = "gameChat"
        /// `AVAudioSession.Mode.spokenAudio`.
        public static let spokenAudio: Self = "spokenAudio"
        /// The modes Parley knows.
        public static let known: [Self] = [.default, .voiceChat, .gameChat, .spokenAudio]
    }

    /// The category options, in the JSON's order.
    public static let categoryNames = [
        "mixWithOthers", "duckOthers", "allowBluetooth", "defaultToSpeaker", "interruptSpokenAudioAndMixWithOthers",
        "allowBluetoothA2DP", "allowAirPlay",
    ]

    /// The category options that are on, by their JSON names (``categoryNames``).
    public var categories: Set<String>
    /// The mode.
    public var mode: Mode

    /// Creates a configuration.
    public init(categories: Set<String> = [], mode: Mode = .default) {
        self.categories = categories
        self.mode = mode
    }

    /// `initializeDefaultAudioSession`: allow Bluetooth, duck others, default to the device speaker, voice chat.
    public static let standard = Self(
        categories: ["allowBluetooth", "duckOthers", "defaultToSpeaker"], mode: .voiceChat)

    /// Whether category option `name` is on.
    public func has(_ name: String) -> Bool { categories.contains(name) }

    /// Parses the reference's JSON (trailing commas accepted; `_` keys are notes). Options are `"yes"`/`"no"` (or
    /// JSON booleans); options not given are off; a missing mode is `default`.
    /// - Throws: `voiceflow.wrongType` for a non-object, `voiceflow.invalidValue` for an unknown option, value or
    ///   mode, naming its JSON path.
    public init(parsing json: String) throws(ParleyError) {
        let value = try JSONValue(parsingLeniently: json)
        guard let object = value.objectValue else {
            throw ParleyError(.wrongType, "an audio session is a JSON object, not \(value.typeName)", path: JSONPath())
        }
        var categories: Set<String> = []
        for member in object["categories"]?.objectValue ?? [:] where !member.key.hasPrefix("_") {
            let path = JSONPath([.key("categories"), .key(member.key)])
            guard Self.categoryNames.contains(member.key) else {
                throw ParleyError(.invalidValue, "\(member.key) is not an audio-session category option", path: path)
            }
            switch member.value {
            case .bool(let on): if on { categories.insert(member.key) }
            case .string(let text) where ["yes", "no", "true", "false"].contains(text.lowercased()):
                if ["yes", "true"].contains(text.lowercased()) { categories.insert(member.key) }
            default:
                throw ParleyError(
                    .invalidValue, "\(member.key) must be \"yes\" or \"no\", not \(member.value.jsonString())",
                    path: path)
            }
        }
        let mode = Mode(rawValue: object["mode"]?.stringValue ?? "default")
        guard Mode.known.contains(mode) else {
            throw ParleyError(
                .invalidValue, "mode \(mode) is not default, voiceChat, gameChat or spokenAudio",
                path: JSONPath([.key("mode")]))
        }
        self.init(categories: categories, mode: mode)
    }
}

/// What ``VoiceFlowRunner/initializeAudioSession(_:)`` did with a configuration.
public struct AudioSessionReport: Sendable, Hashable {
    /// The configuration asked for.
    public var configuration: AudioSessionConfiguration
    /// Whether the platform's audio session was configured (`AVAudioSession` on iOS, iPadOS, tvOS and visionOS).
    public var applied: Bool
    /// Why not, when it was not: no audio session on this platform, or the platform refused.
    public var note: String?

    /// Creates a report.
    public init(configuration: AudioSessionConfiguration, applied: Bool, note: String? = nil) {
        self.configuration = configuration
        self.applied = applied
        self.note = note
    }
}

extension AudioSessionConfiguration {
    /// Configures the platform's audio session. On iOS-family platforms: `AVAudioSession`'s `playAndRecord`
    /// category with these options and mode, then activated. Elsewhere nothing can be configured: Linux and macOS
    /// have no per-app audio session (sox's `rec` and `play` use the default ALSA/PulseAudio or Core Audio
    /// devices), and the report says so.
    func apply() -> AudioSessionReport {
        #if canImport(UIKit) && canImport(AVFAudio)
            var options: AVAudioSession.CategoryOptions = []
            if has("mixWithOthers") { options.insert(.mixWithOthers) }
            if has("duckOthers") { options.insert(.duckOthers) }
            if has("allowBluetooth") { options.insert(.allowBluetooth) }
            if has("defaultToSpeaker") { options.insert(.defaultToSpeaker) }
            if has("interruptSpokenAudioAndMixWithOthers") { options.insert(.interruptSpokenAudioAndMixWithOthers) }
            if has("allowBluetoothA2DP") { options.insert(.allowBluetoothA2DP) }
            if has("allowAirPlay") { options.insert(.allowAirPlay) }
            let modes: [Mode: AVAudioSession.Mode] = [
                .default: .default, .voiceChat: .voiceChat, .gameChat: .gameChat, .spokenAudio: .spokenAudio,
            ]
            do {
                let session = AVAudioSession.sharedInstance()
                try session.setCategory(.playAndRecord, mode: modes[mode] ?? .default, options: options)
                try session.setActive(true)
                return AudioSessionReport(configuration: self, applied: true)
            } catch {
                return AudioSessionReport(configuration: self, applied: false, note: "AVAudioSession: \(error)")
            }
        #else
            return AudioSessionReport(
                configuration: self, applied: false,
                note: "this platform has no per-app audio session; the configuration is recorded only")
        #endif
    }
}
