// Mirrors: AVFAudio of the iOS 18 SDK (Xcode 16): the scalar types, formats and buffers Parley uses.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources (Apple's documentation, Swift declarations and availability):
// - https://developer.apple.com/documentation/avfaudio/avaudioframecount
// - https://developer.apple.com/documentation/avfaudio/avaudiopacketcount
// - https://developer.apple.com/documentation/avfaudio/avaudiochannelcount
// - https://developer.apple.com/documentation/avfaudio/avaudionodebus
// - https://developer.apple.com/documentation/avfaudio/avaudiocommonformat
// - https://developer.apple.com/documentation/avfaudio/avaudioformat
// - https://developer.apple.com/documentation/avfaudio/avaudiobuffer
// - https://developer.apple.com/documentation/avfaudio/avaudiopcmbuffer
// - https://developer.apple.com/documentation/avfaudio/avaudiotime
//
// Sendability: none of these classes is `Sendable` in the iOS 18 SDK (AVAudioPCMBuffer is not Sendable in any SDK;
// Xcode 26 marks AVAudioFormat `NS_SWIFT_SENDABLE`, see https://github.com/FluidInference/FluidAudio/pull/242 — the
// iOS 18 SDK does not, so code must not rely on it). Classes derive from NSObject as Apple's do.
@_exported import DarwinFoundation

/// `typealias AVAudioFrameCount = UInt32` (iOS 8).
public typealias AVAudioFrameCount = UInt32
/// `typealias AVAudioPacketCount = UInt32` (iOS 8).
public typealias AVAudioPacketCount = UInt32
/// `typealias AVAudioChannelCount = UInt32` (iOS 8).
public typealias AVAudioChannelCount = UInt32
/// `typealias AVAudioNodeBus = Int` (iOS 8).
public typealias AVAudioNodeBus = Int
/// `typealias AVAudioFramePosition = Int64` (iOS 8).
public typealias AVAudioFramePosition = Int64

/// `enum AVAudioCommonFormat : UInt, @unchecked Sendable` (iOS 8): an imported `NS_ENUM`, Sendable as every imported
/// C enum is.
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum AVAudioCommonFormat: UInt, Sendable {
    case otherFormat = 0
    case pcmFormatFloat32 = 1
    case pcmFormatFloat64 = 2
    case pcmFormatInt16 = 3
    case pcmFormatInt32 = 4
}

/// `class AVAudioFormat : NSObject, NSSecureCoding` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioFormat: NSObject {
    /// `init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount,
    /// interleaved: Bool)`.
    public init?(
        commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount,
        interleaved: Bool
    ) { fatalError() }
    /// `init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount)`.
    public init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) { fatalError() }
    /// `init?(settings: [String : Any])`.
    public init?(settings: [String: Any]) { fatalError() }
    /// `var sampleRate: Double { get }`.
    open var sampleRate: Double { fatalError() }
    /// `var channelCount: AVAudioChannelCount { get }`.
    open var channelCount: AVAudioChannelCount { fatalError() }
    /// `var commonFormat: AVAudioCommonFormat { get }`.
    open var commonFormat: AVAudioCommonFormat { fatalError() }
    /// `var isInterleaved: Bool { get }`.
    open var isInterleaved: Bool { fatalError() }
    /// `var settings: [String : Any] { get }`.
    open var settings: [String: Any] { fatalError() }
}

/// `class AVAudioBuffer : NSObject, NSCopying, NSMutableCopying` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioBuffer: NSObject {
    /// `var format: AVAudioFormat { get }`.
    open var format: AVAudioFormat { fatalError() }
}

/// `class AVAudioPCMBuffer : AVAudioBuffer` (iOS 8). Not Sendable.
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioPCMBuffer: AVAudioBuffer {
    /// `init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount)`.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) { fatalError() }
    /// `var frameCapacity: AVAudioFrameCount { get }`.
    open var frameCapacity: AVAudioFrameCount { fatalError() }
    /// `var frameLength: AVAudioFrameCount { get set }`.
    open var frameLength: AVAudioFrameCount {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { get }`.
    open var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { fatalError() }
    /// `var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { get }`.
    open var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { fatalError() }
    /// `var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { get }`.
    open var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { fatalError() }
}

/// `class AVAudioTime : NSObject` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioTime: NSObject {
    /// `var sampleTime: AVAudioFramePosition { get }`.
    open var sampleTime: AVAudioFramePosition { fatalError() }
    /// `var sampleRate: Double { get }`.
    open var sampleRate: Double { fatalError() }
}
