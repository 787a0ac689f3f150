public import Hummingbird

/// Routes served by the application that ``buildApplication(configuration:logger:routes:onServerRunning:)`` builds,
/// besides Parley's own: how an executable or a test mounts something the chat server does not hold, such as the
/// Genesys Mobile Services simulator of `ParleyGMSSimulator` (`parley serve --gms`).
///
/// ```swift
/// struct Hello: ServerRoutes {
///     func register(on router: Router<some RequestContext>) {
///         router.get("/hello") { _, _ in "hello" }
///     }
/// }
/// let app = try await buildApplication(configuration: configuration, routes: [Hello()])
/// ```
///
/// The routes share the server's HTTP router (not its WebSocket one), after the chat, attachment and session
/// routes and before the widget's; a route that Parley also serves is an error of the caller.
public protocol ServerRoutes: Sendable {
    /// Adds the routes to the server's router.
    func register(on router: Router<some RequestContext>)
}
