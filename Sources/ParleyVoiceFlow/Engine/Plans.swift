import ParleyCore
public import ParleySpeech

/// One segment to play: one prompt module's audio file or text.
public struct PlaybackSegment: Sendable, Hashable {
    /// The module playing it.
    public var moduleID: String
    /// The prompt module.
    public var promptID: String
    /// Audio file, text or text file.
    public var type: AudioSegmentType
    /// The audio file name (also set for text that stands in for a missing file).
    public var audioFile: String?
    /// The text to synthesise.
    public var text: String?
    /// The text file to synthesise.
    public var textFile: String?
    /// Whether the text is SSML.
    public var isSSML: Bool
    /// The text's language.
    public var language: String
    /// Where to start, in milliseconds (`audioPlaybackParams.startPosMs`, or where an interruption stopped it
    /// minus `rewindCurrentAudioSegmentMs`); `nil` from the start. Only the first play of a looping segment starts
    /// here.
    public var startPosition: Int?
    /// How many times the segment plays: 1 unless `loopPlay`; with `loopPlay`, `maxPlayCount`, or `nil` (until the
    /// module is stopped, barged into or left by a listener intent) when that is 0 or unset.
    public var plays: Int?
    /// Whether the caller may barge in (`recognizeWhilePlay`): listening runs during it and the caller's speech
    /// stops it.
    public var bargeIn: Bool

    /// Creates a segment.
    public init(
        moduleID: String, promptID: String, type: AudioSegmentType, audioFile: String? = nil, text: String? = nil,
        textFile: String? = nil, isSSML: Bool = false, language: String = "en-US", startPosition: Int? = nil,
        plays: Int? = 1, bargeIn: Bool = false
    ) {
        self.moduleID = moduleID
        self.promptID = promptID
        self.type = type
        self.audioFile = audioFile
        self.text = text
        self.textFile = textFile
        self.isSSML = isSSML
        self.language = language
        self.startPosition = startPosition
        self.plays = plays
        self.bargeIn = bargeIn
    }
}

/// How to listen.
public struct RecognitionPlan: Sendable, Hashable {
    /// The module listening.
    public var moduleID: String
    /// `srLocale`.
    public var locale: String
    /// `srEngine`, if the module names one.
    public var engine: String?
    /// The `goToForUserInput` inputs: a grammar for engines that take one.
    public var phrases: [String]
    /// `maxPreSpeechSilenceLengthMs`, or the configured default.
    public var noInputTimeout: Duration
    /// `srSessionParams.enablePartialResults`.
    public var partialResults: Bool
    /// `vadParams` when `enableVAD` is true: the caller's speech is then found by the energy detector (and a
    /// barge-in happens when it hears speech); otherwise by the recognizer (its `speechStarted`).
    public var voiceActivity: VoiceActivityPlan?
    /// `maxPostSpeechSilenceLengthMs`: the silence that ends the utterance; `nil` (0 or unset) for the
    /// recognizer's default.
    public var endSilence: Duration?
    /// `maxSpeechLengthMs`: the longest utterance; `nil` (0 or unset) for the recognizer's default.
    public var maxSpeech: Duration?

    /// Creates a plan.
    public init(
        moduleID: String, locale: String = "en-US", engine: String? = nil, phrases: [String] = [],
        noInputTimeout: Duration = .seconds(8), partialResults: Bool = false,
        voiceActivity: VoiceActivityPlan? = nil, endSilence: Duration? = nil, maxSpeech: Duration? = nil
    ) {
        self.moduleID = moduleID
        self.locale = locale
        self.engine = engine
        self.phrases = phrases
        self.noInputTimeout = noInputTimeout
        self.partialResults = partialResults
        self.voiceActivity = voiceActivity
        self.endSilence = endSilence
        self.maxSpeech = maxSpeech
    }
}

/// `recordAudioParams.vadParams` of a module with `enableVAD`: Parley's energy ``VoiceActivityDetector`` finds the
/// caller's speech.
public struct VoiceActivityPlan: Sendable, Hashable {
    /// `minSpeechToDetectMs` (default 200 ms): the voiced audio that counts as speech starting.
    public var minSpeech: Duration
    /// `minSilenceToDetectMs` (default 500 ms): the quiet audio that counts as speech ending.
    public var minSilence: Duration

    /// Creates a plan.
    public init(minSpeech: Duration = .milliseconds(200), minSilence: Duration = .milliseconds(500)) {
        self.minSpeech = minSpeech
        self.minSilence = minSilence
    }

    /// The detector's parameters at 16 kHz: onset and hangover from ``minSpeech`` and ``minSilence``.
    public var parameters: VoiceActivityParameters {
        let frame = 320
        let rate = AudioBuffer.recognitionSampleRate
        return VoiceActivityParameters(
            frameLength: frame, onsetFrames: AudioBuffer.samples(in: minSpeech, sampleRate: rate) / frame,
            hangoverFrames: AudioBuffer.samples(in: minSilence, sampleRate: rate) / frame)
    }
}

/// How to record.
public struct RecordingPlan: Sendable, Hashable {
    /// The module recording.
    public var moduleID: String
    /// The file name, in the record-audio folder.
    public var fileName: String
    /// `maxAudioLengthMs` (or `maxRecordLengthMs`); `nil` when 0 or unset.
    public var maxLength: Duration?
    /// `maxPreSpeechSilenceLengthMs`; `nil` when 0 or unset.
    public var maxPreSpeechSilence: Duration?
    /// `maxPostSpeechSilenceLengthMs`; `nil` when 0 or unset.
    public var maxPostSpeechSilence: Duration?
    /// `vadParams` when `enableVAD` is true. Live recording applies the silence limits only then: without a
    /// detector nothing tells speech from silence.
    public var voiceActivity: VoiceActivityPlan?
}
