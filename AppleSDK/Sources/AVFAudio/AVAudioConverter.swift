// Mirrors: AVFAudio of the iOS 18 SDK (Xcode 16): AVAudioConverter and AVAudioFile — with one deliberate exception,
// named below, where a newer SDK is stricter.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/avfaudio/avaudioconverter
// - https://developer.apple.com/documentation/avfaudio/avaudioconverter/init(from:to:)
// - https://developer.apple.com/documentation/avfaudio/avaudioconverter/convert(to:error:withinputfrom:)
// - https://developer.apple.com/documentation/avfaudio/avaudioconverterinputblock
// - https://developer.apple.com/documentation/avfaudio/avaudioconverterinputstatus
// - https://developer.apple.com/documentation/avfaudio/avaudioconverteroutputstatus
// - https://developer.apple.com/documentation/avfaudio/avaudiofile
// - https://developer.apple.com/documentation/avfaudio/avaudiofile/init(forwriting:settings:)
// - https://developer.apple.com/documentation/avfaudio/avaudiofile/write(from:)
//
// The exception: `AVAudioConverterInputBlock` is declared `@Sendable` here. The iOS 18 SDK's typedef has no
// `NS_SWIFT_SENDABLE`; the Xcode 26 SDKs add it (the .NET bindings' AVFAudio diff for Xcode 26 beta 1, quoted in
// https://github.com/FluidInference/FluidAudio/pull/242 and #245, which hit `capture of … in a @Sendable closure`
// errors with it). Apple's documentation page still prints the typealias without attributes. Parley must build with
// both SDKs, and code that compiles against the `@Sendable` block also compiles against the plain one, so the stricter
// declaration is the one checked. (The same Xcode 26 change marks AVAudioConverter, AVAudioFile and AVAudioFormat
// Sendable; that relaxes rules, so the iOS 18 declaration — not Sendable — is kept.)
import DarwinFoundation

/// `enum AVAudioConverterInputStatus : Int, @unchecked Sendable` (iOS 9).
@available(iOS 9.0, macOS 10.11, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum AVAudioConverterInputStatus: Int, Sendable {
    case haveData = 0
    case noDataNow = 1
    case endOfStream = 2
}

/// `enum AVAudioConverterOutputStatus : Int, @unchecked Sendable` (iOS 9).
@available(iOS 9.0, macOS 10.11, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum AVAudioConverterOutputStatus: Int, Sendable {
    case haveData = 0
    case inputRanDry = 1
    case endOfStream = 2
    case error = 3
}

/// `typealias AVAudioConverterInputBlock = (AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>)
/// -> AVAudioBuffer?` — `@Sendable` as the Xcode 26 SDKs declare it (see the file's comment).
public typealias AVAudioConverterInputBlock =
    @Sendable (
        AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>
    ) -> AVAudioBuffer?

/// `class AVAudioConverter : NSObject` (iOS 9).
@available(iOS 9.0, macOS 10.11, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioConverter: NSObject {
    /// `init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat)`.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) { fatalError() }
    /// `var inputFormat: AVAudioFormat { get }`.
    open var inputFormat: AVAudioFormat { fatalError() }
    /// `var outputFormat: AVAudioFormat { get }`.
    open var outputFormat: AVAudioFormat { fatalError() }
    /// `func reset()`.
    open func reset() { fatalError() }
    /// `func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws`.
    open func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws { fatalError() }
    /// `func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer, withInputFrom inputBlock:
    /// AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus`. The block is called synchronously, before
    /// the method returns, hence not `@escaping`.
    open func convert(
        to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
        withInputFrom inputBlock: AVAudioConverterInputBlock
    ) -> AVAudioConverterOutputStatus { fatalError() }
}

/// `class AVAudioFile : NSObject` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioFile: NSObject {
    /// `init(forReading fileURL: URL) throws`.
    public init(forReading fileURL: URL) throws { fatalError() }
    /// `init(forWriting fileURL: URL, settings: [String : Any]) throws`.
    public init(forWriting fileURL: URL, settings: [String: Any]) throws { fatalError() }
    /// `var processingFormat: AVAudioFormat { get }`.
    open var processingFormat: AVAudioFormat { fatalError() }
    /// `var length: AVAudioFramePosition { get }`.
    open var length: AVAudioFramePosition { fatalError() }
    /// `func read(into buffer: AVAudioPCMBuffer) throws`.
    open func read(into buffer: AVAudioPCMBuffer) throws { fatalError() }
    /// `func write(from buffer: AVAudioPCMBuffer) throws`.
    open func write(from buffer: AVAudioPCMBuffer) throws { fatalError() }
}
