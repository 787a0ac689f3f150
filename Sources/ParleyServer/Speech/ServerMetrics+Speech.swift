import CoreMetrics

extension ServerMetrics {
    /// Counter: recognitions started (a recognition socket signed in and admitted), by `channel`.
    public static let recognitionsStarted = "parley_recognitions_started_total"
    /// Counter: recognitions ended, by `channel` and `outcome`: `final` (words heard), `noSpeech`, `tooMuchSpeech`,
    /// `abandoned` (the client left first), `failed` (the engine failed or the socket timed out).
    public static let recognitionsFinished = "parley_recognitions_finished_total"
    /// Counter: `/tts/speak` requests answered, by `channel` and `outcome`: `streamed` or `refused`.
    public static let speechSyntheses = "parley_tts_requests_total"

    /// How a recognition ended, the `outcome` label of ``recognitionsFinished``.
    enum RecognitionOutcome: String {
        case final
        case noSpeech
        case tooMuchSpeech
        case abandoned
        case failed
    }

    /// A recognition started.
    func recognitionStarted(channel channelId: String) {
        Counter(label: Self.recognitionsStarted, dimensions: [("channel", channelLabel(channelId))], factory: factory)
            .increment()
    }

    /// A recognition ended.
    func recognitionFinished(channel channelId: String, _ outcome: RecognitionOutcome) {
        Counter(
            label: Self.recognitionsFinished,
            dimensions: [("channel", channelLabel(channelId)), ("outcome", outcome.rawValue)], factory: factory
        ).increment()
    }

    /// A `/tts/speak` request was answered.
    func synthesis(channel channelId: String, streamed: Bool) {
        Counter(
            label: Self.speechSyntheses,
            dimensions: [("channel", channelLabel(channelId)), ("outcome", streamed ? "streamed" : "refused")],
            factory: factory
        ).increment()
    }
}
