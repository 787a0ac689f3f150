/// Every JSON example of the seed document `gms-callback-push-ios.txt` ("Callback Push Notifications for iOS"),
/// verbatim, trailing commas included.
enum SeedExamples {
    static let pushMessage = #"{ "_id":"$(_id)", "_action":"$(_action)", }"#

    static let confirmationProvideCodeTrue = #"""
        { "_dialog_id":"0", "_label":"Agent is available right now", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/not-used", "_method":"POST", "_action":"DisplayMenu", "_expires": "$(Date)", "_resource_url": "$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation", "_content":[ { "_group_name":"Are you ready?", "_group_content":[ { "_dialog_id":"1", "_label":"Yes, I'm ready to talk", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/connect", "_method":"POST", "_id_to_jump_before":"exit://", "_confirmation_dialog":{ "_text":"You will hear tones immediately after call is connected. This is normal.", "_dialog_type":"Notification", "_dismiss_timeout": 2 } },{ "_dialog_id":"2", "_label":"No, try again in 5 minutes", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/snooze", "_method":"POST", "_id_to_jump_before":"exit://" },{ "_dialog_id":"3", "_label":"Cancel, my problem has been solved", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/snooze", "_method":"POST", "_id_to_jump_before":"exit://" } ] } ] }
        """#

    static let confirmationProvideCodeFalse = #"""
        { "_dialog_id":"0", "_label":"Agent is available right now", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/not-used", "_method":"POST", "_action":"DisplayMenu", "_expires": "$(Date)", "_resource_url": "$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation", "_content":[ { "_group_name":"Are you ready?", "_group_content":[ { "_dialog_id":"1", "_label":"Yes, I'm ready to talk", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/connect", "_method":"POST", "_id_to_jump_before":"exit://", },{ "_dialog_id":"2", "_label":"No, try again in 5 minutes", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/snooze", "_method":"POST", "_id_to_jump_before":"exit://" },{ "_dialog_id":"3", "_label":"Cancel, my problem has been solved", "_action":"MenuItem", "_user_action_url": "$(ExtURLBase)/1/service/$(ServiceID)/snooze", "_method":"POST", "_id_to_jump_before":"exit://" } ] } ] }
        """#

    static let startChat = #"""
        { "_dialog_id": "1", "_action":"StartChat", "_label":"Start Chat", "_start_chat_url": "$(ExtURLBase)/1/service/$(ServiceID)/ixn/chat", "_comet_url":"$(CometURL)", "_user_header":"$(GMSUser)", "_id_to_jump_before":"exit://", "_chat_parameters":{ "subject":"None" }, "_id":"$(ServiceID)" }
        """#

    static let connectInbound = #"""
        { "_dialog_id":"0", "_label":"Connecting ...", "_action":"DialNumber", "_tel_url":"n/a", "_access_code":"n/a", "_id":"$(ServiceID)" }
        """#

    static let connectOutbound = #"""
        { "_dialog_id":"0", "_action":"ConfirmationDialog", "_text":"You will receive the call shortly", "_ok_title":"Ok", "_id":"$(ServiceID)" }
        """#

    static let waitForAgent = #"""
        { "_dialog_id":"0", "_action":"ConfirmationDialog", "_text":"We will notify you when agent is available", "_ok_title":"Ok", "_id":"$(ServiceID)" }
        """#

    static let messageReceipt = #"""
        { "data":{ "message":{ "startedAt":"2014-05-02T16:27:38Z", "chatIxnState":"TRANSCRIPT", "chatSessionId":"000FRa9NYM9A001K", "transcriptToShow":[["Message.Text","Stan","Hello.","8","CLIENT"]], "transcriptPosition":"2", "chatServiceMessage":"Chat service is available" }, "id":"b2e607a0d21611e3000010932938a0ff", "tag":"service.chat.refresh.3SQIS3S1693JL9L3R00506T40C000UL4" }, "channel":"/_genesys" }
        """#

    static let partyJoined = #"""
        { "data":{ "message":{ "startedAt":"2014-05-02T16:27:38Z", "chatIxnState":"TRANSCRIPT", "chatSessionId":"000FRa9NYM9A001K", "transcriptToShow":[["Notice.Joined","Kristi Sippola", "has joined the session","17","AGENT"]], "transcriptPosition":"3", "chatServiceMessage":"Chat service is available", }, "id":"b7dd6460d21611e3000010932938a0ff", "tag":"service.chat.refresh.3SQIS3S1693JL9L3R00506T40C000UL4" }, "channel":"/_genesys" }
        """#

    static let typingStarted = #"""
        { "data":{ "message":{ "startedAt":"2014-05-02T16:27:38Z", "chatIxnState":"TRANSCRIPT", "chatSessionId":"000FRa9NYM9A001K", "transcriptToShow":[["Notice.TypingStarted", "Kristi Sippola","is typing","20","AGENT"]], "transcriptPosition":"4", "chatServiceMessage":"Chat service is available", }, "id":"b91bd7d0d21611e3000010932938a0ff", "tag":"service.chat.refresh.3SQIS3S1693JL9L3R00506T40C000UL4" }, "channel":"/_genesys" }
        """#

    /// The fixture in the public Android sample's UI code (camel case, `groupie`).
    static let androidFixture = #"""
        {"error":"","_dialogId":"","_id":"","_action":"DialNumber","_tel_url":"","_label":"","_content":[{"_group_name":"groupie","_group_content":[{"_label":"groupLabel1","_user_action_url":"url1"}]}],"_chat_parameters":{"subject":"subject"}}
        """#

    static let dialogs = [
        confirmationProvideCodeTrue, confirmationProvideCodeFalse, startChat, connectInbound, connectOutbound,
        waitForAgent,
    ]
    static let chatNotifications = [messageReceipt, partyJoined, typingStarted]
}
