// Mirrors: CoreLocation of the iOS 18 SDK (Xcode 16): what sharing the user's location needs.
// Interface only: bodies are `fatalError()`; nothing here runs.
//
// Sources:
// - https://developer.apple.com/documentation/corelocation/cllocationdegrees
// - https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d
// - https://developer.apple.com/documentation/corelocation/cllocation
// - https://developer.apple.com/documentation/corelocation/cllocationmanager
// - https://developer.apple.com/documentation/corelocation/cllocationmanager/delegate (`weak var delegate`)
// - https://developer.apple.com/documentation/corelocation/cllocationmanager/requestwheninuseauthorization()
// - https://developer.apple.com/documentation/corelocation/cllocationmanager/requestlocation()
// - https://developer.apple.com/documentation/corelocation/cllocationmanager/authorizationstatus
// - https://developer.apple.com/documentation/corelocation/clauthorizationstatus
// - https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate
// - https://developer.apple.com/documentation/corelocation/cllocationupdate
// - https://developer.apple.com/documentation/corelocation/cllocationupdate/liveupdates(_:)
// - https://developer.apple.com/documentation/corelocation/cllocationupdate/updates (conforms to AsyncSequence,
//   Sendable)
//
// CLLocation is Sendable here: the SDK marks it so (iOS 17 SDK on; `CLLocationUpdate`, a Sendable structure, carries
// `location: CLLocation?`, which it could not otherwise). CLLocationManager is not Sendable. The delegate protocol's
// methods are Objective-C `optional`: requirements with default implementations in an extension here.
@_exported import DarwinFoundation

/// `typealias CLLocationDegrees = Double`.
public typealias CLLocationDegrees = Double
/// `typealias CLLocationAccuracy = Double`.
public typealias CLLocationAccuracy = Double
/// `typealias CLLocationDistance = Double`.
public typealias CLLocationDistance = Double

/// `struct CLLocationCoordinate2D` (a C structure of two doubles: Sendable as imported).
public struct CLLocationCoordinate2D: Sendable {
    /// `var latitude: CLLocationDegrees`.
    public var latitude: CLLocationDegrees
    /// `var longitude: CLLocationDegrees`.
    public var longitude: CLLocationDegrees
    /// `init()`.
    public init() { fatalError() }
    /// `init(latitude: CLLocationDegrees, longitude: CLLocationDegrees)`.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) { fatalError() }
}

/// `let kCLLocationAccuracyBest: CLLocationAccuracy`.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// `let kCLLocationAccuracyHundredMeters: CLLocationAccuracy`.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100

/// `class CLLocation : NSObject, NSCopying, NSSecureCoding, @unchecked Sendable` (iOS 2).
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class CLLocation: NSObject, @unchecked Sendable {
    /// `init(latitude: CLLocationDegrees, longitude: CLLocationDegrees)`.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) { fatalError() }
    /// `var coordinate: CLLocationCoordinate2D { get }`.
    open var coordinate: CLLocationCoordinate2D { fatalError() }
    /// `var horizontalAccuracy: CLLocationAccuracy { get }`.
    open var horizontalAccuracy: CLLocationAccuracy { fatalError() }
    /// `var altitude: CLLocationDistance { get }`.
    open var altitude: CLLocationDistance { fatalError() }
    /// `var timestamp: Date { get }`.
    open var timestamp: Date { fatalError() }
}

/// `enum CLAuthorizationStatus : Int32, @unchecked Sendable` (iOS 4.2).
@available(iOS 4.2, macOS 10.7, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

/// `protocol CLLocationManagerDelegate : NSObjectProtocol` (iOS 2). Its methods are `optional` in Objective-C.
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// `optional func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])`.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// `optional func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)`.
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// `optional func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)` (iOS 14).
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
}

/// Objective-C `optional` requirements: a conformer need not implement them.
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

/// `class CLLocationManager : NSObject` (iOS 2).
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
open class CLLocationManager: NSObject {
    /// `init()`.
    public override init() { fatalError() }
    /// `weak var delegate: (any CLLocationManagerDelegate)? { get set }`.
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// `var desiredAccuracy: CLLocationAccuracy { get set }`.
    open var desiredAccuracy: CLLocationAccuracy {
        get { fatalError() }
        set { fatalError() }
    }
    /// `var authorizationStatus: CLAuthorizationStatus { get }` (iOS 14).
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    open var authorizationStatus: CLAuthorizationStatus { fatalError() }
    /// `var location: CLLocation? { get }`.
    open var location: CLLocation? { fatalError() }
    /// `func requestWhenInUseAuthorization()` (iOS 8).
    open func requestWhenInUseAuthorization() { fatalError() }
    /// `func requestLocation()` (iOS 9).
    open func requestLocation() { fatalError() }
    /// `func startUpdatingLocation()`.
    open func startUpdatingLocation() { fatalError() }
    /// `func stopUpdatingLocation()`.
    open func stopUpdatingLocation() { fatalError() }
}

/// `struct CLLocationUpdate` (iOS 17): Sendable.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct CLLocationUpdate: Sendable {
    /// `struct CLLocationUpdate.LiveConfiguration : Sendable`.
    public struct LiveConfiguration: Sendable {
        /// `static let default: CLLocationUpdate.LiveConfiguration`.
        public static var `default`: LiveConfiguration { fatalError() }
    }

    /// `struct CLLocationUpdate.Updates : AsyncSequence, Sendable`.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = CLLocationUpdate
        /// `struct CLLocationUpdate.Updates.Iterator : AsyncIteratorProtocol`.
        public struct Iterator: AsyncIteratorProtocol {
            /// `mutating func next() async throws -> CLLocationUpdate?`.
            public mutating func next() async throws -> CLLocationUpdate? { fatalError() }
        }
        /// `func makeAsyncIterator() -> CLLocationUpdate.Updates.Iterator`.
        public func makeAsyncIterator() -> Iterator { fatalError() }
    }

    /// `var location: CLLocation? { get }`.
    public var location: CLLocation? { fatalError() }
    /// `var isStationary: Bool { get }`.
    public var isStationary: Bool { fatalError() }
    /// `static func liveUpdates(_ configuration: CLLocationUpdate.LiveConfiguration = .default)
    /// -> CLLocationUpdate.Updates`.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates { fatalError() }
}
