import ParleyCore

/// The JSON keys of modules and prompt modules Parley acts on, spelled once: the decoding below reads them, the
/// validator names them in paths.
enum Keys {
    static let runtimeSuffix = "Runtime"

    static let id = "id"
    static let type = "type"
    static let name = "name"
    static let goTo = "goTo"
    static let defaultTarget = "DEFAULT"
    static let userIntentCollection = "userIntentCollection"
    static let intent = "intent"
    static let goToForUserInput = "goToForUserInput"
    static let input = "input"
    static let comparator = "comparator"
    static let enablePartialSRHypothsis = "enablePartialSRHypothsis"
    static let goToForStopRecordReason = "goToForStopRecordReason"

    static let processParams = "processParams"
    static let setValueForFieldNameCollection = "setValueForFieldNameCollection"
    static let value = "value"

    static let playAudioParams = "playAudioParams"
    static let promptID = "promptID"
    static let promptCollection = "promptCollection"
    static let style = "style"

    static let recordAudioParams = "recordAudioParams"
    static let recordPlayPromptParams = "recordPlayPromptParams"
    static let recordPromptNoPlay = "recordPromptNoPlay"
    static let stopRecordParams = "stopRecordParams"
    static let maxAudioLengthMs = "maxAudioLengthMs"
    static let maxRecordLengthMs = "maxRecordLengthMs"
    static let maxPreSpeechSilenceLengthMs = "maxPreSpeechSilenceLengthMs"
    static let maxPostSpeechSilenceLengthMs = "maxPostSpeechSilenceLengthMs"
    static let maxSpeechLengthMs = "maxSpeechLengthMs"
    static let vadParams = "vadParams"
    static let enableVAD = "enableVAD"
    static let minSpeechToDetectMs = "minSpeechToDetectMs"
    static let minSilenceToDetectMs = "minSilenceToDetectMs"

    static let recognizeAudioParams = "recognizeAudioParams"
    static let srLocale = "srLocale"
    static let srEngine = "srEngine"
    static let srSessionParams = "srSessionParams"
    static let enablePartialResults = "enablePartialResults"

    static let audioDialogParams = "audioDialogParams"
    static let dialogPromptCollection = "dialogPromptCollection"
    static let recognizeWhilePlay = "recognizeWhilePlay"
    static let maxRetryCount = "maxRetryCount"

    static let audioListenerParams = "audioListenerParams"

    static let audioInterruptTransitionParams = "audioInterruptTransitionParams"
    static let transitionType = "transitionType"
    static let goToVoiceFlowModuleID = "goToVoiceFlowModuleID"
    static let rewindCurrentAudioSegmentMs = "rewindCurrentAudioSegmentMs"

    static let audioFile = "audioFile"
    static let textString = "textString"
    static let textFile = "textFile"
    static let textIsSSML = "textIsSSML"
    static let audioPlaybackParams = "audioPlaybackParams"
    static let startPosMs = "startPosMs"
    static let loopPlay = "loopPlay"
    static let maxPlayCount = "maxPlayCount"
}

// Decoding is lenient: a value of the wrong JSON type is kept as written in its `Parameter` (the validator reports
// it; the engine counts it as unset), an absent object reads as an empty one, and nothing here throws.

extension GoTo {
    /// Reads a `goTo` object leniently; the validator reports what is wrong with it.
    init(json: JSONValue?) {
        self.init()
        guard let object = json?.objectValue else { return }
        defaultTarget = object[Keys.defaultTarget]?.stringValue
        for key in Self.routeKeys { if let target = object[key]?.stringValue { routes[key] = target } }
        for item in object[Keys.userIntentCollection]?.arrayValue ?? [] {
            if let intent = item[Keys.intent]?.stringValue, let target = item[Keys.goTo]?.stringValue {
                userIntents.append(IntentRoute(intent: intent, target: target))
            }
        }
        for item in object[Keys.goToForUserInput]?.arrayValue ?? [] {
            if let input = item[Keys.input]?.stringValue, let target = item[Keys.goTo]?.stringValue {
                userInputs.append(
                    InputRoute(
                        input: input,
                        comparator: item[Keys.comparator]?.stringValue.flatMap(InputRoute.Comparator.init(rawValue:))
                            ?? .equals,
                        matchesPartialHypotheses: item[Keys.enablePartialSRHypothsis]?.boolValue ?? false,
                        target: target))
            }
        }
        for member in object[Keys.goToForStopRecordReason]?.objectValue ?? [:] {
            if let target = member.value.stringValue { stopRecordReasons[member.key] = target }
        }
    }
}

extension ModuleParameters {
    /// Decodes what a module of `type` acts on from its (version 2) JSON.
    init(type: ModuleType, json: JSONObject) {
        switch type {
        case .process: self = .process(ProcessParameters(json[Keys.processParams]?.objectValue))
        case .playAudio:
            self = .playAudio(PromptChoice(json[Keys.playAudioParams]?.objectValue, at: [.key(Keys.playAudioParams)]))
        case .recordAudio: self = .recordAudio(RecordAudioParameters(json[Keys.recordAudioParams]?.objectValue))
        case .audioDialog: self = .audioDialog(AudioDialogParameters(json))
        case .audioListener: self = .audioListener(AudioListenerParameters(json))
        default: self = .empty
        }
    }
}

extension PromptChoice {
    /// Reads `promptID`, `promptCollection` and `style` of `object`, which is at `at` in the module.
    init(_ object: JSONObject?, at: [JSONPath.Component]) {
        promptID = Parameter(Keys.promptID, of: object, at: at, twin: false)
        style = Parameter(Keys.style, of: object, at: at, twin: false)
        let list = at + [.key(Keys.promptCollection)]
        collection = (object?[Keys.promptCollection]?.arrayValue ?? []).enumerated().map { index, item in
            if case .object(let member) = item {
                return Parameter(Keys.promptID, of: member, at: list + [.index(index)], twin: false)
            }
            return Parameter(path: JSONPath(list + [.index(index)]), written: item)
        }
    }
}

extension ProcessParameters {
    init(_ object: JSONObject?) {
        assignments = (object?[Keys.setValueForFieldNameCollection]?.arrayValue ?? []).map { item in
            Assignment(name: item[Keys.name]?.stringValue, value: item[Keys.value])
        }
    }
}

extension RecordAudioParameters {
    init(_ object: JSONObject?) {
        let at: [JSONPath.Component] = [.key(Keys.recordAudioParams)]
        let play = object?[Keys.recordPlayPromptParams]?.objectValue
        fileID = Parameter(Keys.id, of: object, at: at, twin: false)
        promptID = Parameter(Keys.promptID, of: play, at: at + [.key(Keys.recordPlayPromptParams)], twin: false)
        promptNoPlay = Parameter(Keys.recordPromptNoPlay, of: play, at: at + [.key(Keys.recordPlayPromptParams)])
        stop = StopRecordParameters(object)
        voiceActivity = VoiceActivityDetection(object)
    }
}

extension StopRecordParameters {
    /// Reads `stopRecordParams` of a `recordAudioParams` object.
    init(_ record: JSONObject?) {
        let at: [JSONPath.Component] = [.key(Keys.recordAudioParams), .key(Keys.stopRecordParams)]
        let stop = record?[Keys.stopRecordParams]?.objectValue
        maxAudioLength = Parameter(Keys.maxAudioLengthMs, of: stop, at: at)
        maxRecordLength = Parameter(Keys.maxRecordLengthMs, of: stop, at: at)
        maxPreSpeechSilence = Parameter(Keys.maxPreSpeechSilenceLengthMs, of: stop, at: at)
        maxPostSpeechSilence = Parameter(Keys.maxPostSpeechSilenceLengthMs, of: stop, at: at)
        maxSpeechLength = Parameter(Keys.maxSpeechLengthMs, of: stop, at: at)
    }
}

extension VoiceActivityDetection {
    /// Reads `vadParams` of a `recordAudioParams` object.
    init(_ record: JSONObject?) {
        let at: [JSONPath.Component] = [.key(Keys.recordAudioParams), .key(Keys.vadParams)]
        let vad = record?[Keys.vadParams]?.objectValue
        enabled = Parameter(Keys.enableVAD, of: vad, at: at)
        minSpeech = Parameter(Keys.minSpeechToDetectMs, of: vad, at: at)
        minSilence = Parameter(Keys.minSilenceToDetectMs, of: vad, at: at)
    }
}

extension ListeningParameters {
    /// Reads `recognizeAudioParams` and `recordAudioParams` of a module.
    init(_ json: JSONObject) {
        let at: [JSONPath.Component] = [.key(Keys.recognizeAudioParams)]
        let recognize = json[Keys.recognizeAudioParams]?.objectValue
        let session = recognize?[Keys.srSessionParams]?.objectValue
        self.recognize = RecognizeAudioParameters(
            locale: Parameter(Keys.srLocale, of: recognize, at: at, twin: false),
            engine: Parameter(Keys.srEngine, of: recognize, at: at, twin: false),
            partialResults: Parameter(Keys.enablePartialResults, of: session, at: at + [.key(Keys.srSessionParams)]))
        let record = json[Keys.recordAudioParams]?.objectValue
        stop = StopRecordParameters(record)
        voiceActivity = VoiceActivityDetection(record)
    }
}

extension AudioDialogParameters {
    init(_ json: JSONObject) {
        let at: [JSONPath.Component] = [.key(Keys.audioDialogParams)]
        let object = json[Keys.audioDialogParams]?.objectValue
        let list = at + [.key(Keys.dialogPromptCollection)]
        prompts = (object?[Keys.dialogPromptCollection]?.arrayValue ?? []).enumerated().compactMap { index, item in
            guard case .object(let prompt) = item else { return nil }
            let here = list + [.index(index)]
            return DialogPrompt(
                type: Parameter(Keys.type, of: prompt, at: here, twin: false), choice: PromptChoice(prompt, at: here),
                recognizeWhilePlay: Parameter(Keys.recognizeWhilePlay, of: prompt, at: here))
        }
        let maxima = object?[Keys.maxRetryCount]?.objectValue
        var limits: [String: Parameter<Int>] = [:]
        for kind in [DialogPromptType.timeout, DialogPromptType.garbage, DialogPromptType.srError] {
            limits[kind] = Parameter(kind, of: maxima, at: at + [.key(Keys.maxRetryCount)])
        }
        maxRetryCount = limits
        listening = ListeningParameters(json)
    }
}

extension AudioListenerParameters {
    init(_ json: JSONObject) {
        let at: [JSONPath.Component] = [.key(Keys.audioListenerParams)]
        let object = json[Keys.audioListenerParams]?.objectValue
        promptID = Parameter(Keys.promptID, of: object, at: at, twin: false)
        recognizeWhilePlay = Parameter(Keys.recognizeWhilePlay, of: object, at: at)
        listening = ListeningParameters(json)
    }
}

extension InterruptTransition {
    /// Reads a module's `audioInterruptTransitionParams`; `nil` when it has none (or they are not an object).
    init?(module json: JSONObject) {
        guard case .object(let object)? = json[Keys.audioInterruptTransitionParams] else { return nil }
        let at: [JSONPath.Component] = [.key(Keys.audioInterruptTransitionParams)]
        self.init(
            transitionType: Parameter(Keys.transitionType, of: object, at: at, twin: false),
            goToModuleID: Parameter(Keys.goToVoiceFlowModuleID, of: object, at: at, twin: false),
            rewind: Parameter(Keys.rewindCurrentAudioSegmentMs, of: object, at: at),
            other: object.removing(Keys.transitionType).removing(Keys.goToVoiceFlowModuleID)
                .removing(Keys.rewindCurrentAudioSegmentMs))
    }

    /// No parameters: the transition type is `end`.
    init() {
        self.init(
            transitionType: Parameter(path: JSONPath([.key(Keys.transitionType)])),
            goToModuleID: Parameter(path: JSONPath([.key(Keys.goToVoiceFlowModuleID)])),
            rewind: Parameter(path: JSONPath([.key(Keys.rewindCurrentAudioSegmentMs)])), other: [:])
    }
}

extension AudioPlaybackParameters {
    /// Reads a prompt module's `audioPlaybackParams`; `nil` when it has none.
    init?(prompt json: JSONObject) {
        guard case .object(let object)? = json[Keys.audioPlaybackParams] else { return nil }
        let at: [JSONPath.Component] = [.key(Keys.audioPlaybackParams)]
        startPosition = Parameter(Keys.startPosMs, of: object, at: at)
        loopPlay = Parameter(Keys.loopPlay, of: object, at: at)
        maxPlayCount = Parameter(Keys.maxPlayCount, of: object, at: at)
    }
}

extension PromptModule {
    /// Decodes an audio prompt module object with a string `id`.
    init(id: String, object: JSONObject) {
        let collection = object[Keys.promptCollection]?.arrayValue ?? []
        self.init(
            id: id,
            style: PromptStyle(rawValue: object[Keys.style]?.stringValue ?? (collection.isEmpty ? "single" : "combo")),
            audioFile: object[Keys.audioFile]?.stringValue,
            textString: object[Keys.textString]?.stringValue,
            textFile: object[Keys.textFile]?.stringValue,
            textIsSSML: object[Keys.textIsSSML]?.boolValue ?? false,
            promptCollection: collection.compactMap { $0[Keys.promptID]?.stringValue ?? $0.stringValue },
            json: object)
    }
}
