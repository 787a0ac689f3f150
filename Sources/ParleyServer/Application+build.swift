import Foundation
public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
import NIOCore
import ServiceLifecycle

/// Builds the Parley chat server: the chat socket, attachment upload and download, and the web chat widget.
///
/// ```swift
/// let app = try await buildApplication(configuration: configuration)
/// try await app.runService()
/// ```
/// - Parameters:
///   - configuration: Where to listen, where to keep data, the channels.
///   - logger: Where to log.
///   - onServerRunning: Called with the port once the server listens (useful with port 0).
/// - Throws: When storage cannot be opened or a channel's skill cannot be loaded.
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger = Logger(label: "parley.server"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let store = try SQLiteConversationStore(url: configuration.dataDirectory.appendingPathComponent("parley.sqlite"))
    var skills: [String: any Skill] = [:]
    for channel in configuration.channels {
        skills[channel.id] = try channel.skill.load()
    }
    let hub = ChatHub(store: store, skills: skills, channels: configuration.channels, logger: logger)
    await hub.recoverPendingInputs()
    let socket = ChatSocket(configuration: configuration, hub: hub, logger: logger)

    let router = Router(context: BasicWebSocketRequestContext.self)
    router.get("/health") { _, _ in "ok" }
    AttachmentRoutes(configuration: configuration).register(on: router)
    if let gms = configuration.gmsSimulator {
        GMSSimulator(configuration: gms, server: configuration).register(on: router)
    }
    if configuration.servesWidget {
        try WidgetRoutes(configuration: configuration).register(on: router)
    }
    let sockets = Router(context: BasicWebSocketRequestContext.self)
    sockets.ws("/chat/v1/chats/sockets/{client}") { inbound, outbound, context in
        try await socket.run(context.request, inbound: inbound, outbound: outbound)
    }
    if configuration.agentKey != nil {
        let agentSocket = AgentSocket(configuration: configuration, hub: hub, logger: logger)
        sockets.ws("/agent/socket") { inbound, outbound, _ in
            try await agentSocket.run(inbound: inbound, outbound: outbound)
        }
        router.get("/agent") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: AgentConsolePage.html)))
        }
    }
    let socketResponder = sockets.buildResponder()
    let server = HTTPServerBuilder { responder in
        ChatServerChannel(
            base: HTTP1WebSocketUpgradeChannel(
                responder: responder, webSocketResponder: socketResponder,
                configuration: .init(ws: .init(maxFrameSize: configuration.maxFrameSize, autoPing: .disabled))),
            refusal: socket.refusalAtUpgrade)
    }
    return Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Parley"),
        services: [ChatHub.Finisher(hub: hub)],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
}
