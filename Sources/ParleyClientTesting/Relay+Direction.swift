import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

// MARK: - One direction

extension Relay {
    /// The traffic in one direction: bytes not parsed yet, the frame held back, the frames waiting for their time.
    final class Direction {
        /// A frame (or upgrade message) on its way.
        struct Item {
            var bytes: ByteBuffer
            var isData: Bool
            var copies = 1
            var delay: TimeAmount?
            var reordered = false
            var due = NIODeadline.uptimeNanoseconds(0)
        }

        let toServer: Bool
        var buffer = ByteBuffer()
        var pastUpgrade = false
        var generator = SeededRandomNumberGenerator(seed: 0)
        private var seed: UInt64?
        private var held: Item?
        private var heldTimer: Scheduled<Void>?
        var queue: [Item] = []
        var timer: Scheduled<Void>?
        var lastDue = NIODeadline.uptimeNanoseconds(0)

        init(toServer: Bool) {
            self.toServer = toServer
        }

        func reseed(_ seed: UInt64, connection: Int) {
            guard self.seed != seed else { return }
            self.seed = seed
            generator = SeededRandomNumberGenerator(
                seed: Relay.derivedSeed(seed, connection: connection, stream: toServer ? 0 : 1))
        }

        func hold(_ item: Item, on eventLoop: any EventLoop, flush: @escaping () -> Void) {
            held = item
            heldTimer = eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(50)) {
                self.heldTimer = nil
                flush()
            }
        }

        func takeHeld() -> Item? {
            heldTimer?.cancel()
            heldTimer = nil
            defer { held = nil }
            return held
        }

        /// Everything waiting, held frame last, ignoring the delays.
        func takeAll() -> [Item] {
            timer?.cancel()
            timer = nil
            var items = queue
            queue = []
            if let held = takeHeld() { items.append(held) }
            return items
        }

        func cancelTimers() {
            timer?.cancel()
            timer = nil
            heldTimer?.cancel()
            heldTimer = nil
        }
    }
}

// MARK: - Handler

/// Hands the bytes read from one socket of a ``Relay`` to it.
final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let relay: Relay
    private let side: Relay.Side

    init(relay: Relay, side: Relay.Side) {
        self.relay = relay
        self.side = side
    }

    func channelActive(context: ChannelHandlerContext) {
        if side == .client { relay.clientActive() }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        relay.received(unwrapInboundIn(data), from: side)
    }

    func channelInactive(context: ChannelHandlerContext) {
        relay.inactive(side)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
