public import Foundation
public import ParleyCore

/// A loaded voice flow: its modules in file order.
///
/// ```swift
/// let flow = try VoiceFlow(parsing: json)
/// let report = Validator.validate(flow, prompts: prompts)
/// ```
public struct VoiceFlow: Sendable, Hashable {
    /// The modules, in file order.
    public var modules: [Module] {
        didSet {
            positions = Self.positions(of: modules)
            steps = Self.steps(of: modules, positions: positions)
        }
    }
    /// Where the first module with each id is: the engine looks a module up at every transition.
    private var positions: [String: Int]
    /// What the engine needs of each module at every transition, prepared once.
    private var steps: [Step]

    /// Creates a flow from modules.
    public init(modules: [Module]) {
        self.modules = modules
        positions = Self.positions(of: modules)
        steps = Self.steps(of: modules, positions: positions)
    }

    /// A module's type, `DEFAULT` target and `process` assignments, read from its JSON once.
    struct Step: Sendable, Hashable {
        /// A `setValueForFieldNameCollection` item whose name is a `$[field]` reference.
        struct Assignment: Sendable, Hashable {
            let field: String
            let value: JSONValue
            /// The value holds no `$[field]` reference: it is assigned as it is, without a scan.
            let isLiteral: Bool
        }

        let type: ModuleType
        let defaultTarget: String?
        /// The position of ``defaultTarget`` when it names a module literally (no `$[field]` reference in it): a
        /// transition then looks nothing up.
        let defaultTargetPosition: Int?
        let assignments: [Assignment]
        /// A `process` module's `audioInterruptTransitionParams`: the flow-wide default once it has run.
        let interruptTransition: InterruptTransition?

        init(_ module: Module, positions: [String: Int]) {
            type = module.type
            defaultTarget = module.goTo.defaultTarget
            defaultTargetPosition = defaultTarget.flatMap { RuntimeFields.isLiteral($0) ? positions[$0] : nil }
            guard case .process(let process) = module.parameters else {
                assignments = []
                interruptTransition = nil
                return
            }
            interruptTransition = module.interruptTransition
            assignments = process.assignments.compactMap { item in
                guard let field = item.field, let value = item.value else { return nil }
                let isLiteral = value.stringValue.map(RuntimeFields.isLiteral) ?? true
                return Assignment(field: field, value: value, isLiteral: isLiteral)
            }
        }
    }

    /// The position of the first module with `id`.
    func position(of id: String) -> Int? {
        positions[id]
    }

    /// The prepared step of the module at `position`.
    func step(at position: Int) -> Step {
        steps[position]
    }

    private static func steps(of modules: [Module], positions: [String: Int]) -> [Step] {
        modules.map { Step($0, positions: positions) }
    }

    private static func positions(of modules: [Module]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(modules.count)
        for (index, module) in modules.enumerated() where positions[module.id] == nil {
            positions[module.id] = index
        }
        return positions
    }

    /// Parses a voice-flow file's text (trailing commas accepted, version 1 keys renamed to version 2 ones).
    /// - Throws: ``ParleyError`` when the text is not JSON, not an array of objects, or a module has no string `id`.
    ///   Everything else is left to ``Validator``.
    public init(parsing text: String) throws(ParleyError) {
        try self.init(json: JSONValue(parsingLeniently: text))
    }

    /// Builds a flow from parsed JSON.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .array(let items) = json else {
            throw ParleyError(
                .wrongType, "a voice flow is a JSON array of modules, not \(json.typeName)", path: JSONPath())
        }
        var modules: [Module] = []
        for (index, item) in items.enumerated() {
            let path = JSONPath([.index(index)])
            guard case .object(let raw) = item else {
                throw ParleyError(.wrongType, "a module is an object, not \(item.typeName)", path: path)
            }
            let object = VersionAliases.canonical(module: raw)
            guard let id = object[Keys.id]?.stringValue else {
                throw ParleyError(.missingKey, "module \(index) has no string \"id\"", path: path)
            }
            modules.append(
                Module(
                    id: id,
                    type: ModuleType(rawValue: object[Keys.type]?.stringValue ?? ""),
                    name: object[Keys.name]?.stringValue,
                    goTo: GoTo(json: object[Keys.goTo]),
                    json: object
                ))
        }
        self.init(modules: modules)
    }

    /// Loads a voice-flow file.
    public init(contentsOf url: URL) throws(ParleyError) {
        try self.init(parsing: try readText(url))
    }

    /// The first module with `id`.
    public subscript(id: String) -> Module? {
        positions[id].map { modules[$0] }
    }
}

/// A set of audio prompt modules by id.
public struct PromptLibrary: Sendable, Hashable {
    /// The prompt modules, in load order (a later one with the same id replaces an earlier one).
    public private(set) var prompts: [PromptModule] = []
    private var index: [String: Int] = [:]

    /// An empty library.
    public init() {}

    /// A library of `prompts`.
    public init(_ prompts: [PromptModule]) {
        for prompt in prompts { add(prompt) }
    }

    /// Parses an Audio Prompt Module list (trailing commas accepted).
    /// - Throws: ``ParleyError`` when the text is not a JSON array of objects with string ids.
    public init(parsing text: String) throws(ParleyError) {
        self.init()
        try merge(parsing: text)
    }

    /// Loads an Audio Prompt Module list file.
    public init(contentsOf url: URL) throws(ParleyError) {
        try self.init(parsing: try readText(url))
    }

    /// Adds the prompt modules of another list; ids already present are replaced.
    public mutating func merge(parsing text: String) throws(ParleyError) {
        let json = try JSONValue(parsingLeniently: text)
        guard case .array(let items) = json else {
            throw ParleyError(
                .wrongType, "an audio prompt module list is a JSON array, not \(json.typeName)", path: JSONPath())
        }
        for (position, item) in items.enumerated() {
            let path = JSONPath([.index(position)])
            guard case .object(let object) = item else {
                throw ParleyError(.wrongType, "an audio prompt module is an object, not \(item.typeName)", path: path)
            }
            guard let id = object[Keys.id]?.stringValue else {
                throw ParleyError(.missingKey, "audio prompt module \(position) has no string \"id\"", path: path)
            }
            add(PromptModule(id: id, object: object))
        }
    }

    /// Adds or replaces a prompt module.
    public mutating func add(_ prompt: PromptModule) {
        if let existing = index[prompt.id] {
            prompts[existing] = prompt
        } else {
            index[prompt.id] = prompts.count
            prompts.append(prompt)
        }
    }

    /// The prompt module with `id`.
    public subscript(id: String) -> PromptModule? {
        index[id].map { prompts[$0] }
    }
}

/// Audio file name → text to synthesise when the file cannot be played.
public struct AudioToTextMap: Sendable, Hashable {
    /// The entries by audio file name.
    public private(set) var entries: [String: AudioToTextEntry] = [:]

    /// An empty map.
    public init() {}

    /// A map of `entries`.
    public init(_ entries: [AudioToTextEntry]) {
        for entry in entries { self.entries[entry.audioFile] = entry }
    }

    /// Parses an Audio-to-Text map (trailing commas accepted; `_COMMENT_` and `_audioFile` ignored).
    /// - Throws: ``ParleyError`` when an entry lacks a string `audioFile` or `textString`.
    public init(parsing text: String) throws(ParleyError) {
        self.init()
        try merge(parsing: text)
    }

    /// Loads an Audio-to-Text map file.
    public init(contentsOf url: URL) throws(ParleyError) {
        try self.init(parsing: try readText(url))
    }

    /// Adds the entries of another map; file names already present are replaced.
    public mutating func merge(parsing text: String) throws(ParleyError) {
        let json = try JSONValue(parsingLeniently: text)
        guard case .array(let items) = json else {
            throw ParleyError(
                .wrongType, "an audio-to-text map is a JSON array, not \(json.typeName)", path: JSONPath())
        }
        for (position, item) in items.enumerated() {
            let path = JSONPath([.index(position)])
            guard let audioFile = item["audioFile"]?.stringValue else {
                throw ParleyError(
                    .missingKey, "audio-to-text entry \(position) has no string \"audioFile\"", path: path)
            }
            guard let textString = item["textString"]?.stringValue else {
                throw ParleyError(
                    .missingKey, "audio-to-text entry \(position) has no string \"textString\"", path: path)
            }
            entries[audioFile] = AudioToTextEntry(
                audioFile: audioFile, textString: textString, textLanguage: item["textLanguage"]?.stringValue ?? "en-US"
            )
        }
    }

    /// The entry for `audioFile`.
    public subscript(audioFile: String) -> AudioToTextEntry? {
        entries[audioFile]
    }
}

/// Version 1 (BZVoiceFlow) key names and their version 2 (STVoiceFlow) equivalents.
enum VersionAliases {
    /// Keys renamed wherever they appear.
    static let renamed: [String: String] = [
        "languageCode": Keys.srLocale,
        "appleSRSessionParams": Keys.srSessionParams,
        "pocketSphinxSRSessionParams": Keys.srSessionParams,
        "enablePartialSRHypothesis": Keys.enablePartialSRHypothsis,
    ]

    /// `module` with version 1 keys renamed (a version 2 key present wins over its alias).
    static func canonical(module: JSONObject) -> JSONObject {
        var object = rename(module)
        if var record = object[Keys.recordAudioParams]?.objectValue {
            var play = record[Keys.recordPlayPromptParams]?.objectValue ?? [:]
            var moved = false
            if let promptID = record[Keys.promptID] {
                if play[Keys.promptID] == nil { play.append(Keys.promptID, promptID) }
                record = record.removing(Keys.promptID)
                moved = true
            }
            if let fromPrompt = record["recordFromPrompt"] {
                if play[Keys.recordPromptNoPlay] == nil { play.append(Keys.recordPromptNoPlay, fromPrompt) }
                record = record.removing("recordFromPrompt")
                moved = true
            }
            if moved {
                record = record.removing(Keys.recordPlayPromptParams)
                record.append(Keys.recordPlayPromptParams, .object(play))
                object = replacing(Keys.recordAudioParams, with: .object(record), in: object)
            }
        }
        return object
    }

    private static func rename(_ object: JSONObject) -> JSONObject {
        var result = JSONObject()
        for member in object {
            let key = renamed[member.key].flatMap { object[$0] == nil ? $0 : nil } ?? member.key
            result.append(key, rename(member.value))
        }
        return result
    }

    private static func rename(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): .object(rename(object))
        case .array(let items): .array(items.map(rename))
        default: value
        }
    }

    private static func replacing(_ key: String, with value: JSONValue, in object: JSONObject) -> JSONObject {
        var result = JSONObject()
        for member in object { result.append(member.key, member.key == key ? value : member.value) }
        return result
    }
}

/// Reads a UTF-8 text file, as a ``ParleyError``.
func readText(_ url: URL) throws(ParleyError) -> String {
    do {
        return try String(contentsOf: url, encoding: .utf8)
    } catch {
        throw ParleyError(.fileNotFound, "cannot read \(url.path)", underlying: error)
    }
}
