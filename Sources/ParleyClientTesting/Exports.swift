// ParleyClientTesting re-exports the client (and with it ParleyCore's `VirtualClock` and
// `SeededRandomNumberGenerator`), and adds an in-memory transport, a fault-injecting proxy and a scripted agent.
// It needs no server: an app's tests link it without Hummingbird or the server's stores.
@_exported public import ParleyClient
