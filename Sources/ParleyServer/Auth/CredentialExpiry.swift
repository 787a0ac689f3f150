import Foundation
import NIOConcurrencyHelpers

/// When the credential a socket was opened with stops being valid: its token's `exp`, or its session secret's end.
/// A token presented again on the open socket (an `auth` frame) moves it. The socket is closed with a coded close
/// once the date passes (``watch(clock:onExpiry:)``), so that a credential bounds what its holder can do, not only
/// whether a socket opens (docs/security.md, "Tokens").
final class CredentialExpiry: Sendable {
    private let date: NIOLockedValueBox<Date>

    init(_ date: Date) {
        self.date = NIOLockedValueBox(date)
    }

    /// The date the credential expires at.
    var expiresAt: Date { date.withLockedValue { $0 } }

    /// A fresh credential: the socket lives until its expiry.
    func renew(until newDate: Date) {
        date.withLockedValue { $0 = newDate }
    }

    /// A task that waits on `clock` until the (possibly renewed) expiry has passed, then runs `onExpiry` once;
    /// cancel it when the socket ends.
    func watch(clock: ServerClock, onExpiry: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                // The monotonic reading comes first and the wait is until a deadline: a clock that moves after the
                // reading can only wake the watch early (it then reads the date again), never late.
                let start = clock.elapsed
                let remaining = expiresAt.timeIntervalSince(clock.now())
                if remaining <= 0 {
                    await onExpiry()
                    return
                }
                do {
                    // At most a day at a time, then the date is read again: no conversion of a far date can trap.
                    let wait = Duration.milliseconds(Int64((min(remaining, 86_400) * 1000).rounded(.up)))
                    try await clock.sleep(until: start + wait)
                } catch {
                    return
                }
            }
        }
    }
}
