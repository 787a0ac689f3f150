public import ParleyCore

/// One voice-flow module: its id, type, name, `goTo` routes, its parameters decoded by type, and its whole JSON (with
/// version 2 key names).
///
/// ``parameters`` are decoded from ``json`` when the module is created (and again when ``json`` or ``type`` change);
/// they keep runtime-field references as written, and the engine resolves them when it runs the module, after the
/// module's `PreModuleStart` callback. ``json`` keeps every key, known or not, so the module writes back as it was
/// read.
public struct Module: Sendable, Hashable {
    /// The unique id; `VF_START` and `VF_END` are reserved.
    public var id: String
    /// The type.
    public var type: ModuleType { didSet { decodeParameters() } }
    /// The display name (required by the schema; the validator reports a missing one).
    public var name: String?
    /// The transitions.
    public var goTo: GoTo
    /// The whole module object, with version 1 keys renamed to version 2 ones.
    public var json: JSONObject { didSet { decodeParameters() } }
    /// What the module's type acts on, decoded from ``json``.
    public private(set) var parameters: ModuleParameters = .empty
    /// `audioInterruptTransitionParams` (any type may have them), decoded from ``json``.
    public private(set) var interruptTransition: InterruptTransition?

    /// Creates a module; its ``parameters`` are decoded from `json`.
    public init(id: String, type: ModuleType, name: String? = nil, goTo: GoTo = GoTo(), json: JSONObject = [:]) {
        self.id = id
        self.type = type
        self.name = name
        self.goTo = goTo
        self.json = json
        decodeParameters()
    }

    /// The object under `key` (such as `playAudioParams`), or an empty one.
    @available(*, deprecated, message: "use the typed parameters")
    public func params(_ key: String) -> JSONObject {
        json[key]?.objectValue ?? [:]
    }

    private mutating func decodeParameters() {
        parameters = ModuleParameters(type: type, json: json)
        interruptTransition = InterruptTransition(module: json)
    }
}

/// A module's transitions: `DEFAULT`, the failure routes, intents and user-input matches.
///
/// Targets are module ids, `$[Field]` references resolved at run time, or `""` (end the flow).
public struct GoTo: Sendable, Hashable {
    /// Taken when no other rule applies.
    public var defaultTarget: String?
    /// Named routes: `maxTimeoutCount`, `maxGarbageCount`, `maxSRErrorCount`, `loadPromptFailure`,
    /// `internalFailure`.
    public var routes: [String: String]
    /// Intent → target, in file order.
    public var userIntents: [IntentRoute]
    /// Hypothesis matches, in file order.
    public var userInputs: [InputRoute]
    /// Record stop reason → target.
    public var stopRecordReasons: [String: String]

    /// The named failure and retry routes.
    public static let routeKeys = [
        "maxTimeoutCount", "maxGarbageCount", "maxSRErrorCount", "loadPromptFailure", "internalFailure",
    ]

    /// Creates routes.
    public init(
        defaultTarget: String? = nil, routes: [String: String] = [:], userIntents: [IntentRoute] = [],
        userInputs: [InputRoute] = [], stopRecordReasons: [String: String] = [:]
    ) {
        self.defaultTarget = defaultTarget
        self.routes = routes
        self.userIntents = userIntents
        self.userInputs = userInputs
        self.stopRecordReasons = stopRecordReasons
    }

    /// Every target with the JSON key it came from, in a stable order.
    public var allTargets: [(key: String, target: String)] {
        var result: [(key: String, target: String)] = []
        if let defaultTarget { result.append(("DEFAULT", defaultTarget)) }
        for key in Self.routeKeys { if let target = routes[key] { result.append((key, target)) } }
        for (index, route) in userIntents.enumerated() {
            result.append(("userIntentCollection[\(index)]", route.target))
        }
        for (index, route) in userInputs.enumerated() { result.append(("goToForUserInput[\(index)]", route.target)) }
        for (key, target) in stopRecordReasons.sorted(by: { $0.key < $1.key }) {
            result.append(("goToForStopRecordReason.\(key)", target))
        }
        return result
    }
}

/// `{"intent": …, "goTo": …}` of a `userIntentCollection`.
public struct IntentRoute: Sendable, Hashable {
    /// The intent the application sets with `setUserIntent`.
    public var intent: String
    /// Where to go.
    public var target: String

    /// Creates a route.
    public init(intent: String, target: String) {
        self.intent = intent
        self.target = target
    }
}

/// `{"input": …, "comparator": …, "goTo": …}` of `goToForUserInput`: a case-insensitive match on the recognised text.
public struct InputRoute: Sendable, Hashable {
    /// How ``input`` is compared with the hypothesis.
    public enum Comparator: String, Sendable, Hashable {
        /// The whole hypothesis (the default).
        case equals
        /// The hypothesis starts with the input.
        case starts
        /// The hypothesis contains the input.
        case contains
    }

    /// The text to match.
    public var input: String
    /// How to compare.
    public var comparator: Comparator
    /// Whether partial hypotheses may match (`enablePartialSRHypothsis`, spelled as the schema spells it).
    public var matchesPartialHypotheses: Bool
    /// Where to go.
    public var target: String

    /// Creates a route.
    public init(input: String, comparator: Comparator = .equals, matchesPartialHypotheses: Bool = false, target: String)
    {
        self.input = input
        self.comparator = comparator
        self.matchesPartialHypotheses = matchesPartialHypotheses
        self.target = target
    }

    /// Whether `hypothesis` matches, ignoring case and surrounding white space.
    public func matches(_ hypothesis: String) -> Bool {
        let heard = InputRoute.fold(hypothesis)
        let wanted = InputRoute.fold(input)
        switch comparator {
        case .equals: return heard == wanted
        case .starts: return heard.hasPrefix(wanted)
        case .contains: return heard.contains(wanted)
        }
    }

    static func fold(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
    }
}

/// An audio prompt module: what to play, by id.
public struct PromptModule: Sendable, Hashable {
    /// The unique id (a separate namespace from module ids).
    public var id: String
    /// How it chooses from ``promptCollection``; `single` plays its own audio or text.
    public var style: PromptStyle
    /// A recorded audio file name, resolved in the play-audio resource folder.
    public var audioFile: String?
    /// Text to synthesise (when there is no audio file, or it is missing and the map has no text).
    public var textString: String?
    /// A text file to synthesise.
    public var textFile: String?
    /// Whether the text is SSML.
    public var textIsSSML: Bool
    /// Ids of other prompt modules, for `select`, `combo` and `serial`.
    public var promptCollection: [String]
    /// The whole object (``playback`` and the `textIsSSMLRuntime` twin are decoded from it).
    public var json: JSONObject { didSet { decodeParameters() } }
    /// `audioPlaybackParams`, decoded from ``json``.
    public private(set) var playback: AudioPlaybackParameters?
    /// ``textIsSSML`` with its `textIsSSMLRuntime` twin.
    public var ssml: Parameter<Bool> {
        Parameter(path: JSONPath([.key(Keys.textIsSSML)]), written: .bool(textIsSSML), runtime: ssmlRuntime)
    }
    private var ssmlRuntime: String?

    /// Creates a prompt module.
    public init(
        id: String, style: PromptStyle = .single, audioFile: String? = nil, textString: String? = nil,
        textFile: String? = nil, textIsSSML: Bool = false, promptCollection: [String] = [], json: JSONObject = [:]
    ) {
        self.id = id
        self.style = style
        self.audioFile = audioFile
        self.textString = textString
        self.textFile = textFile
        self.textIsSSML = textIsSSML
        self.promptCollection = promptCollection
        self.json = json
        decodeParameters()
    }

    private mutating func decodeParameters() {
        playback = AudioPlaybackParameters(prompt: json)
        ssmlRuntime = json[Keys.textIsSSML + Keys.runtimeSuffix]?.stringValue
    }
}

/// One Audio-to-Text map entry: the text spoken when `audioFile` cannot be played.
public struct AudioToTextEntry: Sendable, Hashable {
    /// The audio file name, as prompt modules spell it.
    public var audioFile: String
    /// The text (may contain `$[Name]` references).
    public var textString: String
    /// The text's language (default `en-US`).
    public var textLanguage: String

    /// Creates an entry.
    public init(audioFile: String, textString: String, textLanguage: String = "en-US") {
        self.audioFile = audioFile
        self.textString = textString
        self.textLanguage = textLanguage
    }
}
