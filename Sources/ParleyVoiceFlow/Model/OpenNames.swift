/// A voice-flow module type. Open: an unknown type round-trips and is reported by the validator.
public struct ModuleType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The type as the JSON spells it.
    public var rawValue: String
    /// Creates a type from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a type from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The JSON spelling.
    public var description: String { rawValue }

    /// Does nothing but move on: `VF_START`, `VF_END`, junctions.
    public static let node: Self = "node"
    /// Sets runtime fields, then moves on.
    public static let process: Self = "process"
    /// Plays prompts.
    public static let playAudio: Self = "playAudio"
    /// Plays an optional prompt, then records the user.
    public static let recordAudio: Self = "recordAudio"
    /// Prompts, listens and retries until it has a valid answer.
    public static let audioDialog: Self = "audioDialog"
    /// Plays a queue of prompts the application feeds, then listens for commands.
    public static let audioListener: Self = "audioListener"
    /// Waits until the application calls `resume`.
    public static let pauseResume: Self = "pauseResume"
    /// Version 1 acoustic echo cancellation: accepted and run as a `node` (Linux has no AEC stage).
    public static let runAEC: Self = "runAEC"

    /// Every type the engine runs.
    public static let known: [Self] = [
        .node, .process, .playAudio, .recordAudio, .audioDialog, .audioListener, .pauseResume, .runAEC,
    ]
}

/// How a prompt module (or a dialog prompt) chooses what to play.
public struct PromptStyle: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The style as the JSON spells it.
    public var rawValue: String
    /// Creates a style from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a style from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The JSON spelling.
    public var description: String { rawValue }

    /// One prompt: its own audio or text.
    public static let single: Self = "single"
    /// One prompt of the collection, chosen with the runner's (seedable) random generator.
    public static let select: Self = "select"
    /// Every prompt of the collection, in order.
    public static let combo: Self = "combo"
    /// The n-th prompt of the collection on the n-th attempt (the last one once they run out).
    public static let serial: Self = "serial"

    /// The four styles.
    public static let known: [Self] = [.single, .select, .combo, .serial]
}

/// A media function of a ``VoiceFlowEvent/mediaEvent(moduleID:mediaItemID:function:event:data:)`` callback.
/// Raw values are the reference API's names.
public struct MediaFunction: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name, such as `NMF_PLAY_AUDIO`.
    public var rawValue: String
    /// Creates a function from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a function from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The name.
    public var description: String { rawValue }

    /// A module's whole playback (every segment).
    public static let playAudio: Self = "NMF_PLAY_AUDIO"
    /// One segment: one prompt module's audio file or text.
    public static let playAudioSegment: Self = "NMF_PLAY_AUDIO_SEGMENT"
    /// Recording.
    public static let recordAudio: Self = "NMF_RECORD_AUDIO"
    /// Speech recognition.
    public static let recognizeAudio: Self = "NMF_RECOGNIZE_AUDIO"
    /// The platform's audio session (Parley's name): interruptions begin and end.
    public static let audioSession: Self = "NMF_AUDIO_SESSION"
}

/// A media event. Raw values are the reference API's names where it shows them (`NME_STARTED`, `NME_ENDED`,
/// `NME_STOPPED`, the permission events); the others are Parley's.
public struct MediaEvent: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name, such as `NME_STARTED`.
    public var rawValue: String
    /// Creates an event from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates an event from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The name.
    public var description: String { rawValue }

    /// The function started.
    public static let started: Self = "NME_STARTED"
    /// The function ran to its end.
    public static let ended: Self = "NME_ENDED"
    /// The function was stopped by `stop` or `interrupt`.
    public static let stopped: Self = "NME_STOPPED"
    /// The function failed; the data has `code` and `message`.
    public static let error: Self = "NME_ERROR"
    /// Recognition heard nothing before its no-input timeout.
    public static let timeout: Self = "NME_TIMEOUT"
    /// An audio-session interruption began (Parley's name; `NMF_AUDIO_SESSION`).
    public static let interruptionBegan: Self = "NME_INTERRUPTION_BEGAN"
    /// An audio-session interruption ended (Parley's name; `NMF_AUDIO_SESSION`); the data has `transitionType`.
    public static let interruptionEnded: Self = "NME_INTERRUPTION_ENDED"
    /// Microphone permission granted.
    public static let microphonePermissionGranted: Self = "NME_MICROPHONE_PERMISSION_GRANTED"
    /// Microphone permission denied.
    public static let microphonePermissionDenied: Self = "NME_MICROPHONE_PERMISSION_DENIED"
    /// Speech-recognition permission granted.
    public static let speechRecognizerPermissionGranted: Self = "NME_SPEECHRECOGNIZER_PERMISSION_GRANTED"
    /// Speech-recognition permission denied.
    public static let speechRecognizerPermissionDenied: Self = "NME_SPEECHRECOGNIZER_PERMISSION_DENIED"
}

/// What a played segment is made of.
public struct AudioSegmentType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The name.
    public var rawValue: String
    /// Creates a type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a type from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The name.
    public var description: String { rawValue }

    /// A recorded audio file.
    public static let audioFile: Self = "audioFile"
    /// Synthesised text (also used when the Audio-to-Text map stands in for a missing file).
    public static let textString: Self = "textString"
    /// Synthesised text read from a file.
    public static let textFile: Self = "textFile"
}
