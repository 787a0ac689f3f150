/// The recording lifecycle as a value: the client feeds it events and performs the actions it returns, so the
/// order of things is tested without a microphone (`idle → requestingPermission → recording → finishing → idle`).
///
/// Every attempt has a number; an event from an attempt that is over (a permission answer that comes after the
/// user gave up, a recognizer that ends after a new recording started) is ignored.
struct RecordingStateMachine: Sendable, Hashable {
    enum Event: Sendable, Hashable {
        /// ``ChatClient/startRecording()``.
        case start
        /// The permissions were granted for `attempt`.
        case permissionGranted(attempt: Int)
        /// A permission was denied for `attempt`.
        case permissionDenied(attempt: Int)
        /// ``ChatClient/stopRecording()``.
        case stop
        /// The microphone ran dry (a file source ended, or the device closed) for `attempt`.
        case audioEnded(attempt: Int)
        /// The recognizer reported its terminal result (or failed) for `attempt`.
        case recognitionEnded(attempt: Int)
        /// The client is going away (``ChatClient/destroy()``, a new configuration).
        case cancel
    }

    enum Action: Sendable, Hashable {
        /// Ask for the permissions, then report the answer for `attempt`.
        case requestPermission(attempt: Int)
        /// Open the microphone and start recognising for `attempt`.
        case startCapture(attempt: Int)
        /// Close the microphone and tell the recognizer the audio ended (Oracle's `Done`).
        case finishAudio
        /// Stop everything without waiting for a result.
        case cancelCapture
        /// Report the new state.
        case report(RecordingState)
    }

    /// What an event did.
    enum Transition: Sendable, Hashable {
        /// The actions to perform, in order.
        case perform([Action])
        /// The event does not apply now (an old attempt, or stopping while idle): nothing to do.
        case ignored
        /// The event cannot happen now: the caller gets an error.
        case refused(ParleyError)
    }

    private(set) var state = RecordingState.idle
    /// The current (or last) attempt's number.
    private(set) var attempt = 0

    mutating func handle(_ event: Event) -> Transition {
        switch (state, event) {
        case (.idle, .start):
            attempt += 1
            return move(to: .requestingPermission, [.requestPermission(attempt: attempt)])
        case (_, .start):
            return .refused(
                ParleyError(.speechAlreadyRecording, "speech input is \(state.rawValue); stop it before starting again")
            )
        case (.requestingPermission, .permissionGranted(let number)) where number == attempt:
            return move(to: .recording, [.startCapture(attempt: attempt)])
        case (.requestingPermission, .permissionDenied(let number)) where number == attempt:
            return move(to: .idle, [])
        case (.requestingPermission, .stop), (.requestingPermission, .cancel):
            return move(to: .idle, [])
        case (.recording, .stop), (.recording, .audioEnded(attempt)):
            return move(to: .finishing, [.finishAudio])
        case (.recording, .recognitionEnded(attempt)), (.finishing, .recognitionEnded(attempt)):
            return move(to: .idle, [.cancelCapture])
        case (.recording, .cancel), (.finishing, .cancel):
            return move(to: .idle, [.cancelCapture])
        case (.idle, .stop), (.idle, .cancel), (.finishing, .stop), (.finishing, .audioEnded):
            return .ignored
        case (_, .permissionGranted), (_, .permissionDenied), (_, .audioEnded), (_, .recognitionEnded):
            // An answer or an end from another attempt, or one that cannot come in this state.
            return .ignored
        }
    }

    private mutating func move(to next: RecordingState, _ actions: [Action]) -> Transition {
        state = next
        return .perform(actions + [.report(next)])
    }
}
