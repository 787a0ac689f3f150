public import ParleyCore

/// One finding of the ``Validator``: an error or a warning, with a stable code, the module (or prompt module) it
/// is about and the JSON path inside its file.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        /// The flow must not run: `parley voiceflow validate` exits with status 1.
        case error
        /// Worth a look; the flow still runs.
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// The code, message and path.
    public var error: ParleyError
    /// The id of the module or prompt module concerned, if any.
    public var moduleID: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ error: ParleyError, moduleID: String? = nil) {
        self.severity = severity
        self.error = error
        self.moduleID = moduleID
    }

    /// The stable code.
    public var code: ParleyError.Code { error.code }

    /// `error[voiceflow.danglingGoTo] module M at $[2].goTo.DEFAULT: …`.
    public var description: String {
        var text = "\(severity.rawValue)[\(error.code)]"
        if let moduleID { text += " \(moduleID)" }
        if let path = error.path { text += " at \(path)" }
        return text + ": " + error.message
    }
}

/// Checks a voice flow (and, when given, its prompt modules) before it runs.
///
/// ```swift
/// let diagnostics = Validator.validate(flow, prompts: prompts)
/// if diagnostics.contains(where: { $0.severity == .error }) { … }
/// ```
///
/// Errors: missing `VF_START`/`VF_END`, reserved modules of another type, duplicate ids, unknown module types,
/// missing keys, wrong JSON types, `…Runtime` values that are not `$[Name]`, values outside their sets, dangling
/// `goTo` targets, unknown prompt ids (when prompts are given), prompt cycles and empty prompts. Warnings:
/// modules no path from `VF_START` reaches (only when no `goTo` target is a runtime field, since those can reach
/// anything).
public enum Validator {
    /// Validates `flow`; prompt ids are checked only when `prompts` is given.
    public static func validate(_ flow: VoiceFlow, prompts: PromptLibrary? = nil) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func report(
            _ code: ParleyError.Code, _ message: String, _ module: String?, _ path: [JSONPath.Component],
            _ severity: Diagnostic.Severity = .error
        ) {
            diagnostics.append(
                Diagnostic(
                    severity, ParleyError(code, message, path: path.isEmpty ? nil : JSONPath(path)), moduleID: module))
        }

        let ids = Set(flow.modules.map(\.id))
        for reserved in ["VF_START", "VF_END"] where !ids.contains(reserved) {
            report(reserved == "VF_START" ? .missingStart : .missingEnd, "the flow has no \(reserved) module", nil, [])
        }
        var seen: Set<String> = []
        for (index, module) in flow.modules.enumerated() {
            let at: [JSONPath.Component] = [.index(index)]
            if !seen.insert(module.id).inserted {
                report(.duplicateID, "module id \(module.id) is used more than once", module.id, at + [.key(Keys.id)])
            }
            checkModule(module, at: at, ids: ids, prompts: prompts, report: report)
        }

        if let prompts { checkPrompts(prompts, report: report) }

        // Reachability (a warning), unless some target is chosen at run time.
        let dynamic = flow.modules.contains { module in
            module.goTo.allTargets.contains {
                RuntimeFields.reference(in: $0.target) != nil || $0.target.contains("$[")
            }
        }
        if !dynamic, ids.contains("VF_START") {
            var reached: Set<String> = ["VF_START"]
            var stack = ["VF_START"]
            while let id = stack.popLast() {
                for (_, target) in flow[id]?.goTo.allTargets ?? []
                where ids.contains(target) && !reached.contains(target) {
                    reached.insert(target)
                    stack.append(target)
                }
            }
            for (index, module) in flow.modules.enumerated() where !reached.contains(module.id) {
                report(
                    .unreachableModule, "no goTo path from VF_START reaches \(module.id)", module.id, [.index(index)],
                    .warning)
            }
        }
        return diagnostics
    }

    // MARK: Modules

    private static func checkModule(
        _ module: Module, at: [JSONPath.Component], ids: Set<String>, prompts: PromptLibrary?,
        report: (ParleyError.Code, String, String?, [JSONPath.Component], Diagnostic.Severity) -> Void
    ) {
        let json = module.json
        let id = module.id
        func error(_ code: ParleyError.Code, _ message: String, _ path: [JSONPath.Component]) {
            report(code, message, id, at + path, .error)
        }

        switch json[Keys.type] {
        case nil: error(.missingKey, "module \(id) has no \"type\"", [])
        case .string(let type)?:
            if !ModuleType.known.contains(ModuleType(rawValue: type)) {
                error(
                    .unknownModuleType,
                    "module \(id) has unknown type \"\(type)\" "
                        + "(known: \(ModuleType.known.map(\.rawValue).joined(separator: ", ")))",
                    [.key(Keys.type)])
            }
        case let other?: error(.wrongType, "\"type\" must be a string, not \(other.typeName)", [.key(Keys.type)])
        }
        if (id == "VF_START" || id == "VF_END"), module.type != .node, json[Keys.type]?.stringValue != nil {
            error(.reservedModuleType, "\(id) must be of type node, not \(module.type)", [.key(Keys.type)])
        }
        switch json[Keys.name] {
        case nil: error(.missingKey, "module \(id) has no \"name\"", [])
        case .string?: break
        case let other?: error(.wrongType, "\"name\" must be a string, not \(other.typeName)", [.key(Keys.name)])
        }

        // goTo
        switch json[Keys.goTo] {
        case nil: error(.missingKey, "module \(id) has no \"goTo\"", [])
        case .object(let goTo)?:
            if goTo[Keys.defaultTarget] == nil {
                error(.missingKey, "module \(id) has no goTo.DEFAULT", [.key(Keys.goTo)])
            }
            for key in [Keys.defaultTarget] + GoTo.routeKeys {
                if let value = goTo[key], value.stringValue == nil {
                    error(
                        .wrongType, "goTo.\(key) must be a module id string, not \(value.typeName)",
                        [.key(Keys.goTo), .key(key)])
                }
            }
            for (listKey, itemKey) in [(Keys.userIntentCollection, Keys.intent), (Keys.goToForUserInput, Keys.input)] {
                guard let list = goTo[listKey] else { continue }
                guard let items = list.arrayValue else {
                    error(
                        .wrongType, "goTo.\(listKey) must be an array, not \(list.typeName)",
                        [.key(Keys.goTo), .key(listKey)])
                    continue
                }
                for (index, item) in items.enumerated() {
                    let path: [JSONPath.Component] = [.key(Keys.goTo), .key(listKey), .index(index)]
                    for key in [itemKey, Keys.goTo] where item[key]?.stringValue == nil {
                        error(
                            item[key] == nil ? .missingKey : .wrongType,
                            "goTo.\(listKey)[\(index)] needs a string \"\(key)\"", path)
                    }
                    if let comparator = item[Keys.comparator]?.stringValue,
                        InputRoute.Comparator(rawValue: comparator) == nil
                    {
                        error(
                            .invalidValue, "comparator \"\(comparator)\" is not equals, starts or contains",
                            path + [.key(Keys.comparator)])
                    }
                }
            }
            for (key, target) in module.goTo.allTargets {
                guard !target.isEmpty, !target.contains("$["), !ids.contains(target) else { continue }
                error(
                    .danglingGoTo, "goTo.\(key) of \(id) names no module: \(target)", [.key(Keys.goTo)] + keyPath(key))
            }
        case let other?: error(.wrongType, "\"goTo\" must be an object, not \(other.typeName)", [.key(Keys.goTo)])
        }

        // Typed parameters and runtime twins everywhere in the module.
        checkTypes(.object(json), path: [], report: { code, message, path in error(code, message, path) })

        // Values from fixed sets, read from the typed parameters (their paths say where they are).
        func invalid(_ parameter: Parameter<String>, _ known: [String], _ what: String) {
            guard let value = parameter.value, !known.contains(value) else { return }
            let allowed = known.dropLast().joined(separator: ", ") + " or " + (known.last ?? "")
            error(.invalidValue, "\(what) \"\(value)\" is not \(allowed)", parameter.path.components)
        }
        let styles = PromptStyle.known.map(\.rawValue)
        switch module.parameters {
        case .playAudio(let choice):
            invalid(choice.style, styles, "\(Keys.playAudioParams).\(Keys.style)")
        case .audioDialog(let dialog):
            for prompt in dialog.prompts {
                if let type = prompt.type.value, !DialogPromptType.known.contains(type) {
                    error(
                        .invalidValue,
                        "dialog prompt type \"\(type)\" is not one of "
                            + DialogPromptType.known.joined(separator: ", "),
                        prompt.type.path.components)
                }
                invalid(prompt.choice.style, styles, "dialog prompt style")
            }
        default:
            break
        }
        if let transition = module.interruptTransition {
            invalid(transition.transitionType, InterruptTransition.knownTypes, Keys.transitionType)
        }
        if case .process(let process) = module.parameters {
            for (index, item) in process.assignments.enumerated() {
                let path: [JSONPath.Component] = [
                    .key(Keys.processParams), .key(Keys.setValueForFieldNameCollection), .index(index),
                ]
                if let name = item.name {
                    if item.field == nil {
                        error(
                            .invalidRuntimeValue, "field name \"\(name)\" must be written $[Name]",
                            path + [.key(Keys.name)])
                    }
                } else {
                    error(.missingKey, "setValueForFieldNameCollection[\(index)] needs a string \"name\"", path)
                }
                if item.value == nil {
                    error(.missingKey, "setValueForFieldNameCollection[\(index)] needs a \"value\"", path)
                }
            }
        }

        // Prompt ids.
        if let prompts {
            for reference in promptReferences(module.parameters) {
                guard let promptID = reference.value, !promptID.contains("$["), prompts[promptID] == nil else {
                    continue
                }
                error(
                    .unknownPrompt, "prompt \(promptID) is not in the loaded prompt modules", reference.path.components)
            }
        }
    }

    private static func keyPath(_ key: String) -> [JSONPath.Component] {
        // "userIntentCollection[2]" → userIntentCollection, 2, goTo; "goToForStopRecordReason.x" → two keys.
        if let open = key.firstIndex(of: "["), let number = Int(key[key.index(after: open)...].dropLast()) {
            return [.key(String(key[..<open])), .index(number), .key(Keys.goTo)]
        }
        return key.split(separator: ".").map { .key(String($0)) }
    }

    /// Keys whose values must have one JSON type, wherever they appear.
    static let typedKeys: [String: String] = [
        "enableVAD": "boolean", "trimSilence": "boolean", "savePreTrimAudio": "boolean",
        "recognizeWhilePlay": "boolean",
        "recordPromptNoPlay": "boolean", "enablePartialResults": "boolean", "autoPunctuate": "boolean",
        "recordUtteranceAudio": "boolean", "textIsSSML": "boolean", "loopPlay": "boolean",
        "enablePartialSRHypothsis": "boolean",
        "maxRecordLengthMs": "number", "maxAudioLengthMs": "number", "maxSpeechLengthMs": "number",
        "maxPreSpeechSilenceLengthMs": "number", "maxPostSpeechSilenceLengthMs": "number", "notifyPosMs": "number",
        "minSpeechToDetectMs": "number", "minSilenceToDetectMs": "number", "maxPlayCount": "number",
        "startPosMs": "number", "rewindCurrentAudioSegmentMs": "number", "timeout": "number", "garbage": "number",
        "sr_error": "number",
        "promptID": "string", "style": "string", "srEngine": "string", "srLocale": "string", "ssEngine": "string",
        "promptCollection": "array", "dialogPromptCollection": "array", "setValueForFieldNameCollection": "array",
    ]

    private static func checkTypes(
        _ value: JSONValue, path: [JSONPath.Component],
        report: (ParleyError.Code, String, [JSONPath.Component]) -> Void
    ) {
        switch value {
        case .object(let object):
            for member in object where member.key != Keys.goTo || !path.isEmpty {
                let here = path + [.key(member.key)]
                if member.key.hasSuffix(Keys.runtimeSuffix), member.key.count > Keys.runtimeSuffix.count {
                    if member.value.stringValue.flatMap(RuntimeFields.reference(in:)) == nil {
                        report(
                            .invalidRuntimeValue,
                            "\(member.key) must be a string \"$[FieldName]\", not \(member.value.description)", here)
                    }
                    continue
                }
                if let expected = typedKeys[member.key], member.value.typeName != expected,
                    !(member.value.typeName == "string" && expected != "string"
                        && (member.value.stringValue ?? "").contains("$["))
                {
                    report(.wrongType, "\(member.key) must be a \(expected), not \(member.value.typeName)", here)
                    continue
                }
                checkTypes(member.value, path: here, report: report)
            }
        case .array(let items):
            for (index, item) in items.enumerated() { checkTypes(item, path: path + [.index(index)], report: report) }
        default: break
        }
    }

    /// Every prompt id the module's type plays, with its path.
    static func promptReferences(_ parameters: ModuleParameters) -> [Parameter<String>] {
        func ids(_ choice: PromptChoice) -> [Parameter<String>] { [choice.promptID] + choice.collection }
        switch parameters {
        case .playAudio(let choice): return ids(choice)
        case .audioListener(let listener): return [listener.promptID]
        case .recordAudio(let record): return [record.promptID]
        case .audioDialog(let dialog): return dialog.prompts.flatMap { ids($0.choice) }
        default: return []
        }
    }

    // MARK: Prompt modules

    /// Validates prompt modules on their own: unknown styles, empty prompts, unknown ids in collections, cycles.
    public static func validate(_ prompts: PromptLibrary) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        checkPrompts(prompts) { code, message, module, path, severity in
            diagnostics.append(Diagnostic(severity, ParleyError(code, message, path: JSONPath(path)), moduleID: module))
        }
        return diagnostics
    }

    private static func checkPrompts(
        _ prompts: PromptLibrary,
        report: (ParleyError.Code, String, String?, [JSONPath.Component], Diagnostic.Severity) -> Void
    ) {
        for (index, prompt) in prompts.prompts.enumerated() {
            let at: [JSONPath.Component] = [.index(index)]
            if !PromptStyle.known.contains(prompt.style) {
                report(
                    .invalidValue, "prompt \(prompt.id) has unknown style \"\(prompt.style)\"", prompt.id,
                    at + [.key(Keys.style)], .error)
            }
            if prompt.style == .single {
                if prompt.audioFile == nil, prompt.textString == nil, prompt.textFile == nil {
                    report(
                        .emptyPrompt, "prompt \(prompt.id) has no audioFile, textString or textFile", prompt.id, at,
                        .error)
                }
            } else if prompt.promptCollection.isEmpty {
                report(
                    .emptyPrompt, "prompt \(prompt.id) of style \(prompt.style) has an empty promptCollection",
                    prompt.id, at, .error)
            }
            for (position, child) in prompt.promptCollection.enumerated()
            where !child.contains("$[") && prompts[child] == nil {
                report(
                    .unknownPrompt, "prompt \(prompt.id) includes unknown prompt \(child)", prompt.id,
                    at + [.key(Keys.promptCollection), .index(position), .key(Keys.promptID)], .error)
            }
            var typeErrors: [(ParleyError.Code, String, [JSONPath.Component])] = []
            checkTypes(.object(prompt.json), path: []) { code, message, path in typeErrors.append((code, message, path))
            }
            for (code, message, path) in typeErrors { report(code, message, prompt.id, at + path, .error) }
        }
        // Cycles: depth-first search with colours; each cycle is reported once, at its first prompt.
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var reported: Set<String> = []
        func visit(_ id: String, _ trail: [String]) {
            guard let prompt = prompts[id] else { return }
            state[id] = 1
            for child in prompt.promptCollection {
                if state[child] == 1 {
                    let cycle = Array(trail.drop(while: { $0 != child })) + [id, child]
                    let key = Set(cycle).sorted().joined(separator: ",")
                    if reported.insert(key).inserted {
                        let position = prompts.prompts.firstIndex { $0.id == child } ?? 0
                        report(
                            .promptCycle, "prompt modules form a cycle: \(cycle.joined(separator: " → "))", child,
                            [.index(position)], .error)
                    }
                } else if state[child] == nil {
                    visit(child, trail + [id])
                }
            }
            state[id] = 2
        }
        for prompt in prompts.prompts where state[prompt.id] == nil { visit(prompt.id, []) }
    }
}

/// The `type` of a dialog prompt.
public enum DialogPromptType {
    /// Played once, before the first `initial` prompt.
    public static let preInitial = "preInitial"
    /// Played on the first attempt, and on retries that have no prompt of their own.
    public static let initial = "initial"
    /// Played after a hypothesis that matched nothing (or was rejected).
    public static let garbage = "garbage"
    /// Played after no input.
    public static let timeout = "timeout"
    /// Played after a recognition error.
    public static let srError = "sr_error"
    /// All five.
    public static let known = [preInitial, initial, garbage, timeout, srError]
}
