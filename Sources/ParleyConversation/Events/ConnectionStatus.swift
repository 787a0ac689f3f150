/// The state of the connection to the chat server (Oracle's `ConnectionStatus`).
public enum ConnectionStatus: String, Sendable, Hashable {
    /// Not connected, and not trying to.
    case disconnected
    /// Opening the socket, or reopening it after a drop.
    case connecting
    /// Open: messages can be sent.
    case connected
}
