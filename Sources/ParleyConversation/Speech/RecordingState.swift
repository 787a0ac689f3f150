/// Where a conversation's speech input is: what ChatClient's `recordingState` and
/// ``ChatEvent/recordingChanged(_:)`` report.
public enum RecordingState: String, Sendable, Hashable {
    /// Not listening.
    case idle
    /// Asking for the microphone (and recognition) permission.
    case requestingPermission
    /// Capturing audio and recognising it; partial results arrive.
    case recording
    /// The microphone is closed; waiting for the final result.
    case finishing
}
