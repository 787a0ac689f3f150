public import ParleyCore

/// A callback of a running voice flow, named and shaped as the reference API's `STVFC_…` callbacks.
///
/// The runner delivers them in order, one at a time, to its ``VoiceFlowRunner/events`` stream and to its
/// delegate. See `docs/voiceflow.md` for the exact order around each module type.
public enum VoiceFlowEvent: Sendable, Hashable, CustomStringConvertible {
    /// `STVFC_PreModuleStart`: the module is about to run. Set runtime fields it reads now.
    case preModuleStart(moduleID: String)
    /// `STVFC_PreModuleEnd`: the module finished and the flow is about to leave it.
    case preModuleEnd(moduleID: String)
    /// `STVFC_SRHypothesis`: the recognizer heard something.
    indirect case srHypothesis(moduleID: String, data: SRData)
    /// `STVFC_MediaEvent`: playback, recording or recognition started, ended, stopped, failed or timed out.
    indirect case mediaEvent(
        moduleID: String, mediaItemID: String, function: MediaFunction, event: MediaEvent, data: JSONObject)
    /// `STVFC_PlayAudioSegmentData`: what the next segment plays.
    indirect case playAudioSegmentData(
        moduleID: String, promptID: String, segmentType: AudioSegmentType, audioFile: String?, textString: String?,
        textFile: String?)
    /// `STVFC_PermissionEvent`.
    case permissionEvent(MediaEvent)

    /// The module the event is about (`nil` for permission events).
    public var moduleID: String? {
        switch self {
        case .preModuleStart(let id), .preModuleEnd(let id), .srHypothesis(let id, _): id
        case .mediaEvent(let id, _, _, _, _), .playAudioSegmentData(let id, _, _, _, _, _): id
        case .permissionEvent: nil
        }
    }

    /// A one-line transcript form, such as `MediaEvent(M, P, NMF_PLAY_AUDIO_SEGMENT, NME_ENDED)`.
    public var description: String {
        switch self {
        case .preModuleStart(let id): return "PreModuleStart(\(id))"
        case .preModuleEnd(let id): return "PreModuleEnd(\(id))"
        case .srHypothesis(let id, let data):
            return "SRHypothesis(\(id), \(data.hypothesisType.rawValue): \"\(data.hypothesis)\")"
        case .mediaEvent(let id, let item, let function, let event, let data):
            let extra = data.isEmpty ? "" : ", \(JSONValue.object(data).description)"
            return "MediaEvent(\(id), \(item), \(function), \(event)\(extra))"
        case .playAudioSegmentData(let id, let prompt, let type, let audio, let text, let file):
            var parts = ["\(id)", prompt, type.rawValue]
            if let audio { parts.append("audioFile: \(audio)") }
            if let text { parts.append("text: \"\(text)\"") }
            if let file { parts.append("textFile: \(file)") }
            return "PlayAudioSegmentData(\(parts.joined(separator: ", ")))"
        case .permissionEvent(let event): return "PermissionEvent(\(event))"
        }
    }
}

/// `STSRData`: a recognition hypothesis.
public struct SRData: Sendable, Hashable {
    /// Partial (the recognizer may still change its mind) or complete.
    public enum HypothesisType: String, Sendable, Hashable {
        /// An interim hypothesis.
        case partial
        /// The final hypothesis of the utterance.
        case complete
    }

    /// The engine, such as `pocketSphinx`.
    public var engine: String
    /// The recognised text.
    public var hypothesis: String
    /// Partial or complete.
    public var hypothesisType: HypothesisType

    /// Creates hypothesis data.
    public init(engine: String, hypothesis: String, hypothesisType: HypothesisType) {
        self.engine = engine
        self.hypothesis = hypothesis
        self.hypothesisType = hypothesisType
    }
}

/// How a run ended.
public enum FinishReason: Sendable, Hashable {
    /// The flow left `VF_END` (or reached an empty `goTo` target).
    case completed
    /// The application called `stop`.
    case stopped
    /// The engine could not continue; ``VoiceFlowRunner/lastError`` has the same error.
    case failed(ParleyError)
    /// An audio-session interruption ended the flow (`audioInterruptTransitionParams.transitionType` `end`, the
    /// default).
    case interrupted
}
