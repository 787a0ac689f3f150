// AVAudioSession: the app's audio session on iOS, iPadOS, tvOS, visionOS and Mac Catalyst — where UIKit is (macOS has
// no AVAudioSession). A `canImport` guard rather than `os(iOS)`, so the Linux type-check (AppleSDK/) compiles it.
// Thin: when to activate is decided by AudioSessionUsage, what an event stops by AudioSessionEvent.response, both
// tested on Linux; this file only talks to AVAudioSession and decodes its notifications.
#if canImport(UIKit) && canImport(AVFAudio)
    import AVFAudio
    import Foundation
    public import ParleyCore

    /// The app's `AVAudioSession`, shared by the microphone and read-aloud: category `.playAndRecord` (mode
    /// `.default`; output to the loudspeaker, not the receiver; Bluetooth headsets for input and output), activated
    /// before the first user and given back after the last (`setActive(false, options: .notifyOthersOnDeactivation)`,
    /// so music another app was playing resumes).
    ///
    /// Its ``events()`` are the session's interruptions, route changes and media-services resets, decoded into
    /// ``AudioSessionEvent``s; ``ChatClient`` stops the microphone and read-aloud as ``AudioSessionEvent/response``
    /// says. An app that configures `AVAudioSession` itself passes ``NoAudioSession`` instead.
    public actor SystemAudioSession: AudioSessionControl {
        /// The session Parley uses (one per process, as `AVAudioSession` is).
        public static let shared = SystemAudioSession()

        private var usage = AudioSessionUsage()

        private init() {}

        /// Activates the session (play-and-record) if nobody else uses it.
        /// - Throws: `speech.audioDeviceUnavailable` with `AVAudioSession`'s error.
        public func begin(_ use: AudioSessionUsage.Use) async throws(ParleyError) {
            for action in usage.begin(use) {
                do {
                    try perform(action)
                } catch {
                    usage.activationFailed(for: use)
                    throw ParleyError(
                        .audioDeviceUnavailable, "AVAudioSession did not activate: \(error)", underlying: error)
                }
            }
        }

        /// Gives the session back when nobody uses it any more (a failure to deactivate is not the caller's: the
        /// system deactivates an app's session anyway when it needs it).
        public func end(_ use: AudioSessionUsage.Use) async {
            for action in usage.end(use) { try? perform(action) }
        }

        /// The session's interruptions, route changes and resets from now on.
        public nonisolated func events() -> AsyncStream<AudioSessionEvent> {
            let (events, sink) = AsyncStream.makeStream(of: AudioSessionEvent.self)
            let names = [
                AVAudioSession.interruptionNotification, AVAudioSession.routeChangeNotification,
                AVAudioSession.mediaServicesWereResetNotification,
            ]
            let observers = names.map { name in
                // Notifications are not Sendable: each is decoded where it is received, in this task.
                Task {
                    for await notification in NotificationCenter.default.notifications(named: name) {
                        guard let event = Self.event(notification) else { continue }
                        await self.handle(event)
                        sink.yield(event)
                    }
                }
            }
            sink.onTermination = { _ in observers.forEach { $0.cancel() } }
            return events
        }

        private func handle(_ event: AudioSessionEvent) {
            usage.handle(event)
        }

        private func perform(_ action: AudioSessionUsage.Action) throws {
            let session = AVAudioSession.sharedInstance()
            switch action {
            case .activate:
                try session.setCategory(
                    .playAndRecord, mode: .default, options: [.defaultToSpeaker, .allowBluetooth, .allowBluetoothA2DP])
                try session.setActive(true)
            case .deactivate:
                try session.setActive(false, options: .notifyOthersOnDeactivation)
            }
        }

        /// `notification`'s event, from the numbers in its `userInfo`.
        static func event(_ notification: Notification) -> AudioSessionEvent? {
            let info = notification.userInfo
            switch notification.name {
            case AVAudioSession.interruptionNotification:
                guard let type = info?[AVAudioSessionInterruptionTypeKey] as? UInt else { return nil }
                return AudioSessionEvent(
                    interruptionType: type, options: info?[AVAudioSessionInterruptionOptionKey] as? UInt)
            case AVAudioSession.routeChangeNotification:
                return AudioSessionEvent(routeChangeReason: info?[AVAudioSessionRouteChangeReasonKey] as? UInt ?? 0)
            case AVAudioSession.mediaServicesWereResetNotification:
                return .mediaServicesReset
            default:
                return nil
            }
        }
    }
#endif
