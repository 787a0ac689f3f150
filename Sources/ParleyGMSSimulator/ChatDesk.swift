import Foundation
import ParleyGenesys

/// The simulator's GMS Chat API version 1 with a scripted agent.
///
/// The agent joins when the chat is created; answers every message with typing started, typing stopped and
/// "You said: …"; says goodbye and leaves on "bye"; and the chat ends (`DISCONNECTED`) when either side leaves.
/// Events go to the customer over Bayeux (`/_genesys`, to the clients of the chat's `gms_user`); `refresh`
/// answers with the transcript from the asked position on (inclusive, so a client must drop repeats).
actor ChatDesk {
    struct Chat {
        var serviceID: String
        var user: String?
        var customer: String
        var sessionID: String
        var startedAt: String
        var transcript: [[String]] = []
        var ended = false
    }

    let configuration: GMSSimulatorConfiguration
    let hub: BayeuxHub
    /// The date now (a chat's start time).
    let now: @Sendable () -> Date
    private var chats: [String: Chat] = [:]

    init(configuration: GMSSimulatorConfiguration, hub: BayeuxHub, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.hub = hub
        self.now = now
    }

    enum Operation: String {
        case create, send, refresh, startTyping, stopTyping, disconnect
    }

    /// Answers one chat request; `nil` when the chat does not exist.
    func handle(
        _ operation: Operation, serviceID: String, fields: [String: String], user: String?, base: String
    ) async -> JSONValue? {
        if operation == .create {
            let customer = [fields["firstName"], fields["lastName"]].compactMap { $0 }.joined(separator: " ")
            var chat = Chat(
                serviceID: serviceID, user: user, customer: customer.isEmpty ? "Customer" : customer,
                sessionID: "SIM" + String(UInt32.random(in: .min ... .max), radix: 36).uppercased(),
                startedAt: ISO8601DateFormatter().string(from: now()))
            chat.transcript.append(["Notice.Joined", chat.customer, "has joined the session", "1", "CLIENT"])
            chats[serviceID] = chat
            var answer = update(chat, "CONNECTED", entries: chat.transcript, position: 1)
            let chatURL = "\(base)/genesys/1/service/\(serviceID)/ixn/chat"
            for (name, path) in [
                ("SEND", "send"), ("REFRESH", "refresh"), ("START_TYPING", "startTyping"),
                ("STOP_TYPING", "stopTyping"), ("DISCONNECT", "disconnect"),
            ] {
                answer.append("_chatIxnAPI_\(name)_URL", .string("\(chatURL)/\(path)"))
            }
            await emit(serviceID, ["Notice.Joined", configuration.agentName, "has joined the session", "2", "AGENT"])
            return .object(answer)
        }
        guard let existing = chats[serviceID] else { return nil }
        if existing.ended, operation != .refresh {
            return .object(update(existing, "DISCONNECTED", entries: [], position: existing.transcript.count))
        }
        switch operation {
        case .create:
            return nil
        case .send:
            let text = fields["message"] ?? ""
            await customer(serviceID, "Message.Text", text)
            if text.lowercased() == "bye" {
                await agentSays(serviceID, "Goodbye!")
                await emit(serviceID, agent(serviceID, "Notice.Left", "has left the session"), ending: true)
            } else {
                await agentSays(serviceID, "You said: \(text)")
            }
        case .startTyping:
            await customer(serviceID, "Notice.TypingStarted", "is typing")
        case .stopTyping:
            await customer(serviceID, "Notice.TypingStopped", "stopped typing")
        case .disconnect:
            await customer(serviceID, "Notice.Left", "has left the session", ending: true)
        case .refresh:
            let from = Int(fields["transcriptPosition"] ?? "") ?? 0
            let entries = existing.transcript.enumerated().filter { $0.offset + 1 >= max(from, 1) }.map(\.element)
            return .object(
                update(
                    existing, existing.ended ? "DISCONNECTED" : "TRANSCRIPT", entries: entries,
                    position: existing.transcript.count))
        }
        // The operation added to the transcript (and may have ended the chat); chats are never removed.
        let chat = chats[serviceID] ?? existing
        return .object(
            update(chat, chat.ended ? "DISCONNECTED" : "TRANSCRIPT", entries: [], position: chat.transcript.count))
    }

    /// Makes the agent say `text` (used by tests to talk while the app is in the background).
    func agentSays(_ serviceID: String, _ text: String) async {
        guard chats[serviceID] != nil else { return }
        await emit(serviceID, agent(serviceID, "Notice.TypingStarted", "is typing"))
        await emit(serviceID, agent(serviceID, "Notice.TypingStopped", "stopped typing"))
        await emit(serviceID, agent(serviceID, "Message.Text", text))
    }

    private func agent(_ serviceID: String, _ kind: String, _ text: String) -> [String] {
        [kind, configuration.agentName, text, "2", "AGENT"]
    }

    private func customer(_ serviceID: String, _ kind: String, _ text: String, ending: Bool = false) async {
        guard let chat = chats[serviceID] else { return }
        await emit(serviceID, [kind, chat.customer, text, "1", "CLIENT"], ending: ending)
    }

    /// Appends a line to the transcript and pushes it to the customer's Comet clients.
    private func emit(_ serviceID: String, _ entry: [String], ending: Bool = false) async {
        guard var chat = chats[serviceID], !chat.ended else { return }
        chat.transcript.append(entry)
        if ending { chat.ended = true }
        chats[serviceID] = chat
        let message = update(
            chat, ending ? "DISCONNECTED" : "TRANSCRIPT", entries: [entry], position: chat.transcript.count)
        let data: JSONValue = [
            "message": .object(message), "id": .string(UUID().uuidString.lowercased().filter { $0 != "-" }),
            "tag": .string("service.chat.refresh.\(serviceID)"),
        ]
        await hub.publish(data, channel: .genesys, user: chat.user)
    }

    private func update(_ chat: Chat, _ state: String, entries: [[String]], position: Int) -> JSONObject {
        [
            "startedAt": .string(chat.startedAt), "chatIxnState": .string(state),
            "chatSessionId": .string(chat.sessionID),
            "transcriptToShow": .array(entries.map { .array($0.map(JSONValue.string)) }),
            "transcriptPosition": .string(String(position)), "chatServiceMessage": "Chat service is available",
        ]
    }
}
