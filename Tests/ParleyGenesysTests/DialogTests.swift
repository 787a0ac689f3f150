import Foundation
import ParleyGenesys
import Testing

@Suite("Callback dialogs")
struct DialogTests {
    @Test(arguments: SeedExamples.dialogs)
    func everySeedDialogDecodesAndKeepsItsJSON(_ text: String) throws {
        let dialog = try Dialog(decodingLenient: Array(text.utf8))
        #expect(!dialog.isUnknownAction)
        #expect(dialog.dialogID != nil)
        // Decode → encode gives the object received.
        let reparsed = try Dialog(json: dialog.jsonValue)
        #expect(reparsed == dialog)
        #expect(reparsed.jsonValue.jsonString().contains("_dialog_id"))
    }

    @Test func displayMenuWithConfirmation() throws {
        let dialog = try Dialog(decodingLenient: Array(SeedExamples.confirmationProvideCodeTrue.utf8))
        #expect(dialog.action == .displayMenu)
        #expect(dialog.label == "Agent is available right now")
        #expect(dialog.expires == "$(Date)")
        #expect(dialog.expiryDate == nil)
        #expect(dialog.resourceURL == "$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation")
        guard case .menu(let menu) = dialog.content else {
            Issue.record("expected a menu, got \(dialog.content)")
            return
        }
        #expect(menu.method == "POST")
        #expect(menu.groups.map(\.name) == ["Are you ready?"])
        #expect(menu.items.map(\.dialogID) == ["1", "2", "3"])
        #expect(
            menu.items.map(\.label) == [
                "Yes, I'm ready to talk", "No, try again in 5 minutes", "Cancel, my problem has been solved",
            ])
        #expect(menu.items[0].userActionURL == "$(ExtURLBase)/1/service/$(ServiceID)/connect")
        #expect(menu.items[1].userActionURL == "$(ExtURLBase)/1/service/$(ServiceID)/snooze")
        #expect(menu.items.allSatisfy { $0.method == "POST" && $0.jumpBefore == "exit://" })
        let confirmation = try #require(menu.items[0].confirmation)
        #expect(confirmation.text == "You will hear tones immediately after call is connected. This is normal.")
        #expect(confirmation.dialogType == "Notification")
        #expect(confirmation.dismissTimeout == .seconds(2))
        #expect(menu.items[1].confirmation == nil)
    }

    @Test func displayMenuWithoutCodeHasNoConfirmation() throws {
        let dialog = try Dialog(decodingLenient: Array(SeedExamples.confirmationProvideCodeFalse.utf8))
        guard case .menu(let menu) = dialog.content else {
            Issue.record("expected a menu")
            return
        }
        #expect(menu.items.count == 3)
        #expect(menu.items.allSatisfy { $0.confirmation == nil })
    }

    @Test func startChat() throws {
        let dialog = try Dialog(decodingLenient: Array(SeedExamples.startChat.utf8))
        #expect(dialog.action == .startChat)
        #expect(dialog.serviceID == "$(ServiceID)")
        guard case .startChat(let chat) = dialog.content else {
            Issue.record("expected StartChat")
            return
        }
        #expect(chat.startChatURL == "$(ExtURLBase)/1/service/$(ServiceID)/ixn/chat")
        #expect(chat.cometURL == "$(CometURL)")
        #expect(chat.userHeader == "$(GMSUser)")
        #expect(chat.parameters == ["subject": "None"])
        #expect(chat.jumpBefore == "exit://")
    }

    @Test func dialNumber() throws {
        let dialog = try Dialog(decodingLenient: Array(SeedExamples.connectInbound.utf8))
        #expect(dialog.label == "Connecting ...")
        #expect(dialog.content == .dialNumber(try #require(dialNumber(dialog))))
        let dial = try #require(dialNumber(dialog))
        #expect(dial.telURL == "n/a")
        #expect(dial.accessCode == "n/a")
    }

    private func dialNumber(_ dialog: Dialog) -> DialNumber? {
        if case .dialNumber(let dial) = dialog.content { return dial }
        return nil
    }

    @Test(arguments: [
        (SeedExamples.connectOutbound, "You will receive the call shortly"),
        (SeedExamples.waitForAgent, "We will notify you when agent is available"),
    ])
    func confirmationDialog(_ text: String, _ expected: String) throws {
        let dialog = try Dialog(decodingLenient: Array(text.utf8))
        guard case .confirmation(let confirmation) = dialog.content else {
            Issue.record("expected ConfirmationDialog")
            return
        }
        #expect(confirmation.text == expected)
        #expect(confirmation.okTitle == "Ok")
    }

    @Test func camelCaseSpellingsOfTheAndroidSampleDecode() throws {
        let dialog = try Dialog(decodingLenient: Array(SeedExamples.androidFixture.utf8))
        #expect(dialog.action == .dialNumber)
        #expect(dialog.dialogID == "")
        #expect(dialog.error == "")
        let camel = try Dialog(
            decoding: #"{"_action":"ConfirmationDialog","_dialogId":"7","_okTitle":"Fine","_text":"t"}"#)
        #expect(camel.dialogID == "7")
        guard case .confirmation(let confirmation) = camel.content else {
            Issue.record("expected ConfirmationDialog")
            return
        }
        #expect(confirmation.okTitle == "Fine")
    }

    @Test func unknownActionIsReportedNotFatal() throws {
        let dialog = try Dialog(decoding: #"{"_action":"ShowVideo","_video_url":"http://x/v.mp4","_dialog_id":"9"}"#)
        #expect(dialog.isUnknownAction)
        #expect(dialog.content == .unknown("ShowVideo"))
        #expect(dialog.action.rawValue == "ShowVideo")
        #expect(dialog.jsonValue["_video_url"] == "http://x/v.mp4")
    }

    @Test func dialogWithoutActionFails() {
        #expect(throws: ParleyError.self) { try Dialog(decoding: #"{"_dialog_id":"0"}"#) }
        do {
            _ = try Dialog(decoding: #"{"_dialog_id":"0"}"#)
        } catch {
            #expect(error.code == .missingField)
        }
    }

    @Test func expiryDates() throws {
        let iso = try Dialog(decoding: #"{"_action":"DisplayMenu","_expires":"2014-05-02T16:27:38Z"}"#)
        #expect(iso.expiryDate == Date(timeIntervalSince1970: 1_399_048_058))
        #expect(iso.isExpired(at: Date(timeIntervalSince1970: 1_399_048_059)))
        #expect(!iso.isExpired(at: Date(timeIntervalSince1970: 1_399_048_000)))
        let millis = try Dialog(decoding: #"{"_action":"DisplayMenu","_expires":1399048058000}"#)
        #expect(millis.expiryDate == Date(timeIntervalSince1970: 1_399_048_058))
    }

    // MARK: Push payloads

    @Test func seedPushMessageDecodes() throws {
        let push = try CallbackPush(
            userInfo: JSONValue(parsing: Array(#"{"_id":"$(_id)","_action":"$(_action)"}"#.utf8)))
        #expect(push.serviceID == "$(_id)")
        #expect(push.action == "$(_action)")
        // As iOS delivers it: aps plus the message as a JSON string (trailing comma and all).
        let userInfo: JSONValue = [
            "aps": ["alert": "Agent is available"], "message": .string(SeedExamples.pushMessage),
        ]
        let fromString = try CallbackPush(userInfo: userInfo)
        #expect(fromString.serviceID == "$(_id)")
        #expect(fromString.aps?["alert"] == "Agent is available")
    }

    @Test func pushFromAnIOSDictionary() throws {
        let userInfo: [AnyHashable: Any] = [
            "aps": ["alert": "Ready?"],
            "message": ["_id": "3SQI3S31693JL9L3R0O5O6T4OC000U73", "_action": "get-dialog-start-chat"],
        ]
        let push = try CallbackPush(userInfo: userInfo)
        #expect(push.serviceID == "3SQI3S31693JL9L3R0O5O6T4OC000U73")
        #expect(push.action == "get-dialog-start-chat")
    }

    @Test func pushWithoutMessageIsRefused() {
        do {
            _ = try CallbackPush(userInfo: ["aps": ["alert": "hi"]])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .gmsNotACallbackPush)
        }
    }

    // MARK: Chat notifications

    @Test func seedChatNotificationsDecode() throws {
        var kinds: [TranscriptEntry.Kind] = []
        var positions: [Int?] = []
        for text in SeedExamples.chatNotifications {
            let message = try BayeuxMessage(json: JSONValue(parsingLeniently: text))
            #expect(message.channel == .genesys)
            let notification = try ChatNotification(json: try #require(message.data))
            #expect(notification.serviceID == "3SQIS3S1693JL9L3R00506T40C000UL4")
            #expect(notification.update.state == .transcript)
            #expect(notification.update.chatSessionID == "000FRa9NYM9A001K")
            kinds += notification.update.entries.map(\.kind)
            positions += notification.update.entries.map(\.position)
        }
        #expect(kinds == [.text, .joined, .typingStarted])
        #expect(positions == [2, 3, 4])
        let seed = try JSONValue(parsingLeniently: SeedExamples.partyJoined)
        let joined = try ChatNotification(json: #require(seed["data"]))
        let entry = try #require(joined.update.entries.first)
        #expect(entry.nickname == "Kristi Sippola")
        #expect(entry.partyID == "17")
        #expect(entry.partyType == .agent)
        #expect(entry.jsonValue == ["Notice.Joined", "Kristi Sippola", "has joined the session", "17", "AGENT"])
    }

    @Test func transcriptPositionAsNumberAndSeveralLines() throws {
        let update = try ChatUpdate(
            decoding: #"""
                {"chatIxnState":"TRANSCRIPT","transcriptPosition":7,"transcriptToShow":[
                 ["Message.Text","A","one","1","AGENT"],["Notice.Custom","A","two","1","AGENT"],
                 ["Notice.Brand.New","A","three","1","AGENT","extra"]]}
                """#)
        #expect(update.entries.map(\.position) == [5, 6, 7])
        #expect(update.entries[2].kind.rawValue == "Notice.Brand.New")
        #expect(update.entries[2].jsonValue[5] == "extra")
    }
}
