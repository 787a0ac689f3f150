public import ParleyCore

extension ParleyError.Code {
    /// The flow has no module with id `VF_START`.
    public static let missingStart: Self = "voiceflow.missingStart"
    /// The flow has no module with id `VF_END`.
    public static let missingEnd: Self = "voiceflow.missingEnd"
    /// `VF_START` or `VF_END` is not of type `node`.
    public static let reservedModuleType: Self = "voiceflow.reservedModuleType"
    /// Two modules (or two prompt modules) share an id.
    public static let duplicateID: Self = "voiceflow.duplicateID"
    /// A `goTo` target names no module of the flow.
    public static let danglingGoTo: Self = "voiceflow.danglingGoTo"
    /// A prompt id names no loaded prompt module.
    public static let unknownPrompt: Self = "voiceflow.unknownPrompt"
    /// Prompt modules refer to each other in a cycle.
    public static let promptCycle: Self = "voiceflow.promptCycle"
    /// No `goTo` path leads from `VF_START` to the module (a warning).
    public static let unreachableModule: Self = "voiceflow.unreachableModule"
    /// A value has the wrong JSON type.
    public static let wrongType: Self = "voiceflow.wrongType"
    /// A `…Runtime` value is not a `$[Name]` reference.
    public static let invalidRuntimeValue: Self = "voiceflow.invalidRuntimeValue"
    /// A module's `type` is not one Parley runs.
    public static let unknownModuleType: Self = "voiceflow.unknownModuleType"
    /// A required key is missing.
    public static let missingKey: Self = "voiceflow.missingKey"
    /// A value is not one of the allowed ones.
    public static let invalidValue: Self = "voiceflow.invalidValue"
    /// A prompt module has nothing to play.
    public static let emptyPrompt: Self = "voiceflow.emptyPrompt"
    /// A run-time failure: a prompt could not be played.
    public static let loadPromptFailure: Self = "voiceflow.loadPromptFailure"
    /// A run-time failure: the engine could not continue in the current module.
    public static let internalFailure: Self = "voiceflow.internalFailure"
    /// The flow moved through too many modules without playing, recording or listening.
    public static let transitionLoop: Self = "voiceflow.transitionLoop"
    /// The call needs a loaded flow, or a running (or paused) one.
    public static let invalidState: Self = "voiceflow.invalidState"
    /// A resource file was not found in any of the places the resource rules allow.
    public static let fileNotFound: Self = "voiceflow.fileNotFound"
    /// A ``ScriptedRecognizer`` was asked for more turns than its script has. (The code keeps the `testing.` prefix
    /// it had when the recognizer lived in the testing module, so scripts and logs that match it still do.)
    public static let scriptExhausted: Self = "testing.scriptExhausted"
}
