import Foundation
import Logging
import ServiceLifecycle

/// Deletes what has been kept too long (``ServerConfiguration/retention``): every ``ServerConfiguration/
/// retentionSweepInterval``, the conversations idle for longer than the period (no message either way), with their
/// messages, and their users' attachments on their channels.
///
/// It runs on the server's clock (``ServerClock``): a sweep at start, then one per interval, until the server stops.
/// In a cluster every node sweeps; deleting is idempotent, so two nodes sweeping at once delete each conversation
/// once.
struct RetentionService: Service {
    /// The conversations.
    let store: any ConversationStore
    /// The attachments.
    let attachments: any AttachmentStore
    /// How long a conversation may stay idle.
    let period: Duration
    /// How often to look.
    let interval: Duration
    let clock: ServerClock
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await sweep()
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }

    /// Deletes the conversations idle for longer than ``period`` and their users' attachments, once; what it
    /// deleted. A failure is logged, and the next sweep tries again.
    @discardableResult
    func sweep() async -> (conversations: [ConversationKey], attachments: Int) {
        let components = period.components
        let cutoff = clock.now().addingTimeInterval(
            -(Double(components.seconds) + Double(components.attoseconds) * 1e-18))
        let keys: [ConversationKey]
        do {
            keys = try await store.removeConversations(idleSince: cutoff)
        } catch {
            logger.error("retention: idle conversations could not be deleted (the next sweep tries again): \(error)")
            return ([], 0)
        }
        guard !keys.isEmpty else { return ([], 0) }
        do {
            let removed = try await attachments.removeAttachments(of: keys)
            logger.info(
                "retention: deleted \(keys.count) conversations idle since before \(cutoff), and \(removed) attachments"
            )
            return (keys, removed)
        } catch {
            let list = keys.map(\.description).joined(separator: ", ")
            logger.error(
                "retention: deleted \(keys.count) conversations but not their users' attachments: \(error); \(list)")
            return (keys, 0)
        }
    }
}
