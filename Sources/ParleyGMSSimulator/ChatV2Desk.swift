import Foundation
import ParleyGenesys

/// The simulator's GMS Chat API version 2 over CometD, with the same scripted agent as version 1 (``ChatDesk``).
///
/// Clients publish `{"operation": …}` on `/service/chatV2/{serviceName}`; every operation is answered on that
/// channel to the publishing Comet client, with `statusCode`, `chatEnded`, `secureKey`, `userId`, `chatId`,
/// `alias`, `nextPosition` and `messages`. Each new transcript event is pushed the same way, alone in `messages`,
/// to the Comet client that holds the chat: the one that requested it, or the last one that sent
/// `requestNotifications` with its `secureKey` (which also answers with the transcript from `transcriptPosition`
/// on, inclusive; 0 or absent: all of it).
///
/// Refusals (the simulator's own codes; GMS publishes none): 101 a parameter is missing or malformed, 102 no chat
/// has that `secureKey`, 103 the chat has ended, 104 an operation the simulator does not know; all with
/// `statusCode` 2, and `chatEnded` true for 102 and 103.
actor ChatV2Desk {
    struct Chat {
        var service: String
        var chatID: String
        var secureKey: String
        var userID: String
        var clientId: String
        var nickname: String
        var userData: JSONObject
        var events: [ChatV2Event] = []
        var ended = false
    }

    let configuration: GMSSimulatorConfiguration
    let hub: BayeuxHub
    private var chats: [String: Chat] = [:]
    private var nextNumber = 1
    /// The date now (each event's `utcTime`).
    let now: @Sendable () -> Date
    static let alias = "117"

    init(configuration: GMSSimulatorConfiguration, hub: BayeuxHub, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.hub = hub
        self.now = now
    }

    /// Answers one publish on a `/service/chatV2/{serviceName}` channel.
    func handle(clientId: String, channel: BayeuxChannel, data: JSONValue) async {
        let prefix = "/service/chatV2/"
        guard channel.rawValue.hasPrefix(prefix), channel.rawValue.count > prefix.count else { return }
        let service = String(channel.rawValue.dropFirst(prefix.count))
        let request: ChatV2Request
        do {
            request = try ChatV2Request(json: data)
        } catch {
            await answer(clientId, channel, Self.refusal(101, "Invalid request: \(error.message)"))
            return
        }
        if request.operation == .requestChat {
            await requestChat(request, service: service, clientId: clientId, channel: channel)
            return
        }
        guard let key = request.secureKey, var chat = chats[key] else {
            await answer(clientId, channel, Self.refusal(102, "Chat session is not found", ended: true))
            return
        }
        if chat.ended {
            await answer(clientId, channel, Self.refusal(103, "Chat session has ended", ended: true, chat: chat))
            return
        }
        switch request.operation {
        case .sendMessage:
            guard let text = request.message else { return await missing("message", clientId, channel, chat) }
            await answer(clientId, channel, response(chat))
            await add(key, .message, client: true, text: text)
            if text.lowercased() == "bye" {
                await agentSays(chatID: chat.chatID, "Goodbye!")
                await add(key, .participantLeft, client: false, text: nil, ending: true)
            } else {
                await agentSays(chatID: chat.chatID, "You said: \(text)")
            }
        case .startTyping, .stopTyping:
            await answer(clientId, channel, response(chat))
            let type: ChatV2EventType = request.operation == .startTyping ? .typingStarted : .typingStopped
            await add(key, type, client: true, text: request.message)
        case .pushURL:
            guard let url = request.members["pushUrl"]?.stringValue else {
                return await missing("pushUrl", clientId, channel, chat)
            }
            await answer(clientId, channel, response(chat))
            await add(key, .pushURL, client: true, text: url)
        case .customNotice:
            await answer(clientId, channel, response(chat))
            await add(key, .customNotice, client: true, text: request.message ?? "")
        case .updateNickname:
            guard let nickname = request.nickname, !nickname.isEmpty else {
                return await missing("nickname", clientId, channel, chat)
            }
            chat.nickname = nickname
            chats[key] = chat
            await answer(clientId, channel, response(chat))
            await add(key, .nicknameUpdated, client: true, text: nickname)
        case .updateData:
            guard let userData = request.userData else { return await missing("userData", clientId, channel, chat) }
            for member in userData {
                chat.userData = chat.userData.removing(member.key)
                chat.userData.append(member.key, member.value)
            }
            chats[key] = chat
            await answer(clientId, channel, response(chat))
        case .disconnect:
            await answer(clientId, channel, response(chat))
            await add(key, .participantLeft, client: true, text: nil, ending: true)
        case .requestNotifications:
            let from = max(request.transcriptPosition ?? 0, 1)
            chat.clientId = clientId
            chats[key] = chat
            await answer(clientId, channel, response(chat, messages: chat.events.filter { $0.index >= from }))
        default:
            await answer(
                clientId, channel,
                Self.refusal(104, "Unknown operation: \(request.operation.rawValue)", chat: chat))
        }
    }

    /// Makes the agent type and say `text` (tests use it to talk while the app is away).
    func agentSays(chatID: String, _ text: String) async {
        guard let key = chats.values.first(where: { $0.chatID == chatID })?.secureKey else { return }
        await add(key, .typingStarted, client: false, text: nil)
        await add(key, .typingStopped, client: false, text: nil)
        await add(key, .message, client: false, text: text)
    }

    /// Sends `data` as it is to the Comet client that holds the chat (tests use it for hostile payloads).
    func push(raw data: JSONValue, chatID: String) async -> Bool {
        guard let chat = chats.values.first(where: { $0.chatID == chatID }) else { return false }
        return await hub.send(data, channel: channel(chat), to: chat.clientId)
    }

    /// What the desk knows of a chat: nickname, user data, transcript, whether it ended.
    func state(chatID: String) -> JSONValue? {
        guard let chat = chats.values.first(where: { $0.chatID == chatID }) else { return nil }
        return [
            "service": .string(chat.service), "nickname": .string(chat.nickname), "userData": .object(chat.userData),
            "ended": .bool(chat.ended), "messages": .array(chat.events.map(\.jsonValue)),
        ]
    }

    // MARK: Operations

    private func requestChat(_ request: ChatV2Request, service: String, clientId: String, channel: BayeuxChannel)
        async
    {
        let names = [request.members["firstName"]?.stringValue, request.members["lastName"]?.stringValue]
            .compactMap { $0 }.filter { !$0.isEmpty }
        guard
            let nickname = request.nickname.flatMap({ $0.isEmpty ? nil : $0 })
                ?? (names.isEmpty ? nil : names.joined(separator: " "))
        else {
            await answer(clientId, channel, Self.refusal(101, "Parameter 'nickname' (or 'firstName') is missing"))
            return
        }
        let number = nextNumber
        nextNumber += 1
        let chat = Chat(
            service: service, chatID: String(format: "SIMV2CHAT%07d", number),
            secureKey: Self.randomKey(), userID: String(format: "SIMUSER%09d", number), clientId: clientId,
            nickname: nickname, userData: request.userData ?? [:])
        chats[chat.secureKey] = chat
        let joined = event(chat, .participantJoined, client: true, text: nil, index: 1)
        chats[chat.secureKey]?.events.append(joined)
        await answer(clientId, channel, response(chats[chat.secureKey] ?? chat, messages: [joined]))
        await add(chat.secureKey, .participantJoined, client: false, text: nil)
    }

    private func missing(_ parameter: String, _ clientId: String, _ channel: BayeuxChannel, _ chat: Chat) async {
        await answer(clientId, channel, Self.refusal(101, "Parameter '\(parameter)' is missing", chat: chat))
    }

    /// Appends an event to the transcript and pushes it to the Comet client that holds the chat.
    private func add(_ key: String, _ type: ChatV2EventType, client: Bool, text: String?, ending: Bool = false) async {
        guard var chat = chats[key], !chat.ended else { return }
        let new = event(chat, type, client: client, text: text, index: chat.events.count + 1)
        chat.events.append(new)
        if ending { chat.ended = true }
        chats[key] = chat
        await hub.send(response(chat, messages: [new]).jsonValue, channel: channel(chat), to: chat.clientId)
    }

    private func event(_ chat: Chat, _ type: ChatV2EventType, client: Bool, text: String?, index: Int) -> ChatV2Event {
        let party =
            client
            ? ChatV2Party(nickname: chat.nickname, participantID: "1", type: .client)
            : ChatV2Party(nickname: configuration.agentName, participantID: "2", type: .agent)
        return ChatV2Event(
            type: type, from: party, index: index, text: text, utcTime: Int64(now().timeIntervalSince1970 * 1000))
    }

    private func response(_ chat: Chat, messages: [ChatV2Event] = []) -> ChatV2Response {
        ChatV2Response(
            chatEnded: chat.ended, secureKey: chat.secureKey, userID: chat.userID, chatID: chat.chatID,
            alias: Self.alias, nextPosition: chat.events.count + 1, messages: messages)
    }

    private static func refusal(_ code: Int, _ advice: String, ended: Bool = false, chat: Chat? = nil)
        -> ChatV2Response
    {
        ChatV2Response(
            statusCode: 2, chatEnded: ended || (chat?.ended ?? false), secureKey: chat?.secureKey,
            userID: chat?.userID, chatID: chat?.chatID, alias: alias,
            nextPosition: chat.map { $0.events.count + 1 }, errors: [ChatV2Error(code: code, advice: advice)])
    }

    private func answer(_ clientId: String, _ channel: BayeuxChannel, _ response: ChatV2Response) async {
        await hub.send(response.jsonValue, channel: channel, to: clientId)
    }

    private func channel(_ chat: Chat) -> BayeuxChannel {
        BayeuxChannel(rawValue: "/service/chatV2/\(chat.service)")
    }

    private static func randomKey() -> String {
        (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }
}
