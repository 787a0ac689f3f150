// Mirrors: the Foundation overlay of the iOS 18 SDK (Xcode 16), for the few declarations Darwin's Foundation has and
// swift-corelibs-foundation (the Linux Foundation these interface modules build on) lacks. Everything else Parley's
// Apple-only code uses from Foundation is the Linux Foundation itself; where that differs from Darwin's (NSObject is a
// Swift class there, `Notification` and `NSError` bridging), the type-check sees Linux's behaviour, not Darwin's.
//
// Sources:
// - https://developer.apple.com/documentation/foundation/nserrorpointer
// - https://developer.apple.com/documentation/swift/autoreleasingunsafemutablepointer
//
// The framework modules re-export this module as Apple's re-export Foundation (`@_exported import Foundation`).
@_exported import Foundation

/// Darwin: `typealias NSErrorPointer = AutoreleasingUnsafeMutablePointer<NSError?>?`
/// (https://developer.apple.com/documentation/foundation/nserrorpointer).
///
/// Differs from Darwin's: `AutoreleasingUnsafeMutablePointer` exists only in a standard library with Objective-C
/// interop, so it cannot be declared here. `UnsafeMutablePointer<NSError?>?` accepts the same call-site spelling
/// (`var error: NSError?` … `error: &error`, an inout-to-pointer conversion) and the same `nil`, which is all Swift
/// callers of an `NSErrorPointer` parameter can write; what it does not model is the autorelease semantics, which no
/// Swift caller sees.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
