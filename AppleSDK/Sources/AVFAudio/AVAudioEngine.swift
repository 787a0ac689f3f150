// Mirrors: AVFAudio of the iOS 18 SDK (Xcode 16): the engine, its nodes and taps.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/avfaudio/avaudioengine
// - https://developer.apple.com/documentation/avfaudio/avaudioengine/start()
// - https://developer.apple.com/documentation/avfaudio/avaudioengine/connect(_:to:format:)
// - https://developer.apple.com/documentation/avfaudio/avaudionode
// - https://developer.apple.com/documentation/avfaudio/avaudionode/installtap(onbus:buffersize:format:block:)
// - https://developer.apple.com/documentation/avfaudio/avaudionodetapblock
// - https://developer.apple.com/documentation/avfaudio/avaudioinputnode
// - https://developer.apple.com/documentation/avfaudio/avaudiooutputnode
// - https://developer.apple.com/documentation/avfaudio/avaudiomixernode
// - https://developer.apple.com/documentation/avfaudio/avaudioplayernode
// - https://developer.apple.com/documentation/avfaudio/avaudioplayernode/
//   schedulebuffer(_:completioncallbacktype:completionhandler:)
// - https://developer.apple.com/documentation/avfaudio/avaudioplayernodecompletioncallbacktype
//
// Isolation as the SDK declares it: the tap block (`AVAudioNodeTapBlock`) is a plain block, not `@Sendable` (the
// documentation's typealias has no attribute; Apple added a separate `installAudioTap(…tapProvider: @Sendable …)`
// only in the 2026 SDKs because this one is not); the player node's completion handlers are `@Sendable` (the
// documentation shows `@Sendable` on `scheduleBuffer(_:completionCallbackType:completionHandler:)`).
import DarwinFoundation

/// `typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void`.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

/// `typealias AVAudioNodeCompletionHandler = @Sendable () -> Void` (the handler is `NS_SWIFT_SENDABLE`: the
/// documentation of `scheduleBuffer(_:at:options:completionHandler:)` shows `(@Sendable () -> Void)?`).
public typealias AVAudioNodeCompletionHandler = @Sendable () -> Void

/// `class AVAudioNode : NSObject` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioNode: NSObject {
    /// `func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat`.
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { fatalError() }
    /// `func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat`.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { fatalError() }
    /// `func installTap(onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
    /// block tapBlock: @escaping AVAudioNodeTapBlock)`.
    open func installTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        block tapBlock: @escaping AVAudioNodeTapBlock
    ) { fatalError() }
    /// `func removeTap(onBus bus: AVAudioNodeBus)`.
    open func removeTap(onBus bus: AVAudioNodeBus) { fatalError() }
    /// `func reset()`.
    open func reset() { fatalError() }
}

/// `class AVAudioIONode : AVAudioNode` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioIONode: AVAudioNode {}

/// `class AVAudioInputNode : AVAudioIONode, AVAudioMixing` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, visionOS 1.0, *)
@available(watchOS, unavailable)
open class AVAudioInputNode: AVAudioIONode {}

/// `class AVAudioOutputNode : AVAudioIONode` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 4.0, visionOS 1.0, *)
open class AVAudioOutputNode: AVAudioIONode {}

/// `class AVAudioMixerNode : AVAudioNode, AVAudioMixing` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioMixerNode: AVAudioNode {
    /// `var outputVolume: Float { get set }`.
    open var outputVolume: Float {
        get { fatalError() }
        set { fatalError() }
    }
}

/// `enum AVAudioPlayerNodeCompletionCallbackType : Int, @unchecked Sendable` (iOS 11).
@available(iOS 11.0, macOS 10.13, tvOS 11.0, watchOS 4.0, visionOS 1.0, *)
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    case dataConsumed = 0
    case dataRendered = 1
    case dataPlayedBack = 2
}

/// `class AVAudioPlayerNode : AVAudioNode, AVAudioMixing` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioPlayerNode: AVAudioNode {
    /// `init()`.
    public override init() { fatalError() }
    /// `func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil)`
    /// (`AVAudioNodeCompletionHandler` is `@Sendable () -> Void`).
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        fatalError()
    }
    /// `func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionCallbackType callbackType:
    /// AVAudioPlayerNodeCompletionCallbackType, completionHandler: (@Sendable (AVAudioPlayerNodeCompletionCallbackType)
    /// -> Void)? = nil)` (iOS 11).
    @available(iOS 11.0, macOS 10.13, tvOS 11.0, watchOS 4.0, visionOS 1.0, *)
    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: (@Sendable (AVAudioPlayerNodeCompletionCallbackType) -> Void)? = nil
    ) { fatalError() }
    /// `func play()`.
    open func play() { fatalError() }
    /// `func pause()`.
    open func pause() { fatalError() }
    /// `func stop()`.
    open func stop() { fatalError() }
    /// `var isPlaying: Bool { get }`.
    open var isPlaying: Bool { fatalError() }
    /// `var volume: Float { get set }` (from `AVAudioMixing`).
    open var volume: Float {
        get { fatalError() }
        set { fatalError() }
    }
}

/// `class AVAudioEngine : NSObject` (iOS 8).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class AVAudioEngine: NSObject {
    /// `init()`.
    public override init() { fatalError() }
    /// `func attach(_ node: AVAudioNode)`.
    open func attach(_ node: AVAudioNode) { fatalError() }
    /// `func detach(_ node: AVAudioNode)`.
    open func detach(_ node: AVAudioNode) { fatalError() }
    /// `func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?)`.
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) { fatalError() }
    /// `func prepare()`.
    open func prepare() { fatalError() }
    /// `func start() throws`.
    open func start() throws { fatalError() }
    /// `func pause()`.
    open func pause() { fatalError() }
    /// `func stop()`.
    open func stop() { fatalError() }
    /// `func reset()`.
    open func reset() { fatalError() }
    /// `var isRunning: Bool { get }`.
    open var isRunning: Bool { fatalError() }
    /// `var inputNode: AVAudioInputNode { get }` (iOS 8; unavailable on watchOS).
    @available(watchOS, unavailable)
    open var inputNode: AVAudioInputNode { fatalError() }
    /// `var outputNode: AVAudioOutputNode { get }`.
    open var outputNode: AVAudioOutputNode { fatalError() }
    /// `var mainMixerNode: AVAudioMixerNode { get }`.
    open var mainMixerNode: AVAudioMixerNode { fatalError() }
}
