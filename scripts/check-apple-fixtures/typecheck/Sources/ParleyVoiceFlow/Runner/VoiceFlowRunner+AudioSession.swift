import Foundation
import Logging
public import ParleyCore
import ParleySpeech

// The fixture of the type-check's self-test: this file as it would be without its own `import AVFAudio` (as the one-file
// runner was before issue 32: AudioSession.swift's import does not count here).

// The audio session: configuring it, and its interruptions (routed from `AVAudioSession` on iOS-family platforms).
extension VoiceFlowRunner {
    // MARK: Audio session

    /// Configures the audio session with the reference's defaults (`initializeDefaultAudioSession`): allow
    /// Bluetooth, duck others, default to the device speaker, voice-chat mode. See
    /// ``initializeAudioSession(_:)``.
    @discardableResult
    public func initializeDefaultAudioSession() -> AudioSessionReport {
        initializeAudioSession(.standard)
    }

    /// Configures the audio session (`initializeAudioSession`): `AVAudioSession` on iOS-family platforms, where an
    /// interruption of the session is then routed to ``audioInterruptionBegan()`` and
    /// ``audioInterruptionEnded()``; elsewhere the configuration is only recorded (``audioSession``).
    @discardableResult
    public func initializeAudioSession(_ configuration: AudioSessionConfiguration) -> AudioSessionReport {
        let report = configuration.apply()
        if !report.applied { log(.info, "AudioSession", "audio session not applied: \(report.note ?? "")") }
        #if canImport(UIKit) && canImport(AVFAudio)
            if report.applied { observeInterruptions() }
        #endif
        audioSession = report
        return report
    }

    /// Configures the audio session from the reference's JSON (`initializeAudioSession(jsonData:)`).
    /// - Throws: the parse errors of ``AudioSessionConfiguration/init(parsing:)``.
    @discardableResult
    public func initializeAudioSession(json: String) throws(ParleyError) -> AudioSessionReport {
        let configuration = try record { () throws(ParleyError) in try AudioSessionConfiguration(parsing: json) }
        return initializeAudioSession(configuration)
    }

    /// Configures the audio session from a JSON file (`initializeAudioSession(localFileURL:)`; a relative name is
    /// resolved in the `FC_VOICEFLOW` folder).
    @discardableResult
    public func initializeAudioSession(file: String) throws(ParleyError) -> AudioSessionReport {
        try initializeAudioSession(json: try readResource(file, .voiceFlow))
    }

    #if canImport(UIKit) && canImport(AVFAudio)
        func observeInterruptions() {
            guard interruptionObserver == nil else { return }
            interruptionObserver = NotificationCenter.default.addObserver(
                forName: AVAudioSession.interruptionNotification, object: nil, queue: nil
            ) { [weak self] notification in
                // Decoded here (a Notification is not Sendable); what it means is AudioSessionEvent's, tested on Linux.
                guard let type = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
                    let event = AudioSessionEvent(
                        interruptionType: type,
                        options: notification.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt)
                else { return }
                Task { [weak self] in
                    if event == .interruptionBegan {
                        try? await self?.audioInterruptionBegan()
                    } else {
                        try? await self?.audioInterruptionEnded()
                    }
                }
            }
        }
    #endif

    /// The platform's audio session was interrupted (`AVAudioSession.interruptionNotification` `.began`, routed
    /// here by ``initializeAudioSession(_:)``; call it yourself elsewhere, or to test a flow's
    /// `audioInterruptTransitionParams`). Media in progress is cancelled (its `NME_STOPPED` is delivered), then
    /// `MediaEvent(id, id, NMF_AUDIO_SESSION, NME_INTERRUPTION_BEGAN)`; the flow waits for
    /// ``audioInterruptionEnded()``.
    public func audioInterruptionBegan() throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        interruptionPending = true
        interruptionEndPending = false
        cancelMedia?()
        resumeWaiter?.resume()
        resumeWaiter = nil
    }

    /// The audio-session interruption ended: the module's `audioInterruptTransitionParams` (or the flow-wide
    /// ones of a `process` module) say how the flow goes on — `resume` (a prompt plays again from where it stopped,
    /// less `rewindCurrentAudioSegmentMs`; listening and recording start again), `repeat` (the module runs again),
    /// `goto` (`goToVoiceFlowModuleID`, default `VF_END`) or `end` (the default: ``run()`` returns
    /// ``FinishReason/interrupted``).
    public func audioInterruptionEnded() throws(ParleyError) {
        guard engine != nil else { throw recorded(ParleyError(.invalidState, "no voice flow is running")) }
        if let interruptionWaiter {
            self.interruptionWaiter = nil
            interruptionWaiter.resume()
        } else if interruptionPending || engine?.isInterrupted == true {
            interruptionEndPending = true
        } else {
            throw recorded(ParleyError(.invalidState, "the audio session is not interrupted"))
        }
    }
}
