import ArgumentParser
import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow

/// `parley voiceflow`: validate, draw and simulate JSON voice flows.
struct VoiceFlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voiceflow",
        abstract: "Validate, draw and run JSON voice flows.",
        subcommands: [ValidateVoiceFlow.self, GraphVoiceFlow.self, RunVoiceFlow.self]
    )
}

/// Loads a flow file, printing a parse error as a diagnostic line.
func loadFlow(_ path: String) throws -> VoiceFlow {
    do {
        return try VoiceFlow(contentsOf: URL(fileURLWithPath: path))
    } catch {
        print("error[\(error.code)] \(path)\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
        throw ExitCode.failure
    }
}

/// `parley voiceflow validate FLOW [--prompts P] [--map M]`.
struct ValidateVoiceFlow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a voice flow (and its prompt modules) and print every problem.",
        discussion: """
            Prints one line per error or warning: severity, stable code, module id, JSON path and message. \
            Prompt ids are checked only when --prompts is given. Exits with status 1 when there is any error \
            (warnings alone exit 0).
            """
    )

    @Argument(help: "The voice-flow file.")
    var flow: String

    @Option(help: "An audio prompt module list file.")
    var prompts: String?

    @Option(help: "An audio-to-text map file.")
    var map: String?

    func run() throws {
        let flow = try loadFlow(self.flow)
        var library: PromptLibrary?
        do {
            if let prompts { library = try PromptLibrary(contentsOf: URL(fileURLWithPath: prompts)) }
            if let map { _ = try AudioToTextMap(contentsOf: URL(fileURLWithPath: map)) }
        } catch {
            print("error[\(error.code)]\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
            throw ExitCode.failure
        }
        let diagnostics = Validator.validate(flow, prompts: library)
        for diagnostic in diagnostics { print(diagnostic) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        print("\(self.flow): \(flow.modules.count) modules, \(errors) errors, \(diagnostics.count - errors) warnings")
        if errors > 0 { throw ExitCode.failure }
    }
}

/// `parley voiceflow graph FLOW --format mermaid|dot`.
struct GraphVoiceFlow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Print a voice flow's goTo graph as Mermaid or Graphviz DOT.")

    @Argument(help: "The voice-flow file.")
    var flow: String

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid, dot
    }

    @Option(help: "mermaid or dot.")
    var format: Format = .mermaid

    func run() throws {
        let flow = try loadFlow(self.flow)
        print(FlowGraph.render(flow, format: format == .mermaid ? .mermaid : .dot), terminator: "")
    }
}

/// `parley voiceflow run FLOW --prompts P [--map M] [--field NAME=VALUE]… [--script S | --speak | --live |
/// --audio-in FILE…]`.
struct RunVoiceFlow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a voice flow against scripted user turns and print the transcript of its callbacks.",
        discussion: """
            The script has one user turn per line: "say: TEXT" (optionally "say: TEXT | PARTIAL | …"), \
            "silence" (the no-input timeout passes on a virtual clock) or "error: MESSAGE"; blank lines and # \
            comments are skipped. Each --field presets a runtime field (true/false and integers become booleans \
            and numbers). A hypothesis sets the user intent named in the flow when it equals that intent's name \
            with spaces for underscores, case ignored. With --speak, prompts are spoken with espeak-ng and each \
            "say:" turn is synthesised and recognised with pocketsphinx. With --live the flow talks to the \
            microphone and speakers (sox's rec and play, espeak-ng, streaming pocketsphinx): partial hypotheses \
            arrive while the caller speaks and prompts with recognizeWhilePlay stop when the caller does. \
            --audio-in scripts the caller instead: each listening or recording consumes the next file (any format \
            sox reads), streamed in real audio time (--audio-speed N: N times faster) from the moment listening \
            starts, then silence; prompts are synthesised and discarded at the same pace.
            """
    )

    @Argument(help: "The voice-flow file.")
    var flow: String

    @Option(help: "An audio prompt module list file.")
    var prompts: String

    @Option(help: "An audio-to-text map file.")
    var map: String?

    @Option(name: .customLong("field"), help: "Preset a runtime field, NAME=VALUE (repeatable).")
    var fields: [String] = []

    @Option(help: "A file of user turns.")
    var script: String?

    @Option(help: "Seed for select prompts.")
    var seed: UInt64 = 1

    @Flag(help: "Use the real engines: espeak-ng for prompts and user turns, pocketsphinx to recognise them.")
    var speak = false

    @Flag(help: "Talk to the microphone and speakers (sox rec/play, espeak-ng, streaming pocketsphinx or whisper).")
    var live = false

    /// With --live or --audio-in: `--speech-engine whisper|pocketsphinx` and `--whisper-model DIR`.
    @OptionGroup var recognition: RecognizerOptions

    @Option(
        name: .customLong("audio-in"), parsing: .upToNextOption,
        help: "The caller's audio, one file per listening or recording turn (streamed through the recognizer).")
    var audioIn: [String] = []

    @Option(help: "With --audio-in: how many times faster than real audio time the call runs.")
    var audioSpeed: Double = 1

    func run() async throws {
        if live || !audioIn.isEmpty {
            guard script == nil, !speak, !(live && !audioIn.isEmpty) else {
                throw ValidationError("--live and --audio-in go without --script, --speak or each other")
            }
            guard audioSpeed > 0 else { throw ValidationError("--audio-speed must be above 0") }
        }
        let turns: [UserTurn]
        do {
            turns = try script.map { try UserTurn.parse(script: String(contentsOfFile: $0, encoding: .utf8)) } ?? []
        } catch let error as ParleyError {
            throw ValidationError(error.message)
        }
        let clock = VirtualClock()
        let runner: VoiceFlowRunner
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        if live || !audioIn.isEmpty {
            runner = try await liveRunner(seed: seed)
        } else if speak {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var files: [URL] = []
            for (index, turn) in turns.enumerated() {
                guard case .say(let text, _) = turn else { continue }
                let file = folder.appendingPathComponent("turn-\(index).wav")
                try await EspeakSynthesizer().synthesize(SynthesisRequest(text: text), to: file)
                files.append(file)
            }
            runner = VoiceFlowRunner(
                synthesizer: EspeakSynthesizer(), recognizer: PocketsphinxRecognizer(),
                player: SoxPlayer(), recorder: QueuedAudioSource(files: files), clock: clock,
                random: SeededRandomNumberGenerator(seed: seed))
        } else {
            runner = VoiceFlowRunner(
                recognizer: ScriptedRecognizer(turns, clock: clock), player: SilentPlayer(), clock: clock,
                random: SeededRandomNumberGenerator(seed: seed))
        }
        let flowURL = URL(fileURLWithPath: flow)
        do {
            try await runner.setResourceLocation(flowURL.deletingLastPathComponent(), for: .playAudio)
            try await runner.loadPrompts(json: String(contentsOfFile: prompts, encoding: .utf8))
            if let map { try await runner.loadAudioToTextMap(json: String(contentsOfFile: map, encoding: .utf8)) }
            try await runner.loadVoiceFlow(json: String(contentsOfFile: flow, encoding: .utf8))
        } catch let error as ParleyError {
            print("error[\(error.code)]\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
            throw ExitCode.failure
        }
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else {
                throw ValidationError("--field wants NAME=VALUE, not \(field)")
            }
            let value = String(field[field.index(after: equals)...])
            let json: JSONValue =
                value == "true"
                ? .bool(true)
                : value == "false" ? .bool(false) : Int(value).map { .number(Double($0)) } ?? .string(value)
            await runner.setRuntimeField(String(field[..<equals]), json)
        }
        await runner.setDelegate(IntentFromHypothesis(flow: try loadFlow(flow)))
        let reason = try await runner.run()
        for entry in await runner.history {
            print("[\(Self.format(entry.elapsed))] \(entry.event)")
        }
        switch reason {
        case .completed: print("finished: completed")
        case .stopped: print("finished: stopped")
        case .interrupted: print("finished: interrupted")
        case .failed(let error):
            print("finished: failed \(error)")
            throw ExitCode.failure
        }
    }

    /// A runner with streaming speech: the sound devices (checked first: without them the command fails with
    /// `speech.audioDeviceUnavailable` rather than running a flow that cannot hear or speak) or the --audio-in files.
    func liveRunner(seed: UInt64) async throws -> VoiceFlowRunner {
        // --speech-engine whisper|pocketsphinx and --whisper-model: the dialog's user inputs are the phrases of each
        // recognition, a grammar for PocketSphinx and hot words (the prompt) for Whisper.
        guard let recognizer = try recognition.recognizer() else {
            print(
                "error[\(ParleyError.Code.speechEngineUnavailable)]: live voice flows need PocketSphinx (Linux) or "
                    + "--whisper-model")
            throw ExitCode.failure
        }
        let speech: LiveSpeech
        if live {
            if let error = await Self.soundDeviceError() {
                print("error[\(error.code)]: \(error.message)")
                throw ExitCode.failure
            }
            speech = .soundDevice(recognizer: recognizer)
        } else {
            let files = audioIn.map { URL(fileURLWithPath: $0) }
            for file in files where !FileManager.default.fileExists(atPath: file.path) {
                print("error[\(ParleyError.Code.audioFileMissing)]: no audio file at \(file.path)")
                throw ExitCode.failure
            }
            speech = .scripted(files: files, recognizer: recognizer, speed: audioSpeed)
        }
        return VoiceFlowRunner(live: speech, random: SeededRandomNumberGenerator(seed: seed))
    }

    /// Why the machine cannot capture or play sound, if it cannot: `rec` records 10 ms and `play` plays 10 ms of
    /// silence (each fails at once without a device).
    static func soundDeviceError() async -> ParleyError? {
        if case .denied(let reason) = await SystemPermissionSource().request(.microphone) {
            return ParleyError(.audioDeviceUnavailable, "cannot record from the microphone: \(reason)")
        }
        do {
            try await SoxStreamingPlayer().play(.of([AudioBuffer(samples: [Int16](repeating: 0, count: 160))]))
        } catch {
            return ParleyError(.audioDeviceUnavailable, "cannot play to the speakers: \(error.message)")
        }
        return nil
    }

    static func format(_ duration: Duration) -> String {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}

/// The simulator's stand-in for an application's intent logic: a hypothesis equal to an intent name of the current
/// module (underscores and camel case read as spaces, case ignored) sets that intent.
struct IntentFromHypothesis: VoiceFlowDelegate {
    let flow: VoiceFlow

    func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool {
        guard data.hypothesisType == .complete, let module = flow[moduleID] else { return false }
        let heard = Self.words(data.hypothesis)
        if let route = module.goTo.userIntents.first(where: { Self.words($0.intent) == heard }) {
            await runner.setUserIntent(route.intent)
        }
        return false
    }

    static func words(_ text: String) -> String {
        var spaced = ""
        for character in text {
            if character.isUppercase, let last = spaced.last, last.isLowercase { spaced.append(" ") }
            spaced.append(character == "_" ? " " : character)
        }
        return spaced.lowercased().split(separator: " ").joined(separator: " ")
    }
}
