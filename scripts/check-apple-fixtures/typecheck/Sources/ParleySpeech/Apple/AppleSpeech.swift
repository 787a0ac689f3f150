// Apple engines. They cannot be compiled on Linux, where this package is developed and tested; they are kept
// small and use only long-standing API (iOS 16 / macOS 13).
#if canImport(AVFoundation)
    public import AVFoundation
    public import Foundation
    public import ParleyCore

    /// Speech synthesis with `AVSpeechSynthesizer`, written to a file.
    public struct AppleSynthesizer: SpeechSynthesizer {
        /// `apple`.
        public let engine = "apple"

        /// Creates a synthesizer.
        public init() {}

        /// The voices of `AVSpeechSynthesisVoice.speechVoices()`.
        public func voices() async throws(ParleyError) -> [SynthesisVoice] {
            AVSpeechSynthesisVoice.speechVoices().map { voice in
                let gender =
                    switch voice.gender {
                    case .male: "male"
                    case .female: "female"
                    default: "unknown"
                    }
                let quality =
                    switch voice.quality {
                    case .enhanced: "enhanced"
                    case .premium: "premium"
                    default: "default"
                    }
                return SynthesisVoice(
                    engine: "apple", identifier: voice.identifier, name: voice.name, language: voice.language,
                    gender: gender, quality: quality)
            }
        }

        /// The utterance `request` asks for: its text with the pronunciations applied (SSML when it says so), in its
        /// voice, or else its language's default voice.
        static func utterance(for request: SynthesisRequest) -> AVSpeechUtterance {
            let text = request.pronunciations.apply(to: request.text)
            let utterance =
                request.isSSML
                ? (AVSpeechUtterance(ssmlRepresentation: text) ?? AVSpeechUtterance(string: text))
                : AVSpeechUtterance(string: text)
            utterance.voice =
                request.voice.flatMap(AVSpeechSynthesisVoice.init(identifier:))
                ?? AVSpeechSynthesisVoice(language: request.language)
            return utterance
        }

        /// Writes `request` to `file` (the synthesizer's PCM format, in a CAF/WAV container chosen by the extension).
        public func synthesize(_ request: SynthesisRequest, to file: URL) async throws(ParleyError) {
            let utterance = Self.utterance(for: request)
            let synthesizer = AVSpeechSynthesizer()
            let (buffers, sink) = AsyncStream.makeStream(of: AVAudioPCMBuffer.self)
            synthesizer.write(utterance) { buffer in
                guard let pcm = buffer as? AVAudioPCMBuffer else { return }
                if pcm.frameLength == 0 { sink.finish() } else { sink.yield(pcm) }
            }
            var output: AVAudioFile?
            do {
                for await buffer in buffers {
                    if output == nil { output = try AVAudioFile(forWriting: file, settings: buffer.format.settings) }
                    try output?.write(from: buffer)
                }
            } catch {
                throw ParleyError(.speechEngineFailed, "cannot write \(file.path)", underlying: error)
            }
        }
    }
#endif

#if canImport(Speech)
    public import Speech

    /// Speech recognition of recorded audio with `SFSpeechRecognizer`.
    public struct AppleRecognizer: SpeechRecognizer {
        /// `apple`.
        public let engine = "apple"

        /// Creates a recognizer.
        public init() {}

        /// Recognises `request.audioFile` in `request.locale`.
        public func recognize(_ request: RecognitionRequest) async throws(ParleyError) -> Recognition {
            guard let file = request.audioFile else {
                throw ParleyError(
                    .speechEngineUnavailable, "AppleRecognizer recognises files: give the request an audioFile")
            }
            guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: request.locale)),
                recognizer.isAvailable
            else {
                throw ParleyError(.speechEngineUnavailable, "no speech recognizer for \(request.locale)")
            }
            let urlRequest = SFSpeechURLRecognitionRequest(url: file)
            urlRequest.contextualStrings = request.phrases
            urlRequest.shouldReportPartialResults = false
            let (results, sink) = AsyncStream.makeStream(of: Result<String, ParleyError>.self)
            let task = recognizer.recognitionTask(with: urlRequest) { result, error in
                if let error {
                    sink.yield(.failure(ParleyError(.speechEngineFailed, "\(error)", underlying: error)))
                    sink.finish()
                } else if let result, result.isFinal {
                    sink.yield(.success(result.bestTranscription.formattedString))
                    sink.finish()
                }
            }
            var outcome: Result<String, ParleyError> = .success("")
            for await first in results {
                outcome = first
                break
            }
            task.cancel()
            let text = try outcome.get()
            return text.isEmpty ? .noInput : .hypothesis(text)
        }
    }

#endif
