import NIOConcurrencyHelpers

/// The port the server listens on, known once it listens (with port 0 the system picks it): the port of the links
/// the server makes when no ``ServerConfiguration/publicURL`` is configured.
final class ListeningPort: Sendable {
    private let port: NIOLockedValueBox<Int>

    /// The configured port, until ``set(_:)`` gives the real one.
    init(_ configured: Int) {
        port = NIOLockedValueBox(configured)
    }

    var value: Int { port.withLockedValue { $0 } }

    func set(_ value: Int) {
        port.withLockedValue { $0 = value }
    }
}
