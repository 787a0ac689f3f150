/// The callback dialogs the simulator serves: the examples of Genesys's "Callback Push Notifications for iOS"
/// (trailing commas removed), with `$(…)` placeholders filled per request.
///
/// format:verbatim-long-lines — the examples are kept as the documentation prints them, one line each.
enum GMSDialogs {
    static let confirmationWithCode = """
        {"_dialog_id":"0","_label":"Agent is available right now","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/not-used","_method":"POST","_action":"DisplayMenu","_expires":"$(Date)","_resource_url":"$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation","_content":[{"_group_name":"Are you ready?","_group_content":[{"_dialog_id":"1","_label":"Yes, I'm ready to talk","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/connect","_method":"POST","_id_to_jump_before":"exit://","_confirmation_dialog":{"_text":"You will hear tones immediately after call is connected. This is normal.","_dialog_type":"Notification","_dismiss_timeout":2}},{"_dialog_id":"2","_label":"No, try again in 5 minutes","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/snooze","_method":"POST","_id_to_jump_before":"exit://"},{"_dialog_id":"3","_label":"Cancel, my problem has been solved","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/snooze","_method":"POST","_id_to_jump_before":"exit://"}]}]}
        """
    static let confirmationWithoutCode = """
        {"_dialog_id":"0","_label":"Agent is available right now","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/not-used","_method":"POST","_action":"DisplayMenu","_expires":"$(Date)","_resource_url":"$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation","_content":[{"_group_name":"Are you ready?","_group_content":[{"_dialog_id":"1","_label":"Yes, I'm ready to talk","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/connect","_method":"POST","_id_to_jump_before":"exit://"},{"_dialog_id":"2","_label":"No, try again in 5 minutes","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/snooze","_method":"POST","_id_to_jump_before":"exit://"},{"_dialog_id":"3","_label":"Cancel, my problem has been solved","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/snooze","_method":"POST","_id_to_jump_before":"exit://"}]}]}
        """
    static let startChat = """
        {"_dialog_id":"1","_action":"StartChat","_label":"Start Chat","_start_chat_url":"$(ExtURLBase)/1/service/$(ServiceID)/ixn/chat","_comet_url":"$(CometURL)","_user_header":"$(GMSUser)","_id_to_jump_before":"exit://","_chat_parameters":{"subject":"None"},"_id":"$(ServiceID)"}
        """
    static let connectInbound = """
        {"_dialog_id":"0","_label":"Connecting ...","_action":"DialNumber","_tel_url":"n/a","_access_code":"n/a","_id":"$(ServiceID)"}
        """
    static let connectOutbound = """
        {"_dialog_id":"0","_action":"ConfirmationDialog","_text":"You will receive the call shortly","_ok_title":"Ok","_id":"$(ServiceID)"}
        """
    static let waitForAgent = """
        {"_dialog_id":"0","_action":"ConfirmationDialog","_text":"We will notify you when agent is available","_ok_title":"Ok","_id":"$(ServiceID)"}
        """
    /// Not in the documentation: what the simulator answers to the menu's "try again in 5 minutes".
    static let snooze = """
        {"_dialog_id":"0","_action":"ConfirmationDialog","_text":"We will call you back in 5 minutes","_ok_title":"Ok","_id":"$(ServiceID)"}
        """

    /// Not in the documentation: the confirmation menu of a chat callback, whose first choice opens the chat (its
    /// URL answers `get-dialog-start-chat`).
    static let chatOffer = """
        {"_dialog_id":"0","_label":"Agent is available right now","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/not-used","_method":"POST","_action":"DisplayMenu","_expires":"$(Date)","_resource_url":"$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-user-confirmation-chat","_content":[{"_group_name":"Are you ready?","_group_content":[{"_dialog_id":"1","_label":"Yes, chat now","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/get-dialog-start-chat","_method":"POST","_id_to_jump_before":"exit://"},{"_dialog_id":"2","_label":"Call me instead","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/connect","_method":"POST","_id_to_jump_before":"exit://"},{"_dialog_id":"3","_label":"No, try again in 5 minutes","_action":"MenuItem","_user_action_url":"$(ExtURLBase)/1/service/$(ServiceID)/snooze","_method":"POST","_id_to_jump_before":"exit://"}]}]}
        """

    /// The template for a callback action, if the simulator knows it.
    static func template(for action: String) -> String? {
        switch action {
        case "get-dialog-user-confirmation-provide_code-true", "get-dialog-user-confirmation":
            confirmationWithCode
        case "get-dialog-user-confirmation-provide_code-false": confirmationWithoutCode
        case "get-dialog-user-confirmation-chat": chatOffer
        case "get-dialog-start-chat": startChat
        case "connect", "connect-inbound": connectInbound
        case "connect-outbound": connectOutbound
        case "wait-for-agent": waitForAgent
        case "snooze": snooze
        default: nil
        }
    }
}
