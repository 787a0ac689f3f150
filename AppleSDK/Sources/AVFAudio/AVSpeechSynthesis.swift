// Mirrors: AVFAudio of the iOS 18 SDK (Xcode 16): speech synthesis.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesizer
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesizer/write(_:tobuffercallback:)
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesizer/buffercallback
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesizer/stopspeaking(at:)
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesizerdelegate
// - https://developer.apple.com/documentation/avfaudio/avspeechboundary
// - https://developer.apple.com/documentation/avfaudio/avspeechutterance
// - https://developer.apple.com/documentation/avfaudio/avspeechutterance/init(ssmlrepresentation:)
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesisvoice
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesisvoicequality
// - https://developer.apple.com/documentation/avfaudio/avspeechsynthesisvoicegender
//
// `BufferCallback` is a plain block in the iOS 18 SDK (the documentation's typealias carries no `@Sendable`), and
// the synthesizer holds its callback only while the synthesizer itself is alive: the caller must keep the
// synthesizer until the last buffer (frameLength 0) arrives. The delegate protocol's methods are Objective-C
// `optional`: here they are requirements with default implementations in an extension, which is how a Swift
// conformer sees them (it may implement any subset).
import DarwinFoundation

/// `enum AVSpeechBoundary : Int, @unchecked Sendable` (iOS 7).
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum AVSpeechBoundary: Int, Sendable {
    case immediate = 0
    case word = 1
}

/// `enum AVSpeechSynthesisVoiceQuality : Int, @unchecked Sendable` (iOS 9; `premium` iOS 16).
@available(iOS 9.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum AVSpeechSynthesisVoiceQuality: Int, Sendable {
    case `default` = 1
    case enhanced = 2
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    case premium = 3
}

/// `enum AVSpeechSynthesisVoiceGender : Int, @unchecked Sendable` (iOS 13).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public enum AVSpeechSynthesisVoiceGender: Int, Sendable {
    case unspecified = 0
    case male = 1
    case female = 2
}

/// `class AVSpeechSynthesisVoice : NSObject, NSSecureCoding` (iOS 7).
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVSpeechSynthesisVoice: NSObject {
    /// `class func speechVoices() -> [AVSpeechSynthesisVoice]`.
    open class func speechVoices() -> [AVSpeechSynthesisVoice] { fatalError() }
    /// `init?(language languageCode: String?)`.
    public init?(language languageCode: String?) { fatalError() }
    /// `init?(identifier: String)` (iOS 9).
    public init?(identifier: String) { fatalError() }
    /// `var language: String { get }`.
    open var language: String { fatalError() }
    /// `var identifier: String { get }` (iOS 9).
    open var identifier: String { fatalError() }
    /// `var name: String { get }` (iOS 9).
    open var name: String { fatalError() }
    /// `var quality: AVSpeechSynthesisVoiceQuality { get }` (iOS 9).
    open var quality: AVSpeechSynthesisVoiceQuality { fatalError() }
    /// `var gender: AVSpeechSynthesisVoiceGender { get }` (iOS 13).
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open var gender: AVSpeechSynthesisVoiceGender { fatalError() }
    /// `var audioFileSettings: [String : Any] { get }` (iOS 13).
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open var audioFileSettings: [String: Any] { fatalError() }
}

/// `class AVSpeechUtterance : NSObject, NSCopying, NSSecureCoding` (iOS 7).
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVSpeechUtterance: NSObject {
    /// `init(string: String)`.
    public init(string: String) { fatalError() }
    /// `init?(ssmlRepresentation string: String)` (iOS 16).
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    public init?(ssmlRepresentation string: String) { fatalError() }
    /// `var voice: AVSpeechSynthesisVoice? { get set }`.
    open var voice: AVSpeechSynthesisVoice? {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var speechString: String { get }`.
    open var speechString: String { fatalError() }
    /// `var rate: Float { get set }`.
    open var rate: Float {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var volume: Float { get set }`.
    open var volume: Float {
        get { fatalError() }
        set { fatalError() }
    }
}

/// `protocol AVSpeechSynthesizerDelegate : NSObjectProtocol` (iOS 7). Its methods are `optional` in Objective-C.
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public protocol AVSpeechSynthesizerDelegate: NSObjectProtocol {
    /// `optional func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance)`.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance)
    /// `optional func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance)`.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance)
    /// `optional func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance)`.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance)
}

/// Objective-C `optional` requirements: a conformer need not implement them.
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
extension AVSpeechSynthesizerDelegate {
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {}
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) {}
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) {}
}

/// `class AVSpeechSynthesizer : NSObject` (iOS 7).
@available(iOS 7.0, macOS 10.14, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVSpeechSynthesizer: NSObject {
    /// `typealias AVSpeechSynthesizer.BufferCallback = (AVAudioBuffer) -> Void`.
    public typealias BufferCallback = (AVAudioBuffer) -> Void

    /// `init()`.
    public override init() { fatalError() }
    /// `weak var delegate: (any AVSpeechSynthesizerDelegate)? { get set }`.
    open weak var delegate: (any AVSpeechSynthesizerDelegate)?
    /// `var isSpeaking: Bool { get }`.
    open var isSpeaking: Bool { fatalError() }
    /// `var isPaused: Bool { get }`.
    open var isPaused: Bool { fatalError() }
    /// `var usesApplicationAudioSession: Bool { get set }` (iOS 13).
    @available(iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    @available(macOS, unavailable)
    open var usesApplicationAudioSession: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// `func speak(_ utterance: AVSpeechUtterance)`.
    open func speak(_ utterance: AVSpeechUtterance) { fatalError() }
    /// `func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool`.
    @discardableResult
    open func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool { fatalError() }
    /// `func pauseSpeaking(at boundary: AVSpeechBoundary) -> Bool`.
    @discardableResult
    open func pauseSpeaking(at boundary: AVSpeechBoundary) -> Bool { fatalError() }
    /// `func continueSpeaking() -> Bool`.
    @discardableResult
    open func continueSpeaking() -> Bool { fatalError() }
    /// `func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping
    /// AVSpeechSynthesizer.BufferCallback)` (iOS 13).
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        fatalError()
    }
}
