/// What came of something the user did. Views can ignore it (a failure is also shown as ``ChatViewModel/alert``,
/// or by the form field or upload row it concerns); tests and apps that log read it.
public enum IntentOutcome: Sendable, Hashable {
    /// The client did it (a message was queued, the language changed…).
    case done
    /// Nothing to do: an empty text, a disabled action, a hook that dropped the message, a cancelled prompt, a
    /// location the user did not give.
    case ignored
    /// It failed; the error says why.
    case failed(ParleyError)
}
