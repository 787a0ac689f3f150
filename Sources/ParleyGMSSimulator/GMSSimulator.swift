public import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore
import ParleyGenesys

/// The Genesys Mobile Services simulator's routes, under `/genesys`:
/// - `GET|POST /genesys/1/service/{id}/{action}`: the callback dialogs (``GMSDialogs``);
/// - `/genesys/1/service/callback…`: the Callback Services API (`CallbackDesk`): `POST …/callback/{service}`
///   starts a callback, `GET …/callback/{service}/availability` lists free slots, `GET …/callback?_id=` and
///   `GET …/callback/{service}?operand=…` query, `DELETE` and `PUT …/callback/{service}/{id}` cancel and
///   reschedule;
/// - `POST /genesys/1/service/{id}/ixn/chat[/{operation}]`: Chat API version 1 (``ChatDesk``);
/// - `POST /genesys/cometd[/{type}]`: Bayeux long polling (``BayeuxHub``), JSON or form field `message`; publishes on
///   `/service/chatV2/{serviceName}` are Chat API version 2 (``ChatV2Desk``);
/// - `POST /genesys/simulator/forget-comet-clients`, `POST /genesys/simulator/chat/{id}/agent` (`message`) and
///   `GET /genesys/simulator/comet-disconnects` and `GET /genesys/simulator/pushes` (the APNs notifications GMS
///   would have sent): hooks for tests, to lose every Comet session, to make the agent
///   speak, and to read the `ext` of every `/meta/disconnect`; for version 2 chats,
///   `POST /genesys/simulator/chatV2/{chatId}/agent` (`message`), `POST …/chatV2/{chatId}/raw` (any JSON, pushed
///   as it is to the chat's Comet client) and `GET …/chatV2/{chatId}` (nickname, user data, transcript).
///
/// The simulator is routes, not a server: `parley serve --gms` mounts them on the Parley server's router (through
/// ParleyServer's `ServerRoutes`), and any Hummingbird router can hold them.
///
/// ```swift
/// let router = Router()
/// GMSSimulator(configuration: GMSSimulatorConfiguration(), defaultAuthority: "127.0.0.1:8080").register(on: router)
/// ```
public struct GMSSimulator: Sendable {
    /// The simulator's settings.
    public let configuration: GMSSimulatorConfiguration
    /// `host:port` for the URLs the simulator hands out (callback dialogs, chat operations) when a request has no
    /// `Host` header; otherwise those URLs use the request's.
    public let defaultAuthority: String
    let hub: BayeuxHub
    let desk: ChatDesk
    let chatV2: ChatV2Desk
    let callbacks: CallbackDesk
    /// The date now.
    let now: @Sendable () -> Date

    /// A simulator with its own Bayeux clients and chats, empty.
    /// - Parameters:
    ///   - configuration: The agent's name, the long-poll timeout, the browser cookie rule.
    ///   - defaultAuthority: `host:port` for URLs in answers to requests without a `Host` header.
    ///   - clock: What long polls wait on (``GMSSimulatorConfiguration/longPollTimeout``).
    ///   - now: The date now: what "past" and "free" mean to the callback services, a chat's start and its
    ///     messages' times; tests pass a fixed one.
    public init(
        configuration: GMSSimulatorConfiguration = GMSSimulatorConfiguration(), defaultAuthority: String,
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.defaultAuthority = defaultAuthority
        hub = BayeuxHub(configuration: configuration, clock: clock)
        desk = ChatDesk(configuration: configuration, hub: hub, now: now)
        chatV2 = ChatV2Desk(configuration: configuration, hub: hub, now: now)
        callbacks = CallbackDesk(configuration: configuration, now: now)
        self.now = now
    }

    /// Adds the simulator's routes (all under `/genesys`) to `router`.
    public func register(on router: Router<some RequestContext>) {
        router.post("/genesys/cometd") { request, _ in try await bayeux(request) }
        router.post("/genesys/cometd/{type}") { request, _ in try await bayeux(request) }
        router.post("/genesys/1/service/{id}/ixn/chat") { request, context in
            try await chat(request, id: context.parameters.require("id"), operation: .create)
        }
        router.post("/genesys/1/service/{id}/ixn/chat/{operation}") { request, context in
            guard let operation = ChatDesk.Operation(rawValue: try context.parameters.require("operation")),
                operation != .create
            else { throw HTTPError(.notFound, message: "unknown chat operation") }
            return try await chat(request, id: context.parameters.require("id"), operation: operation)
        }
        registerCallbacks(on: router)
        router.get("/genesys/1/service/{id}/{action}") { request, context in
            try dialog(request, id: context.parameters.require("id"), action: context.parameters.require("action"))
        }
        router.post("/genesys/1/service/{id}/{action}") { request, context in
            try dialog(request, id: context.parameters.require("id"), action: context.parameters.require("action"))
        }
        router.post("/genesys/simulator/forget-comet-clients") { _, _ in
            await hub.forgetAll()
            return Self.json(["forgotten": true])
        }
        router.get("/genesys/simulator/pushes") { _, _ in
            Self.json(.array(await callbacks.pushes))
        }
        router.get("/genesys/simulator/comet-disconnects") { _, _ in
            Self.json(.array(await hub.disconnectExts.map(JSONValue.object)))
        }
        router.post("/genesys/simulator/chatV2/{chatId}/agent") { request, context in
            let fields = try await Self.form(request)
            await chatV2.agentSays(chatID: try context.parameters.require("chatId"), fields["message"] ?? "")
            return Self.json(["sent": true])
        }
        router.post("/genesys/simulator/chatV2/{chatId}/raw") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            let data = (try? JSONValue(parsing: body.readableBytesView)) ?? .string(String(buffer: body))
            let sent = await chatV2.push(raw: data, chatID: try context.parameters.require("chatId"))
            return Self.json(["sent": .bool(sent)], status: sent ? .ok : .notFound)
        }
        router.get("/genesys/simulator/chatV2/{chatId}") { _, context in
            guard let state = await chatV2.state(chatID: try context.parameters.require("chatId")) else {
                return Self.json(["error": "no such chat"], status: .notFound)
            }
            return Self.json(state)
        }
        router.post("/genesys/simulator/chat/{id}/agent") { request, context in
            let fields = try await Self.form(request)
            await desk.agentSays(try context.parameters.require("id"), fields["message"] ?? "")
            return Self.json(["sent": true])
        }
    }

    // MARK: Callback Services API

    private func registerCallbacks(on router: Router<some RequestContext>) {
        let path = "/genesys/1/service/callback"
        router.get(RouterPath(path)) { request, _ in
            let fields = try await Self.form(request)
            return Self.json(await callbacks.query(id: fields["_id"] ?? ""))
        }
        router.post(RouterPath(path + "/{service}")) { request, context in
            let fields = try await Self.form(request)
            return Self.json(await callbacks.start(service: try context.parameters.require("service"), fields: fields))
        }
        router.get(RouterPath(path + "/{service}")) { request, context in
            let fields = try await Self.form(request)
            return Self.json(await callbacks.query(service: try context.parameters.require("service"), fields: fields))
        }
        router.get(RouterPath(path + "/{service}/availability")) { request, context in
            let fields = try await Self.form(request)
            return Self.json(
                await callbacks.availability(service: try context.parameters.require("service"), fields: fields))
        }
        router.delete(RouterPath(path + "/{service}/{id}")) { _, context in
            Self.json(
                await callbacks.cancel(
                    service: try context.parameters.require("service"), id: try context.parameters.require("id")))
        }
        router.put(RouterPath(path + "/{service}/{id}")) { request, context in
            let fields = try await Self.form(request)
            return Self.json(
                await callbacks.reschedule(
                    service: try context.parameters.require("service"), id: try context.parameters.require("id"),
                    fields: fields))
        }
    }

    static func json(_ answer: CallbackDesk.Answer) -> Response {
        guard answer.body != .null else { return Response(status: .init(code: answer.status)) }
        return json(answer.body, status: .init(code: answer.status))
    }

    // MARK: Callback dialogs

    private func dialog(_ request: Request, id: String, action: String) throws -> Response {
        guard let template = GMSDialogs.template(for: action) else {
            return Self.json(["error": .string("unknown callback action \(action)")], status: .notFound)
        }
        let base = base(request)
        let expiry = ISO8601DateFormatter().string(from: now().addingTimeInterval(3600))
        let filled =
            template
            .replacingOccurrences(of: "$(ExtURLBase)", with: Self.jsonEscaped(base + "/genesys"))
            .replacingOccurrences(of: "$(ServiceID)", with: Self.jsonEscaped(id))
            .replacingOccurrences(of: "$(CometURL)", with: Self.jsonEscaped(base + "/genesys/cometd"))
            .replacingOccurrences(of: "$(GMSUser)", with: Self.jsonEscaped(Self.gmsUser(request) ?? "anonymous"))
            .replacingOccurrences(of: "$(Date)", with: expiry)
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: filled)))
    }

    // MARK: Chat

    private func chat(_ request: Request, id: String, operation: ChatDesk.Operation) async throws -> Response {
        let fields = try await Self.form(request)
        guard
            let answer = await desk.handle(
                operation, serviceID: id, fields: fields, user: Self.gmsUser(request), base: base(request))
        else {
            return Self.json(["error": .string("no chat for service \(id)")], status: .notFound)
        }
        return Self.json(answer)
    }

    // MARK: Bayeux

    private func bayeux(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        var bytes = Array(body.readableBytesView)
        if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") ?? false {
            bytes = Array((Self.decodeForm(String(decoding: bytes, as: UTF8.self))["message"] ?? "").utf8)
        }
        // A body that is not JSON is refused whole; an element that is not a message object gets its own
        // `400::Bad request` reply (BayeuxHub), so the elements are read one by one.
        let elements: [JSONValue]
        do {
            let json = try JSONValue(parsing: bytes)
            elements = json.arrayValue ?? [json]
        } catch {
            return Self.json([["successful": false, "error": "400::Malformed JSON"]], status: .badRequest)
        }
        let messages = elements.map { try? BayeuxMessage(json: $0) }
        let cookie = Self.cookies(request)["BAYEUX_BROWSER"]
        let chatV2 = chatV2
        let (replies, setBrowser) = await hub.handle(messages, user: Self.gmsUser(request), browserCookie: cookie) {
            clientId, channel, data in await chatV2.handle(clientId: clientId, channel: channel, data: data)
        }
        var response = Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: BayeuxMessage.body(replies))))
        if let setBrowser {
            response.headers[.setCookie] = "BAYEUX_BROWSER=\(setBrowser); Path=/; HttpOnly"
        }
        return response
    }

    // MARK: Helpers

    private func base(_ request: Request) -> String {
        "http://\(request.head.authority ?? defaultAuthority)"
    }

    static func gmsUser(_ request: Request) -> String? {
        guard let name = HTTPField.Name("gms_user") else { return nil }
        return request.headers[name]
    }

    static func cookies(_ request: Request) -> [String: String] {
        var cookies: [String: String] = [:]
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                cookies[parts[0].trimmingCharacters(in: .whitespaces)] = String(parts[1])
            }
        }
        return cookies
    }

    static func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 1 << 20)
        var fields = decodeForm(String(decoding: body.readableBytesView, as: UTF8.self))
        if request.headers[.contentType]?.hasPrefix("application/json") ?? false {
            // GMS takes JSON bodies too (the Callback API's examples have both); members are read as strings.
            let object = (try? JSONValue(parsing: body.readableBytesView))?.objectValue ?? [:]
            fields = [:]
            for member in object {
                fields[member.key] = member.value.stringValue ?? member.value.jsonString()
            }
        }
        for item in request.uri.queryParameters {
            fields[String(item.key)] = fields[String(item.key)] ?? String(item.value)
        }
        return fields
    }

    static func decodeForm(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                let plain = part.replacingOccurrences(of: "+", with: " ")
                return plain.removingPercentEncoding ?? plain
            }
            fields[unescape(parts[0])] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return fields
    }

    static func jsonEscaped(_ text: String) -> String {
        let quoted = JSONValue.string(text).jsonString()
        return String(quoted.dropFirst().dropLast())
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.jsonBytes())))
    }
}
