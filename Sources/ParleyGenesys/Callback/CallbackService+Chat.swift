import Foundation

/// Which GMS chat API a chat service speaks.
public enum ChatAPIVersion: String, Sendable, Hashable, Codable, CaseIterable {
    /// Chat API version 1: REST operations under `…/service/{id}/ixn/chat`, events on `/_genesys` (``ChatSession``).
    case version1 = "1"
    /// Chat API version 2 with CometD: operations and events on `/service/chatV2/{serviceName}` (``ChatV2Session``).
    case version2 = "2"
}

/// A GMS chat of either API version, as ``CallbackService/chat(for:web:clock:)`` chose it.
public enum ChatAPISession: Sendable {
    /// A Chat API version 1 chat.
    case version1(ChatSession)
    /// A Chat API version 2 chat.
    case version2(ChatV2Session)

    /// Which version it is.
    public var version: ChatAPIVersion {
        switch self {
        case .version1: .version1
        case .version2: .version2
        }
    }
}

extension CallbackService {
    /// The chat a `StartChat` dialog offers, in the API version that
    /// ``Configuration/chatAPIVersion(for:)`` gives for ``Configuration/chatServiceName``; not started.
    ///
    /// ```swift
    /// if case .startChat(let offer) = try await service.choose(chatNow).content {
    ///     switch try service.chat(for: offer, customer: ["nickname": "Ann"]) {
    ///     case .version1(let chat): try await chat.start()
    ///     case .version2(let chat): try await chat.start()
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - startChat: The dialog's content.
    ///   - customer: Who the customer is, added to the dialog's `_chat_parameters` (and winning over them):
    ///     `firstName`, `lastName`, `nickname`, `email`/`emailAddress`, `subject`, or anything else (version 1
    ///     sends them as form fields; version 2 as `requestChat` fields, the unknown ones in `userData`). Version 2
    ///     needs a `nickname` or a `firstName`.
    ///   - web: How requests are sent.
    ///   - clock: The chat's clock.
    /// - Throws: ``ParleyError/Code/missingField`` when the dialog lacks a URL the version needs.
    public func chat(
        for startChat: StartChat, customer: [String: String] = [:], web: any WebClient = URLSessionWebClient(),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(ParleyError) -> ChatAPISession {
        var startChat = startChat
        for (key, value) in customer.sorted(by: { $0.key < $1.key }) { startChat.parameters[key] = .string(value) }
        switch configuration.chatAPIVersion(for: configuration.chatServiceName) {
        case .version1:
            return .version1(
                ChatSession(
                    configuration: try .init(startChat: startChat, service: configuration), web: web, clock: clock))
        case .version2:
            let settings = try ChatV2Session.Configuration(
                startChat: startChat, service: configuration, serviceName: configuration.chatServiceName)
            return .version2(ChatV2Session(configuration: settings, web: web, clock: clock))
        }
    }
}
