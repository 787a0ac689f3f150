public import ParleyCore

/// What a module of each type acts on, decoded from its JSON once when the flow loads (see ``Module/parameters``).
///
/// Parameters keep their static value and `…Runtime` twin as written (``Parameter``); the engine resolves them with
/// the runtime fields when the module runs. Keys Parley does not act on stay in ``Module/json``, which is what a flow
/// writes back.
public indirect enum ModuleParameters: Sendable, Hashable {
    // Indirect: the payloads are large, and the engine copies a module each time it looks one up by id.

    /// `node`, `runAEC`, `pauseResume` and unknown types: nothing to read.
    case empty
    /// `process`: `processParams`.
    case process(ProcessParameters)
    /// `playAudio`: `playAudioParams`.
    case playAudio(PromptChoice)
    /// `recordAudio`: `recordAudioParams`.
    case recordAudio(RecordAudioParameters)
    /// `audioDialog`: `audioDialogParams` and how it listens.
    case audioDialog(AudioDialogParameters)
    /// `audioListener`: `audioListenerParams` and how it listens.
    case audioListener(AudioListenerParameters)

    /// How the module listens: an `audioDialog`'s or `audioListener`'s; `nil` for the other types.
    public var listening: ListeningParameters? {
        switch self {
        case .audioDialog(let dialog): dialog.listening
        case .audioListener(let listener): listener.listening
        default: nil
        }
    }
}

/// What to play: `promptID`, or `promptCollection` chosen by `style` (default `single` with a `promptID`, `combo` with
/// a collection). A `playAudio` module's `playAudioParams`, and each dialog prompt.
public struct PromptChoice: Sendable, Hashable {
    /// `promptID` (may be `$[Field]`).
    public var promptID: Parameter<String>
    /// `promptCollection`: each item's `promptID`, or the item itself when it is a bare string.
    public var collection: [Parameter<String>]
    /// `style`.
    public var style: Parameter<String>

    /// Creates a choice.
    public init(promptID: Parameter<String>, collection: [Parameter<String>] = [], style: Parameter<String>) {
        self.promptID = promptID
        self.collection = collection
        self.style = style
    }
}

/// `processParams`: the runtime fields a `process` module sets, in file order.
public struct ProcessParameters: Sendable, Hashable {
    /// One `setValueForFieldNameCollection` item: `{"name": "$[Field]", "value": …}`.
    public struct Assignment: Sendable, Hashable {
        /// `name` as written; `nil` when it is absent or not a string.
        public var name: String?
        /// `value` as written (a string may interpolate fields); `nil` when absent.
        public var value: JSONValue?

        /// Creates an assignment.
        public init(name: String?, value: JSONValue?) {
            self.name = name
            self.value = value
        }

        /// The field ``name`` refers to, when it is a `$[Name]` reference.
        public var field: String? { name.flatMap(RuntimeFields.reference(in:)) }
    }

    /// `setValueForFieldNameCollection`.
    public var assignments: [Assignment]

    /// Creates parameters.
    public init(assignments: [Assignment] = []) {
        self.assignments = assignments
    }
}

/// `recordAudioParams` of a `recordAudio` module: the prompt before recording and when recording stops.
public struct RecordAudioParameters: Sendable, Hashable {
    /// `id`: the recording's file name without `.wav` (default: the module id).
    public var fileID: Parameter<String>
    /// `recordPlayPromptParams.promptID`: the prompt played first.
    public var promptID: Parameter<String>
    /// `recordPlayPromptParams.recordPromptNoPlay`: skip that prompt.
    public var promptNoPlay: Parameter<Bool>
    /// `stopRecordParams`.
    public var stop: StopRecordParameters
    /// `vadParams`.
    public var voiceActivity: VoiceActivityDetection
}

/// `recordAudioParams.stopRecordParams`: lengths in milliseconds; 0 or unset means no limit (or the default).
public struct StopRecordParameters: Sendable, Hashable {
    /// `maxAudioLengthMs`: the longest recording.
    public var maxAudioLength: Parameter<Int>
    /// `maxRecordLengthMs`: the longest recording when `maxAudioLengthMs` is not set.
    public var maxRecordLength: Parameter<Int>
    /// `maxPreSpeechSilenceLengthMs`: the no-input timeout.
    public var maxPreSpeechSilence: Parameter<Int>
    /// `maxPostSpeechSilenceLengthMs`: the silence that ends an utterance.
    public var maxPostSpeechSilence: Parameter<Int>
    /// `maxSpeechLengthMs`: the longest utterance.
    public var maxSpeechLength: Parameter<Int>
}

/// `recordAudioParams.vadParams`: Parley's energy detector finds the caller's speech when `enableVAD` is true.
public struct VoiceActivityDetection: Sendable, Hashable {
    /// `enableVAD`.
    public var enabled: Parameter<Bool>
    /// `minSpeechToDetectMs` (default 200).
    public var minSpeech: Parameter<Int>
    /// `minSilenceToDetectMs` (default 500).
    public var minSilence: Parameter<Int>
}

/// `recognizeAudioParams`.
public struct RecognizeAudioParameters: Sendable, Hashable {
    /// `srLocale` (default `en-US`).
    public var locale: Parameter<String>
    /// `srEngine` (informational).
    public var engine: Parameter<String>
    /// `srSessionParams.enablePartialResults`.
    public var partialResults: Parameter<Bool>
}

/// How an `audioDialog` or `audioListener` listens: `recognizeAudioParams`, and `recordAudioParams`'s
/// `stopRecordParams` and `vadParams`.
public struct ListeningParameters: Sendable, Hashable {
    /// `recognizeAudioParams`.
    public var recognize: RecognizeAudioParameters
    /// `recordAudioParams.stopRecordParams`.
    public var stop: StopRecordParameters
    /// `recordAudioParams.vadParams`.
    public var voiceActivity: VoiceActivityDetection
}

/// One item of `audioDialogParams.dialogPromptCollection`.
public struct DialogPrompt: Sendable, Hashable {
    /// `type` (``DialogPromptType``; default `initial`), as written.
    public var type: Parameter<String>
    /// What it plays.
    public var choice: PromptChoice
    /// `recognizeWhilePlay`: the caller may barge in.
    public var recognizeWhilePlay: Parameter<Bool>

    /// The type, `initial` when unset.
    public var kind: String { type.value ?? DialogPromptType.initial }
}

/// `audioDialogParams` and how the dialog listens.
public struct AudioDialogParameters: Sendable, Hashable {
    /// `dialogPromptCollection`, in file order (items that are not objects are left out).
    public var prompts: [DialogPrompt]
    /// `maxRetryCount` by kind (`timeout`, `garbage`, `sr_error`): retries after the first attempt.
    public var maxRetryCount: [String: Parameter<Int>]
    /// How it listens.
    public var listening: ListeningParameters
}

/// `audioListenerParams` and how the listener listens.
public struct AudioListenerParameters: Sendable, Hashable {
    /// `promptID`: the first prompt (may be `$[Field]`).
    public var promptID: Parameter<String>
    /// `recognizeWhilePlay` (Parley's key): listen while the prompts play.
    public var recognizeWhilePlay: Parameter<Bool>
    /// How it listens.
    public var listening: ListeningParameters
}

/// `audioInterruptTransitionParams`: what happens when an audio-session interruption ends (any module; a `process`
/// module's become the flow-wide default).
public struct InterruptTransition: Sendable, Hashable {
    /// `transitionType`: `resume`, `repeat`, `goto` or `end` (the default).
    public var transitionType: Parameter<String>
    /// `goToVoiceFlowModuleID`: the target of `goto` (default `VF_END`).
    public var goToModuleID: Parameter<String>
    /// `rewindCurrentAudioSegmentMs`: how far back a resumed prompt starts.
    public var rewind: Parameter<Int>
    /// The members other than the three parameters' static values (their `…Runtime` twins included), as written.
    public var other: JSONObject

    /// The transition types.
    public static let knownTypes = ["resume", "repeat", "goto", "end"]

    /// Whether the object was empty: a module with empty parameters takes the flow-wide ones.
    public var isEmpty: Bool {
        transitionType.written == nil && goToModuleID.written == nil && rewind.written == nil && other.isEmpty
    }
}

/// An audio prompt module's playback: `audioPlaybackParams`.
public struct AudioPlaybackParameters: Sendable, Hashable {
    /// `startPosMs`: where the first play starts.
    public var startPosition: Parameter<Int>
    /// `loopPlay`: play again when it ends.
    public var loopPlay: Parameter<Bool>
    /// `maxPlayCount`: plays in all with `loopPlay` (0 or unset: no limit).
    public var maxPlayCount: Parameter<Int>
}
