// Mirrors: AVFAudio of the iOS 18 SDK (Xcode 16): AVAudioSession (iOS, tvOS, watchOS, visionOS, Mac Catalyst; not
// macOS) and AVAudioApplication.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/avfaudio/avaudiosession
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/sharedinstance()
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/setcategory(_:mode:options:)
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/setactive(_:options:)
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/mode-swift.struct
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/categoryoptions-swift.struct
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/setactiveoptions
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptionnotification
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptiontype
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptionoptions
// - https://developer.apple.com/documentation/avfaudio/avaudiosessioninterruptiontypekey
// - https://developer.apple.com/documentation/avfaudio/avaudiosessioninterruptionoptionkey
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/routechangenotification
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/routechangereason
// - https://developer.apple.com/documentation/avfaudio/avaudiosessionroutechangereasonkey
// - https://developer.apple.com/documentation/avfaudio/avaudiosession/mediaserviceswereresetnotification
// - https://developer.apple.com/documentation/avfaudio/avaudioapplication
// - https://developer.apple.com/documentation/avfaudio/avaudioapplication/requestrecordpermission(completionhandler:)
// - https://developer.apple.com/documentation/avfaudio/avaudioapplication/recordpermission-swift.enum
//
// AVAudioSession is not Sendable in the iOS 18 SDK. `requestRecordPermission(completionHandler:)` takes a `@Sendable`
// block (the documentation shows it); the async form is the compiler's import of that completion handler.
import DarwinFoundation

/// `class AVAudioSession : NSObject` (iOS 3; unavailable on macOS).
@available(iOS 3.0, tvOS 9.0, watchOS 2.0, visionOS 1.0, macCatalyst 13.1, *)
@available(macOS, unavailable)
open class AVAudioSession: NSObject {
    /// `struct AVAudioSession.Category : Hashable, Equatable, RawRepresentable, @unchecked Sendable` (an
    /// `NS_STRING_ENUM`).
    public struct Category: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `static let ambient: AVAudioSession.Category`.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// `static let soloAmbient: AVAudioSession.Category`.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// `static let playback: AVAudioSession.Category`.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// `static let record: AVAudioSession.Category`.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// `static let playAndRecord: AVAudioSession.Category`.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// `static let multiRoute: AVAudioSession.Category`.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// `struct AVAudioSession.Mode : Hashable, Equatable, RawRepresentable, @unchecked Sendable`.
    public struct Mode: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `static let default: AVAudioSession.Mode`.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// `static let voiceChat: AVAudioSession.Mode`.
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// `static let gameChat: AVAudioSession.Mode`.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// `static let videoChat: AVAudioSession.Mode`.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        /// `static let spokenAudio: AVAudioSession.Mode`.
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// `static let measurement: AVAudioSession.Mode`.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
    }

    /// `struct AVAudioSession.CategoryOptions : OptionSet, @unchecked Sendable` (an `NS_OPTIONS` of `UInt`).
    public struct CategoryOptions: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var mixWithOthers`.
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// `static var duckOthers`.
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// `static var allowBluetooth` (deprecated in the 2026 SDKs as `allowBluetoothHFP`; current in iOS 18).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// `static var defaultToSpeaker`.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// `static var interruptSpokenAudioAndMixWithOthers` (iOS 9).
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// `static var allowBluetoothA2DP` (iOS 10).
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// `static var allowAirPlay` (iOS 10).
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        /// `static var overrideMutedMicrophoneInterruption` (iOS 14.5).
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    /// `struct AVAudioSession.SetActiveOptions : OptionSet, @unchecked Sendable`.
    public struct SetActiveOptions: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var notifyOthersOnDeactivation`.
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// `enum AVAudioSession.InterruptionType : UInt, @unchecked Sendable` (iOS 6).
    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    /// `struct AVAudioSession.InterruptionOptions : OptionSet, @unchecked Sendable` (iOS 6).
    public struct InterruptionOptions: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var shouldResume`.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// `enum AVAudioSession.RouteChangeReason : UInt, @unchecked Sendable` (iOS 6).
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// `class func sharedInstance() -> AVAudioSession`.
    open class func sharedInstance() -> AVAudioSession { fatalError() }

    /// `var category: AVAudioSession.Category { get }`.
    open var category: AVAudioSession.Category { fatalError() }
    /// `var mode: AVAudioSession.Mode { get }`.
    open var mode: AVAudioSession.Mode { fatalError() }
    /// `var categoryOptions: AVAudioSession.CategoryOptions { get }`.
    open var categoryOptions: AVAudioSession.CategoryOptions { fatalError() }

    /// `func setCategory(_ category: AVAudioSession.Category, mode: AVAudioSession.Mode,
    /// options: AVAudioSession.CategoryOptions = []) throws` (iOS 10).
    @available(iOS 10.0, tvOS 10.0, watchOS 3.0, visionOS 1.0, *)
    open func setCategory(
        _ category: AVAudioSession.Category, mode: AVAudioSession.Mode, options: AVAudioSession.CategoryOptions = []
    ) throws { fatalError() }

    /// `func setActive(_ active: Bool, options: AVAudioSession.SetActiveOptions = []) throws` (iOS 6).
    open func setActive(_ active: Bool, options: AVAudioSession.SetActiveOptions = []) throws { fatalError() }

    /// `class let interruptionNotification: NSNotification.Name` (iOS 6).
    public class var interruptionNotification: NSNotification.Name { fatalError() }
    /// `class let routeChangeNotification: NSNotification.Name` (iOS 6).
    public class var routeChangeNotification: NSNotification.Name { fatalError() }
    /// `class let mediaServicesWereResetNotification: NSNotification.Name` (iOS 6).
    public class var mediaServicesWereResetNotification: NSNotification.Name { fatalError() }
}

/// `let AVAudioSessionInterruptionTypeKey: String` (iOS 6): the `userInfo` key of an interruption's type, an
/// `NSNumber` holding `AVAudioSession.InterruptionType`'s raw value.
@available(iOS 6.0, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
@available(macOS, unavailable)
public let AVAudioSessionInterruptionTypeKey: String = "AVAudioSessionInterruptionTypeKey"
/// `let AVAudioSessionInterruptionOptionKey: String` (iOS 6).
@available(iOS 6.0, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
@available(macOS, unavailable)
public let AVAudioSessionInterruptionOptionKey: String = "AVAudioSessionInterruptionOptionKey"
/// `let AVAudioSessionRouteChangeReasonKey: String` (iOS 6).
@available(iOS 6.0, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
@available(macOS, unavailable)
public let AVAudioSessionRouteChangeReasonKey: String = "AVAudioSessionRouteChangeReasonKey"

/// `class AVAudioApplication : NSObject` (iOS 17).
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
open class AVAudioApplication: NSObject {
    /// `enum AVAudioApplication.recordPermission : Int, @unchecked Sendable` (lower case in Swift, as imported).
    public enum recordPermission: Int, Sendable {
        case undetermined = 1_970_168_948
        case denied = 1_684_369_017
        case granted = 1_735_552_628
    }

    /// `class var shared: AVAudioApplication { get }`.
    open class var shared: AVAudioApplication { fatalError() }
    /// `var recordPermission: AVAudioApplication.recordPermission { get }`.
    open var recordPermission: AVAudioApplication.recordPermission { fatalError() }
    /// `class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void)`.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        fatalError()
    }
    /// `class func requestRecordPermission() async -> Bool` (the async import of the completion handler).
    open class func requestRecordPermission() async -> Bool { fatalError() }
}
