public import ParleyCore

extension ParleyError.Code {
    /// A speech engine's program or framework is not available (not installed, or not this platform).
    public static let speechEngineUnavailable: Self = "speech.engineUnavailable"
    /// A speech engine failed; the message has its exit status and error output.
    public static let speechEngineFailed: Self = "speech.engineFailed"
    /// The calling task was cancelled while an engine's program ran; the program was stopped.
    public static let speechCancelled: Self = "speech.cancelled"
    /// An audio file to play or recognise does not exist.
    public static let audioFileMissing: Self = "speech.audioFileMissing"
    /// An alias or phoneme file has a line that is not `word: replacement`.
    public static let badPronunciationLine: Self = "speech.badPronunciationLine"
    /// A recorder has no more audio to give (``QueuedAudioSource`` ran out of files).
    public static let noMoreAudio: Self = "speech.noMoreAudio"
    /// No audio device to capture from or play to (`sox: no default audio device configured`, no ALSA card, or the
    /// platform answered no); the message says which.
    public static let audioDeviceUnavailable: Self = "speech.audioDeviceUnavailable"
    /// Audio that is not what the call needs: a WAV stream that does not parse, or a sample rate or channel count
    /// other than the one required.
    public static let badAudio: Self = "speech.badAudio"
    /// Microphone or speech-recognition permission was denied; the message has the platform's reason.
    public static let speechPermissionDenied: Self = "speech.permissionDenied"
    /// The locale is not one the speech service (or the recognizer) recognises: the server's recognition socket
    /// refuses it (an error frame, then close code 1003), and the client reports it before recording
    /// (`odais_speech_unsupported_locale`).
    public static let speechUnsupportedLocale: Self = "speech.unsupportedLocale"
    /// A speech engine runs as many recognitions as it allows (`WhisperRecognizer`'s `maxConcurrentRecognitions`):
    /// the recognition is refused at once rather than queued.
    public static let speechEngineBusy: Self = "speech.engineBusy"
}
