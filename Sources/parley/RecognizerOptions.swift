import ArgumentParser
import Foundation
import ParleyCore
import ParleySpeech

/// The speech recogniser a command runs in this process: `parley serve`'s recognition socket, `parley chat --voice
/// --speech device`, and `parley voiceflow run --live` / `--audio-in` (docs/speech.md, "Choosing the engine").
///
/// `whisper` needs a model folder (`--whisper-model`); `pocketsphinx` is the small fallback and the grammar engine.
/// Without `--speech-engine`, whisper is chosen when a model is given, PocketSphinx otherwise.
enum RecognitionEngine: String, CaseIterable, ExpressibleByArgument, Sendable {
    case whisper
    case pocketsphinx

    /// The engine for `name` (`whisper`, `pocketsphinx`; `system` or nil choose) and `model`.
    /// - Throws: `ValidationError` for whisper without a model.
    static func choose(_ name: String?, whisperModel model: String?) throws -> RecognitionEngine {
        switch name {
        case "whisper":
            guard model != nil else { throw ValidationError("--speech-engine whisper needs --whisper-model DIR") }
            return .whisper
        case "pocketsphinx": return .pocketsphinx
        default: return model == nil ? .pocketsphinx : .whisper
        }
    }

    /// The recogniser; nil where the engine does not exist on this platform (PocketSphinx is Linux-only).
    func recognizer(whisperModel model: String?) -> (any StreamingRecognizer)? {
        switch self {
        case .whisper:
            #if canImport(Subprocess)
                return WhisperRecognizer(modelFolder: URL(fileURLWithPath: model ?? "", isDirectory: true))
            #else
                return nil
            #endif
        case .pocketsphinx:
            #if os(Linux)
                return PocketsphinxStreamingRecognizer()
            #else
                return nil
            #endif
        }
    }
}

/// `--speech-engine` and `--whisper-model` of the commands that recognise speech in this process.
struct RecognizerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The recogniser: whisper or pocketsphinx (default whisper with --whisper-model, else pocketsphinx).",
            valueName: "engine"))
    var speechEngine: RecognitionEngine?

    @Option(
        help: ArgumentHelp(
            "A Whisper model folder (CTranslate2: model.bin, config.json, tokenizer.json); see docs/speech.md.",
            valueName: "dir"))
    var whisperModel: String?

    func validate() throws {
        _ = try RecognitionEngine.choose(speechEngine?.rawValue, whisperModel: whisperModel)
    }

    /// The chosen recogniser, or nil where it does not run.
    func recognizer() throws -> (any StreamingRecognizer)? {
        try RecognitionEngine.choose(speechEngine?.rawValue, whisperModel: whisperModel)
            .recognizer(whisperModel: whisperModel)
    }
}
