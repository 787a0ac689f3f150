import Foundation
public import ParleySpeech

/// Speech in the app's own process: a ParleySpeech ``StreamingRecognizer`` (Apple's `AppleStreamingRecognizer`, or
/// `PocketsphinxStreamingRecognizer` on Linux) and, for reading aloud, a ``StreamingSynthesizer``
/// (`AppleSynthesizer`, `EspeakSynthesizer`). No audio leaves the device.
public struct OnDeviceSpeechService: SpeechService {
    /// The recognizer.
    public var recognizer: any StreamingRecognizer
    /// The synthesiser; `nil` when the app reads nothing aloud this way (a ``TTSService`` of its own, say).
    public var synthesizer: (any StreamingSynthesizer)?
    /// What each utterance is listened for: phrases restrict a grammar engine (PocketSphinx) to commands; the
    /// locale is replaced by the client's `speechLocale`.
    public var request: StreamingRecognitionRequest
    /// The permissions the engine needs besides the microphone's. Default: ``Permission/speechRecognition`` (Apple
    /// asks the user; on Linux it is granted when PocketSphinx loads).
    public var recognitionPermissions: [Permission]

    /// A service over `recognizer` and `synthesizer`.
    public init(
        recognizer: any StreamingRecognizer, synthesizer: (any StreamingSynthesizer)? = nil,
        request: StreamingRecognitionRequest = StreamingRecognitionRequest(),
        recognitionPermissions: [Permission] = [.speechRecognition]
    ) {
        self.recognizer = recognizer
        self.synthesizer = synthesizer
        self.request = request
        self.recognitionPermissions = recognitionPermissions
    }

    /// The recognizer's locales.
    public func recognitionLocales() async -> [String] {
        await recognizer.locales()
    }

    /// Feeds `audio` to a session of the recognizer, and reports its results; the request id is a new UUID.
    public func recognize(_ audio: SpeechStream<AudioBuffer>, locale: String, context: SpeechContext)
        -> SpeechStream<SpeechRecognitionUpdate>
    {
        let (updates, continuation) = SpeechStream<SpeechRecognitionUpdate>.makeStream()
        var request = self.request
        request.locale = locale
        let recognizer = self.recognizer
        let task = Task {
            let session: any RecognitionSession
            do throws(ParleyError) {
                session = try await recognizer.startSession(request)
            } catch {
                return continuation.finish(throwing: error)
            }
            let feeding = Task {
                do {
                    for try await chunk in audio { try await session.feed(chunk) }
                } catch {
                    // A failing microphone ends the audio: what was heard is still recognised.
                }
                await session.finishAudio()
            }
            defer { feeding.cancel() }
            let requestId = UUID().uuidString.lowercased()
            do throws(ParleyError) {
                for try await event in session.events {
                    switch event {
                    case .speechStarted: break
                    case .partial(let result): continuation.yield(.partial(result.text))
                    case .final(let result):
                        continuation.yield(
                            .final(
                                SpeechResult(
                                    requestId: requestId, text: result.text,
                                    alternatives: result.alternatives.map(\.text))))
                    case .noSpeech: continuation.yield(.noSpeech)
                    case .tooMuchSpeech: continuation.yield(.tooMuchSpeech)
                    }
                    if event.isTerminal { break }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            if Task.isCancelled { await session.cancel() }
        }
        continuation.onTermination { task.cancel() }
        return updates
    }

    /// The synthesiser's voices; none without one.
    public func voices(context: SpeechContext) async throws(ParleyError) -> [SynthesisVoice] {
        try await synthesizer?.voices() ?? []
    }

    /// The synthesiser's stream of `text`; without a synthesiser, a stream that fails with
    /// `speech.engineUnavailable`.
    public func synthesize(_ text: String, voice: String?, language: String?, context: SpeechContext)
        -> SpeechStream<AudioBuffer>
    {
        guard let synthesizer else {
            return .of([], failingWith: ParleyError(.speechEngineUnavailable, "no synthesiser to read aloud with"))
        }
        return synthesizer.stream(SynthesisRequest(text: text, voice: voice, language: language ?? "en-US"))
    }
}
