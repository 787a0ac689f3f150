public import ParleyCore

/// Receives a running flow's callbacks, the reference API's `STVoiceFlowCallback` shape. Every method has a default
/// that does nothing.
///
/// The runner awaits each method before it continues, so a delegate can set runtime fields, set the user intent,
/// load listener prompts or reject a hypothesis, and the flow sees the change at once:
///
/// ```swift
/// struct App: VoiceFlowDelegate {
///     func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool {
///         if data.hypothesis == "go to sleep" { await runner.setUserIntent("TransitionToSleepMode") }
///         return false   // true = srClientRejectedHypothesis
///     }
/// }
/// ```
public protocol VoiceFlowDelegate: Sendable {
    /// `STVFC_PreModuleStart`.
    func preModuleStart(_ runner: VoiceFlowRunner, moduleID: String) async
    /// `STVFC_PreModuleEnd`.
    func preModuleEnd(_ runner: VoiceFlowRunner, moduleID: String) async
    /// `STVFC_SRHypothesis`. Return `true` to reject the hypothesis (`srClientRejectedHypothesis`); only complete
    /// hypotheses can be rejected.
    func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool
    /// `STVFC_MediaEvent`.
    func mediaEvent(
        _ runner: VoiceFlowRunner, moduleID: String, mediaItemID: String, function: MediaFunction, event: MediaEvent,
        data: JSONObject) async
    /// `STVFC_PlayAudioSegmentData`.
    func playAudioSegmentData(
        _ runner: VoiceFlowRunner, moduleID: String, promptID: String, segmentType: AudioSegmentType,
        audioFile: String?, textString: String?, textFile: String?) async
    /// `STVFC_PermissionEvent`.
    func permissionEvent(_ runner: VoiceFlowRunner, event: MediaEvent) async
}

extension VoiceFlowDelegate {
    /// Does nothing.
    public func preModuleStart(_ runner: VoiceFlowRunner, moduleID: String) async {}
    /// Does nothing.
    public func preModuleEnd(_ runner: VoiceFlowRunner, moduleID: String) async {}
    /// Accepts the hypothesis.
    public func srHypothesis(_ runner: VoiceFlowRunner, moduleID: String, data: SRData) async -> Bool { false }
    /// Does nothing.
    public func mediaEvent(
        _ runner: VoiceFlowRunner, moduleID: String, mediaItemID: String, function: MediaFunction, event: MediaEvent,
        data: JSONObject
    ) async {}
    /// Does nothing.
    public func playAudioSegmentData(
        _ runner: VoiceFlowRunner, moduleID: String, promptID: String, segmentType: AudioSegmentType,
        audioFile: String?, textString: String?, textFile: String?
    ) async {}
    /// Does nothing.
    public func permissionEvent(_ runner: VoiceFlowRunner, event: MediaEvent) async {}
}
