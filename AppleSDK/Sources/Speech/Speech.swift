// Mirrors: Speech of the iOS 18 SDK (Xcode 16): SFSpeechRecognizer and its requests, tasks and results.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer/init(locale:)
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer/supportedlocales()
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer/authorizationstatus()
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer/requestauthorization(_:)
// - https://developer.apple.com/documentation/speech/sfspeechrecognizer/recognitiontask(with:resulthandler:)
// - https://developer.apple.com/documentation/speech/sfspeechrecognizerauthorizationstatus
// - https://developer.apple.com/documentation/speech/sfspeechrecognitionrequest
// - https://developer.apple.com/documentation/speech/sfspeechurlrecognitionrequest
// - https://developer.apple.com/documentation/speech/sfspeechaudiobufferrecognitionrequest
// - https://developer.apple.com/documentation/speech/sfspeechrecognitiontask
// - https://developer.apple.com/documentation/speech/sfspeechrecognitionresult
// - https://developer.apple.com/documentation/speech/sftranscription
// - https://developer.apple.com/documentation/speech/sftranscriptionsegment
//
// Isolation: `requestAuthorization(_:)` and `recognitionTask(with:resultHandler:)` take plain blocks in the iOS 18
// SDK (the documentation shows no `@Sendable`; it says the handler is not called on the main queue). A plain block
// formed in a main-actor context inherits that isolation and traps when called elsewhere — a runtime matter the
// type-check cannot see; Parley's handlers are formed in non-isolated code.
@_exported import AVFoundation

/// `enum SFSpeechRecognizerAuthorizationStatus : Int, @unchecked Sendable` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
public enum SFSpeechRecognizerAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case restricted = 2
    case authorized = 3
}

/// `class SFSpeechRecognitionRequest : NSObject` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechRecognitionRequest: NSObject {
    /// `var shouldReportPartialResults: Bool { get set }`.
    open var shouldReportPartialResults: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var contextualStrings: [String] { get set }`.
    open var contextualStrings: [String] {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var requiresOnDeviceRecognition: Bool { get set }` (iOS 13).
    @available(iOS 13.0, macOS 10.15, *)
    open var requiresOnDeviceRecognition: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var addsPunctuation: Bool { get set }` (iOS 16).
    @available(iOS 16.0, macOS 13.0, *)
    open var addsPunctuation: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

/// `class SFSpeechURLRecognitionRequest : SFSpeechRecognitionRequest` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechURLRecognitionRequest: SFSpeechRecognitionRequest {
    /// `init(url URL: URL)`.
    public init(url URL: URL) { fatalError() }
    /// `var url: URL { get }`.
    open var url: URL { fatalError() }
}

/// `class SFSpeechAudioBufferRecognitionRequest : SFSpeechRecognitionRequest` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechAudioBufferRecognitionRequest: SFSpeechRecognitionRequest {
    /// `override init()`.
    public override init() { fatalError() }
    /// `var nativeAudioFormat: AVAudioFormat { get }`.
    open var nativeAudioFormat: AVAudioFormat { fatalError() }
    /// `func append(_ audioPCMBuffer: AVAudioPCMBuffer)`.
    open func append(_ audioPCMBuffer: AVAudioPCMBuffer) { fatalError() }
    /// `func endAudio()`.
    open func endAudio() { fatalError() }
}

/// `class SFTranscriptionSegment : NSObject, NSCopying, NSSecureCoding` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFTranscriptionSegment: NSObject {
    /// `var substring: String { get }`.
    open var substring: String { fatalError() }
    /// `var substringRange: NSRange { get }`.
    open var substringRange: NSRange { fatalError() }
    /// `var timestamp: TimeInterval { get }`.
    open var timestamp: TimeInterval { fatalError() }
    /// `var duration: TimeInterval { get }`.
    open var duration: TimeInterval { fatalError() }
    /// `var confidence: Float { get }`.
    open var confidence: Float { fatalError() }
    /// `var alternativeSubstrings: [String] { get }`.
    open var alternativeSubstrings: [String] { fatalError() }
}

/// `class SFTranscription : NSObject, NSCopying, NSSecureCoding` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFTranscription: NSObject {
    /// `var formattedString: String { get }`.
    open var formattedString: String { fatalError() }
    /// `var segments: [SFTranscriptionSegment] { get }`.
    open var segments: [SFTranscriptionSegment] { fatalError() }
}

/// `class SFSpeechRecognitionResult : NSObject, NSCopying, NSSecureCoding` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechRecognitionResult: NSObject {
    /// `var bestTranscription: SFTranscription { get }`.
    open var bestTranscription: SFTranscription { fatalError() }
    /// `var transcriptions: [SFTranscription] { get }`.
    open var transcriptions: [SFTranscription] { fatalError() }
    /// `var isFinal: Bool { get }`.
    open var isFinal: Bool { fatalError() }
}

/// `enum SFSpeechRecognitionTaskState : Int, @unchecked Sendable` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
public enum SFSpeechRecognitionTaskState: Int, Sendable {
    case starting = 0
    case running = 1
    case finishing = 2
    case canceling = 3
    case completed = 4
}

/// `class SFSpeechRecognitionTask : NSObject` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechRecognitionTask: NSObject {
    /// `var state: SFSpeechRecognitionTaskState { get }`.
    open var state: SFSpeechRecognitionTaskState { fatalError() }
    /// `var isCancelled: Bool { get }`.
    open var isCancelled: Bool { fatalError() }
    /// `var error: (any Error)? { get }`.
    open var error: (any Error)? { fatalError() }
    /// `func finish()`.
    open func finish() { fatalError() }
    /// `func cancel()`.
    open func cancel() { fatalError() }
}

/// `class SFSpeechRecognizer : NSObject` (iOS 10).
@available(iOS 10.0, macOS 10.15, visionOS 1.0, *)
open class SFSpeechRecognizer: NSObject {
    /// `class func supportedLocales() -> Set<Locale>`.
    open class func supportedLocales() -> Set<Locale> { fatalError() }
    /// `class func authorizationStatus() -> SFSpeechRecognizerAuthorizationStatus`.
    open class func authorizationStatus() -> SFSpeechRecognizerAuthorizationStatus { fatalError() }
    /// `class func requestAuthorization(_ handler: @escaping (SFSpeechRecognizerAuthorizationStatus) -> Void)`.
    open class func requestAuthorization(_ handler: @escaping (SFSpeechRecognizerAuthorizationStatus) -> Void) {
        fatalError()
    }
    /// `init?(locale: Locale)`.
    public init?(locale: Locale) { fatalError() }
    /// `var isAvailable: Bool { get }`.
    open var isAvailable: Bool { fatalError() }
    /// `var locale: Locale { get }`.
    open var locale: Locale { fatalError() }
    /// `var supportsOnDeviceRecognition: Bool { get set }` (iOS 13).
    @available(iOS 13.0, macOS 10.15, *)
    open var supportsOnDeviceRecognition: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// `func recognitionTask(with request: SFSpeechRecognitionRequest, resultHandler: @escaping
    /// (SFSpeechRecognitionResult?, (any Error)?) -> Void) -> SFSpeechRecognitionTask`.
    open func recognitionTask(
        with request: SFSpeechRecognitionRequest,
        resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void
    ) -> SFSpeechRecognitionTask { fatalError() }
}
