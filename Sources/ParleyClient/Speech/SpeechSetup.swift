public import ParleySpeech

extension ChatClient {
    /// The speech engines and devices of a ``ChatClient``: where speech is recognised and synthesised, the
    /// microphone, the speaker and who grants permissions. The feature flags (`enableSpeechRecognition`,
    /// `speechLocale`, …) stay in the ``Configuration``.
    ///
    /// ```swift
    /// var speech = ChatClient.SpeechSetup()                  // the chat server's speech endpoints
    /// speech.service = OnDeviceSpeechService(recognizer: AppleStreamingRecognizer())   // or on the device
    /// ```
    public struct SpeechSetup: Sendable {
        /// Where speech is recognised and synthesised; `nil` (the default) uses the chat server's endpoints
        /// (``ServerSpeechService`` at the configured URL).
        public var service: (any SpeechService)?
        /// The microphone. Default: `AudioEngineSource` on Apple platforms, sox's `rec` (`SoxAudioSource`) where
        /// programs run; elsewhere a source that fails with `speech.audioDeviceUnavailable`.
        public var microphone: any AudioSource
        /// Where read-aloud audio is played. Default: `AudioEngineSink` (AVAudioEngine) on Apple platforms, sox's
        /// `play` (`SoxStreamingPlayer`) on Linux; elsewhere a sink that fails with `speech.audioDeviceUnavailable`.
        public var speaker: any AudioSink
        /// Who grants the microphone and recognition. Default ``SystemPermissionSource``.
        public var permissions: any PermissionSource
        /// The app's audio session: activated (play-and-record) before the microphone opens or speech plays, given
        /// back after, and watched for interruptions and route changes, which stop the microphone and read-aloud.
        /// Default: `SystemAudioSession.shared` (`AVAudioSession`) where UIKit is (iOS, iPadOS, tvOS, visionOS, Mac
        /// Catalyst); ``NoAudioSession`` elsewhere. An app that configures `AVAudioSession` itself passes
        /// ``NoAudioSession``.
        public var audioSession: any AudioSessionControl

        /// A setup; every part has the platform's default.
        public init(
            service: (any SpeechService)? = nil, microphone: (any AudioSource)? = nil,
            speaker: (any AudioSink)? = nil, permissions: any PermissionSource = SystemPermissionSource(),
            audioSession: (any AudioSessionControl)? = nil
        ) {
            self.service = service
            self.microphone = microphone ?? Self.defaultMicrophone
            self.speaker = speaker ?? Self.defaultSpeaker
            self.permissions = permissions
            self.audioSession = audioSession ?? Self.defaultAudioSession
        }

        static var defaultMicrophone: any AudioSource {
            #if canImport(AVFoundation)
                AudioEngineSource()
            #elseif canImport(Subprocess)
                SoxAudioSource.microphone()
            #else
                UnavailableAudio()
            #endif
        }

        static var defaultSpeaker: any AudioSink {
            #if canImport(AVFoundation)
                AudioEngineSink()
            #elseif canImport(Subprocess)
                SoxStreamingPlayer()
            #else
                UnavailableAudio()
            #endif
        }

        static var defaultAudioSession: any AudioSessionControl {
            // AVAudioSession exists where UIKit does; a `canImport` guard, so the Linux type-check compiles it.
            #if canImport(UIKit) && canImport(AVFAudio)
                SystemAudioSession.shared
            #else
                NoAudioSession()
            #endif
        }
    }
}

/// A microphone and speaker that are not there.
struct UnavailableAudio: AudioSource, AudioSink {
    func frames() -> SpeechStream<AudioBuffer> {
        .of([], failingWith: ParleyError(.audioDeviceUnavailable, "this platform has no default microphone"))
    }

    func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
        throw ParleyError(
            .audioDeviceUnavailable, "this platform has no default speaker: set SpeechSetup.speaker or a ttsService")
    }
}

/// What a ``ChatClient`` keeps about speech.
struct SpeechState {
    var machine = RecordingStateMachine()
    /// Whether read-aloud is muted; from `initSpeechSynthesisMuted` until the app changes it.
    var muted: Bool?
    /// The microphone's reading, while recording.
    var capture: Task<Void, Never>?
    /// The recognizer's results, while recording.
    var recognition: Task<Void, Never>?
    /// Ends the audio handed to the recognizer.
    var audio: SpeechStream<AudioBuffer>.Continuation?
    /// The built-in reader, made on first use.
    var reader: SpeechReader?
    /// Whether the microphone holds the audio session (``ChatClient/SpeechSetup/audioSession``).
    var holdsRecordingSession = false
    /// The audio session's interruptions and route changes, watched from the first recording or reading.
    var sessionEvents: Task<Void, Never>?
    /// Texts to read aloud, in order.
    var readQueue: AsyncStream<String>.Continuation?
    /// Texts queued and not yet handed to the TTS service, and who waits for them (``ChatClient/finishSpeaking()``).
    var pendingReads = 0
    var readWaiters: [CheckedContinuation<Void, Never>] = []
}
