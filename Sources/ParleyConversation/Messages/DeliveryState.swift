/// Where a user's message is on its way to the server.
public enum DeliveryState: String, Sendable, Hashable {
    /// Waiting in the outbox: not written to a socket yet, or written to one that closed before the server
    /// acknowledged it (it will be sent again).
    case pending
    /// Written to the socket. Final against a server without Parley's acknowledgements.
    case sent
    /// The server stored it (Parley's extension): it will not be lost, and a repeat is not handled twice.
    case acknowledged
    /// The server refused it, or it could not be sent after many tries; it will not be sent again.
    case failed
}
