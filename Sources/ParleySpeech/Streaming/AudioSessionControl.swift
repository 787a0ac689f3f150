public import ParleyCore

/// The app's audio session: what the platform must be told before the microphone opens or speech is played, and
/// given back after, and what it reports meanwhile (interruptions, route changes).
///
/// Parley ships `SystemAudioSession` (`AVAudioSession`, on iOS, iPadOS, tvOS, visionOS and Mac Catalyst) and
/// ``NoAudioSession`` (Linux and macOS, which have no per-app audio session; also for apps that manage
/// `AVAudioSession` themselves). The decisions are made by values tested on every platform: ``AudioSessionUsage``
/// (when to activate and deactivate) and ``AudioSessionEvent/response`` (what an interruption stops).
public protocol AudioSessionControl: Sendable {
    /// Called before `use` starts: activates the session if nobody else uses it.
    /// - Throws: `speech.audioDeviceUnavailable` when the platform refuses (another app holds the session, say).
    func begin(_ use: AudioSessionUsage.Use) async throws(ParleyError)
    /// Called when `use` ends: the session is given back (other apps' audio resumes) when nobody uses it any more.
    func end(_ use: AudioSessionUsage.Use) async
    /// The session's interruptions and route changes from now on, until the iteration stops.
    func events() -> AsyncStream<AudioSessionEvent>
}

/// An audio session that is not there (Linux, macOS) or not Parley's to manage: every call does nothing and no event
/// ever comes.
public struct NoAudioSession: AudioSessionControl {
    /// Creates the stand-in.
    public init() {}

    /// Does nothing.
    public func begin(_ use: AudioSessionUsage.Use) async throws(ParleyError) {}

    /// Does nothing.
    public func end(_ use: AudioSessionUsage.Use) async {}

    /// A stream that ends at once.
    public func events() -> AsyncStream<AudioSessionEvent> {
        AsyncStream { $0.finish() }
    }
}

/// Who is using the audio session, and when the platform's session must be activated or given back: a value machine,
/// events in, actions out.
///
/// The microphone and read-aloud share one session (category play-and-record, so speech can play while the user is
/// about to talk): the first user activates it, the last one out deactivates it, telling other apps they may resume
/// (`notifyOthersOnDeactivation`). An interruption or a media-services reset deactivates it behind the app's back;
/// the next user activates it again.
public struct AudioSessionUsage: Sendable, Hashable {
    /// What the session is used for.
    public enum Use: String, Sendable, Hashable, CaseIterable {
        /// The microphone is open.
        case recording
        /// Speech is being played.
        case playback
    }

    /// What the platform must be told.
    public enum Action: Sendable, Hashable {
        /// Configure the session (play-and-record) and activate it.
        case activate
        /// Deactivate the session, notifying other apps.
        case deactivate
    }

    /// The users now, by use (a use can have several: two texts read at once, say).
    public private(set) var users: [Use: Int] = [:]
    /// Whether Parley believes the platform's session is active.
    public private(set) var isActive = false

    /// An idle session.
    public init() {}

    /// `use` starts.
    public mutating func begin(_ use: Use) -> [Action] {
        users[use, default: 0] += 1
        guard !isActive else { return [] }
        isActive = true
        return [.activate]
    }

    /// `use` ends (an end without a begin is ignored).
    public mutating func end(_ use: Use) -> [Action] {
        guard let count = users[use], count > 0 else { return [] }
        users[use] = count == 1 ? nil : count - 1
        guard users.isEmpty, isActive else { return [] }
        isActive = false
        return [.deactivate]
    }

    /// Activation failed: the session is not active, and the use that asked does not count.
    public mutating func activationFailed(for use: Use) {
        isActive = false
        if let count = users[use] { users[use] = count <= 1 ? nil : count - 1 }
    }

    /// The platform reported `event`: an interruption or a reset has deactivated the session.
    public mutating func handle(_ event: AudioSessionEvent) {
        switch event {
        case .interruptionBegan, .mediaServicesReset: isActive = false
        case .interruptionEnded, .routeChanged: break
        }
    }
}

/// What the platform's audio session reported, decoded from the raw numbers of its notifications (Apple's
/// `AVAudioSession.interruptionNotification`, `routeChangeNotification` and `mediaServicesWereResetNotification`).
public enum AudioSessionEvent: Sendable, Hashable {
    /// Another app or the system (a call, an alarm) took the audio: the session is no longer active.
    case interruptionBegan
    /// The interruption is over; `shouldResume` is the system's hint that playback may resume.
    case interruptionEnded(shouldResume: Bool)
    /// The audio route changed (headphones plugged in or out, a Bluetooth device, …).
    case routeChanged(RouteChangeReason)
    /// The media server restarted: every audio object is invalid and the session must be set up again.
    case mediaServicesReset

    /// Why the route changed: `AVAudioSession.RouteChangeReason`'s raw values.
    public enum RouteChangeReason: UInt, Sendable, Hashable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// An interruption from its `AVAudioSessionInterruptionTypeKey` (`1` began, `0` ended) and
    /// `AVAudioSessionInterruptionOptionKey` (bit 0: should resume) values; `nil` for a type Parley does not know.
    public init?(interruptionType: UInt, options: UInt?) {
        switch interruptionType {
        case 1: self = .interruptionBegan
        case 0: self = .interruptionEnded(shouldResume: (options ?? 0) & 1 == 1)
        default: return nil
        }
    }

    /// A route change from its `AVAudioSessionRouteChangeReasonKey` value (an unknown value is `unknown`).
    public init(routeChangeReason: UInt) {
        self = .routeChanged(RouteChangeReason(rawValue: routeChangeReason) ?? .unknown)
    }

    /// What the app stops when this happens.
    ///
    /// An interruption (a phone call) and a media-services reset stop both: the microphone's audio and the speech
    /// being read are gone. Losing the device in use (headphones pulled out, `oldDeviceUnavailable`) or any route
    /// for the category stops both as well, as Apple's guidelines ask of playback, so speech does not suddenly come
    /// out of the loudspeaker and the recognizer does not keep a dead input. The end of an interruption resumes
    /// nothing: the user taps the microphone again; a half-read message is not read again.
    public var response: AudioSessionResponse {
        switch self {
        case .interruptionBegan, .mediaServicesReset: [.stopListening, .stopSpeaking]
        case .routeChanged(.oldDeviceUnavailable), .routeChanged(.noSuitableRouteForCategory):
            [.stopListening, .stopSpeaking]
        case .interruptionEnded, .routeChanged: []
        }
    }
}

/// What the app stops in answer to an ``AudioSessionEvent``.
public struct AudioSessionResponse: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: Int
    /// Creates a response from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Stop the microphone (the recognizer's result for what was said so far follows).
    public static let stopListening = Self(rawValue: 1 << 0)
    /// Stop reading aloud and forget what was queued.
    public static let stopSpeaking = Self(rawValue: 1 << 1)
}
