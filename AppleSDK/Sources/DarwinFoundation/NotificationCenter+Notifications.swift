// Mirrors: the Foundation overlay of the iOS 18 SDK (Xcode 16): `NotificationCenter.notifications(named:object:)`
// (iOS 15), which swift-corelibs-foundation does not have.
//
// Sources:
// - https://developer.apple.com/documentation/foundation/notificationcenter/notifications(named:object:)
// - https://developer.apple.com/documentation/foundation/notificationcenter/notifications
// - https://developer.apple.com/documentation/foundation/notificationcenter/notifications/iterator
//
// Differs from Darwin's only in being an extension declared outside Foundation (Darwin's lives in the Foundation
// overlay). `Notification` is not Sendable on either platform (Apple's page says iterating produces a warning in
// Swift 5 mode; in Swift 6 mode handing one across isolation is an error), and `Notifications` is not declared
// Sendable, as the page lists no such conformance.
import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension NotificationCenter {
    /// `final class NotificationCenter.Notifications: AsyncSequence`.
    public final class Notifications: AsyncSequence {
        /// `typealias Element = Notification`.
        public typealias Element = Notification

        /// `struct NotificationCenter.Notifications.Iterator: AsyncIteratorProtocol`.
        public struct Iterator: AsyncIteratorProtocol {
            /// `func next() async -> Notification?`.
            public func next() async -> Notification? { fatalError() }
        }

        /// `final func makeAsyncIterator() -> NotificationCenter.Notifications.Iterator`.
        public final func makeAsyncIterator() -> Iterator { fatalError() }
    }

    /// `@preconcurrency func notifications(named name: Notification.Name, object: (any AnyObject & Sendable)? = nil)
    /// -> NotificationCenter.Notifications`.
    @preconcurrency
    public func notifications(named name: Notification.Name, object: (any AnyObject & Sendable)? = nil)
        -> Notifications
    { fatalError() }
}
