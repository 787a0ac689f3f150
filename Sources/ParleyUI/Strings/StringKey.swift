/// The key of a user-interface string: Oracle's `odais_*` keys (iOS SDK, "Strings") and Parley's `parley_*` keys
/// for texts the same screens show that Oracle names no string for. Any other key can be looked up and overridden
/// too; the `static let`s are the ones ParleyUI ships texts for (in English, French and Spanish).
public struct StringKey: OpenString {
    /// The key as written in a `Localizable.strings` file.
    public let rawValue: String
    /// A key from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `odais_chat_title`: The title on the app bar (when `title` is not set). English: "Ask".
    public static let chatTitle: Self = "odais_chat_title"
    /// `odais_connected`: Connection status: connected. English: "Connected".
    public static let connected: Self = "odais_connected"
    /// `odais_connecting`: Connection status: connecting. English: "Connecting".
    public static let connecting: Self = "odais_connecting"
    /// `odais_disconnected`: Connection status: disconnected. English: "Disconnected".
    public static let disconnected: Self = "odais_disconnected"
    /// `odais_typing_status`: The typing indicator while the skill or an agent responds. English: "Responding...".
    public static let typingStatus: Self = "odais_typing_status"
    /// `odais_speech_error`: Alert: audio could not be recorded. English: "Error in voice recognition. Please try again
    /// later.".
    public static let speechError: Self = "odais_speech_error"
    /// `odais_speechrecognition_error`: Alert: the speech server reported an error. English: "Speech Recognition
    /// Error".
    public static let speechRecognitionError: Self = "odais_speechrecognition_error"
    /// `odais_speech_send`: Speech popup: send the recording. English: "SEND".
    public static let speechSend: Self = "odais_speech_send"
    /// `odais_speech_cancel`: Speech popup: cancel the recording. English: "CANCEL".
    public static let speechCancel: Self = "odais_speech_cancel"
    /// `odais_speech_start`: Speech popup: the user may speak. English: "Listening...".
    public static let speechStart: Self = "odais_speech_start"
    /// `odais_speech_permission_denied`: The microphone may not be used. English: "Permission_Denied".
    public static let speechPermissionDenied: Self = "odais_speech_permission_denied"
    /// `odais_file_not_supported`: Alert: the file's type is not allowed. English: "File type not supported".
    public static let fileNotSupported: Self = "odais_file_not_supported"
    /// `odais_file_size_warning`: Alert: the file is over the size limit. English: "You can only attach files of size
    /// upto 25MB".
    public static let fileSizeWarning: Self = "odais_file_size_warning"
    /// `odais_gallery_permission_denied`: Alert: the photo library may not be used. English: "You don't have permission
    /// to access gallery.".
    public static let galleryPermissionDenied: Self = "odais_gallery_permission_denied"
    /// `odais_photo`: Share menu: the photo and video library. English: "Photo & Video Library".
    public static let photo: Self = "odais_photo"
    /// `odais_files`: Share menu: files. English: "Files".
    public static let files: Self = "odais_files"
    /// `odais_notification_title`: The title of notifications. English: "OracleChatBot".
    public static let notificationTitle: Self = "odais_notification_title"
    /// `odais_warning`: Alert title: permission missing. English: "Warning".
    public static let warning: Self = "odais_warning"
    /// `odais_alert`: Alert title: speech and file problems. English: "Alert".
    public static let alert: Self = "odais_alert"
    /// `odais_check_url`: A link does not work. English: "Please check the url!".
    public static let checkURL: Self = "odais_check_url"
    /// `odais_fail_to_load`: A page does not load in the web view. English: "Failed to load the page".
    public static let failToLoad: Self = "odais_fail_to_load"
    /// `odais_error`: Alert title: an error. English: "Error".
    public static let error: Self = "odais_error"
    /// `odais_ok`: The button that closes an alert. English: "Ok".
    public static let ok: Self = "odais_ok"
    /// `odais_done`: The button that closes the chat view or the web view. English: "Done".
    public static let done: Self = "odais_done"
    /// `odais_write_a_message`: The text field's placeholder. English: "Write a message".
    public static let writeAMessage: Self = "odais_write_a_message"
    /// `odais_camera`: Share menu: the camera. English: "Camera".
    public static let camera: Self = "odais_camera"
    /// `odais_speech_unsupported_locale`: The speech locale is not supported. English: "The set speech locale is not
    /// supported. Cannot start recording.".
    public static let speechUnsupportedLocale: Self = "odais_speech_unsupported_locale"
    /// `odais_access_label_skill`: VoiceOver: before a skill message. English: "Skill".
    public static let accessLabelSkill: Self = "odais_access_label_skill"
    /// `odais_access_label_user`: VoiceOver: before a user message. English: "User".
    public static let accessLabelUser: Self = "odais_access_label_user"
    /// `odais_access_label_button_send`: VoiceOver: the send button. English: "Send button".
    public static let accessLabelButtonSend: Self = "odais_access_label_button_send"
    /// `odais_access_label_button_speak`: VoiceOver: the microphone button. English: "Speak button".
    public static let accessLabelButtonSpeak: Self = "odais_access_label_button_speak"
    /// `odais_access_label_button_clear`: VoiceOver: the clear button. English: "Clear messages".
    public static let accessLabelButtonClear: Self = "odais_access_label_button_clear"
    /// `odais_access_label_button_audio_reponse_off`: VoiceOver: the muted volume button. English: "Unmute audio
    /// response".
    public static let accessLabelButtonAudioResponseOff: Self = "odais_access_label_button_audio_reponse_off"
    /// `odais_access_label_button_audio_reponse_on`: VoiceOver: the unmuted volume button. English: "Mute audio
    /// response".
    public static let accessLabelButtonAudioResponseOn: Self = "odais_access_label_button_audio_reponse_on"
    /// `odais_access_label_play`: VoiceOver: the play button. English: "Play".
    public static let accessLabelPlay: Self = "odais_access_label_play"
    /// `odais_access_label_pause`: VoiceOver: the pause button. English: "Pause".
    public static let accessLabelPause: Self = "odais_access_label_pause"
    /// `odais_access_label_button_attach`: VoiceOver: the attach button. English: "Upload attachment".
    public static let accessLabelButtonAttach: Self = "odais_access_label_button_attach"
    /// `odais_access_label_chat_title`: VoiceOver: before the chat title. English: "Chat title".
    public static let accessLabelChatTitle: Self = "odais_access_label_chat_title"
    /// `odais_access_label_chat_status`: VoiceOver: before the connection status. English: "Chat status".
    public static let accessLabelChatStatus: Self = "odais_access_label_chat_status"
    /// `odais_access_label_file_attachment`: VoiceOver: a file attachment. English: "file attachment".
    public static let accessLabelFileAttachment: Self = "odais_access_label_file_attachment"
    /// `odais_access_label_image_attachment`: VoiceOver: an image attachment. English: "image attacment".
    public static let accessLabelImageAttachment: Self = "odais_access_label_image_attachment"
    /// `odais_access_label_audio_attachment`: VoiceOver: an audio attachment. English: "audio attachment".
    public static let accessLabelAudioAttachment: Self = "odais_access_label_audio_attachment"
    /// `odais_access_label_video_attachment`: VoiceOver: a video attachment. English: "video attachment".
    public static let accessLabelVideoAttachment: Self = "odais_access_label_video_attachment"
    /// `odais_access_label_location_message`: VoiceOver: before a location's title and coordinates. English: "location
    /// message".
    public static let accessLabelLocationMessage: Self = "odais_access_label_location_message"
    /// `odais_access_label_text_message`: VoiceOver: before a text. English: "text message".
    public static let accessLabelTextMessage: Self = "odais_access_label_text_message"
    /// `odais_access_label_card_title`: VoiceOver: before a card's title. English: "card title".
    public static let accessLabelCardTitle: Self = "odais_access_label_card_title"
    /// `odais_access_label_card_desc`: VoiceOver: before a card's description. English: "card description".
    public static let accessLabelCardDescription: Self = "odais_access_label_card_desc"
    /// `odais_access_label_header_text`: VoiceOver: before a header text. English: "header text".
    public static let accessLabelHeaderText: Self = "odais_access_label_header_text"
    /// `odais_access_label_footer_text`: VoiceOver: before a footer text. English: "footer text".
    public static let accessLabelFooterText: Self = "odais_access_label_footer_text"
    /// `odais_default_greeting_message`: The client's greeting for a slow skill (`enableDefaultClientResponse`).
    /// English: "Hey, Nice to meet you! Allow me a moment to get back to you.".
    public static let defaultGreetingMessage: Self = "odais_default_greeting_message"
    /// `odais_default_wait_message`: The client's wait message for a slow skill. English: "I'm still working on your
    /// request. Thank you for your patience!".
    public static let defaultWaitMessage: Self = "odais_default_wait_message"
    /// `odais_default_sorry_message`: The client's apology when the skill did not answer in time. English: "I'm sorry.
    /// I can't get you the right content. Please try again.".
    public static let defaultSorryMessage: Self = "odais_default_sorry_message"
    /// `parley_detect_language`: Language menu: let the skill detect the language. English: "Detect Language".
    public static let detectLanguage: Self = "parley_detect_language"
    /// `parley_language_menu`: The language menu's label. English: "Language".
    public static let languageMenu: Self = "parley_language_menu"
    /// `parley_share_location`: Share menu: the user's location. English: "Location".
    public static let shareLocation: Self = "parley_share_location"
    /// `parley_end_conversation_title`: The end-conversation button and the prompt's title. English: "End
    /// conversation".
    public static let endConversationTitle: Self = "parley_end_conversation_title"
    /// `parley_end_conversation_message`: The end-conversation prompt. English: "Are you sure you want to end the
    /// conversation?".
    public static let endConversationMessage: Self = "parley_end_conversation_message"
    /// `parley_end_conversation_confirm`: The prompt's confirming button. English: "Yes".
    public static let endConversationConfirm: Self = "parley_end_conversation_confirm"
    /// `parley_end_conversation_cancel`: The prompt's cancelling button. English: "No".
    public static let endConversationCancel: Self = "parley_end_conversation_cancel"
    /// `parley_conversation_ended`: Shown when the conversation has ended. English: "The conversation has ended.".
    public static let conversationEnded: Self = "parley_conversation_ended"
    /// `parley_access_label_agent`: VoiceOver: before a live agent's message. English: "Agent".
    public static let accessLabelAgent: Self = "parley_access_label_agent"
    /// `parley_access_label_form_message`: VoiceOver: a form or table. English: "form".
    public static let accessLabelFormMessage: Self = "parley_access_label_form_message"
    /// `parley_access_label_other_message`: VoiceOver: a message of another kind. English: "message".
    public static let accessLabelOtherMessage: Self = "parley_access_label_other_message"
    /// `parley_retry`: The button that sends a failed message or upload again. English: "Retry".
    public static let retry: Self = "parley_retry"
    /// `parley_delivery_pending`: A user message waiting to be sent. English: "Sending…".
    public static let deliveryPending: Self = "parley_delivery_pending"
    /// `parley_delivery_sent`: A user message written to the server. English: "Sent".
    public static let deliverySent: Self = "parley_delivery_sent"
    /// `parley_delivery_acknowledged`: A user message the server stored. English: "Delivered".
    public static let deliveryAcknowledged: Self = "parley_delivery_acknowledged"
    /// `parley_delivery_failed`: A user message that will not be delivered. English: "Not delivered".
    public static let deliveryFailed: Self = "parley_delivery_failed"
    /// `parley_uploading`: An attachment being uploaded. English: "Uploading…".
    public static let uploading: Self = "parley_uploading"
    /// `parley_upload_failed`: An attachment that could not be uploaded. English: "Upload failed".
    public static let uploadFailed: Self = "parley_upload_failed"
    /// `parley_upload_retrying`: An upload that failed on the network and will be tried again. English: "Upload
    /// failed, trying again…".
    public static let uploadRetrying: Self = "parley_upload_retrying"
    /// `parley_speech_unavailable`: Speech input is asked for but not available yet. English: "Speech input is not
    /// available yet.".
    public static let speechUnavailable: Self = "parley_speech_unavailable"
    /// `parley_time_now`: Relative timestamp, under 10 seconds. English: "Just now".
    public static let timeNow: Self = "parley_time_now"
    /// `parley_time_moments`: Relative timestamp, 10 to 60 seconds. English: "A few moments ago".
    public static let timeMoments: Self = "parley_time_moments"
    /// `parley_time_minute`: Relative timestamp, one minute. English: "1 min ago".
    public static let timeMinute: Self = "parley_time_minute"
    /// `parley_time_minutes`: Relative timestamp, {0} minutes. English: "{0} min ago".
    public static let timeMinutes: Self = "parley_time_minutes"
    /// `parley_time_hour`: Relative timestamp, one hour. English: "1 hr ago".
    public static let timeHour: Self = "parley_time_hour"
    /// `parley_time_hours`: Relative timestamp, {0} hours. English: "{0} hr ago".
    public static let timeHours: Self = "parley_time_hours"
    /// `parley_time_day`: Relative timestamp, one day. English: "1 day ago".
    public static let timeDay: Self = "parley_time_day"
    /// `parley_time_days`: Relative timestamp, {0} days. English: "{0} days ago".
    public static let timeDays: Self = "parley_time_days"
    /// `parley_time_month`: Relative timestamp, one month. English: "1 month ago".
    public static let timeMonth: Self = "parley_time_month"
    /// `parley_time_months`: Relative timestamp, {0} months. English: "{0} months ago".
    public static let timeMonths: Self = "parley_time_months"
    /// `parley_time_year`: Relative timestamp, one year. English: "1 year ago".
    public static let timeYear: Self = "parley_time_year"
    /// `parley_time_years`: Relative timestamp, {0} years. English: "{0} years ago".
    public static let timeYears: Self = "parley_time_years"
    /// `parley_send`: The web widget's button that sends the text. English: "Send".
    public static let send: Self = "parley_send"
    /// `parley_attach`: The web widget's button that picks a file to attach. English: "Attach".
    public static let attach: Self = "parley_attach"
    /// `parley_clear`: The web widget's button that clears the transcript. English: "Clear".
    public static let clear: Self = "parley_clear"
    /// `parley_location_error`: The web widget's notice when the browser gives no location. English: "Your location
    /// could not be read.".
    public static let locationError: Self = "parley_location_error"
    /// `parley_show_form`: The web widget's button that opens a form's fields. English: "Details".
    public static let showForm: Self = "parley_show_form"
    /// `parley_submit`: The web widget's button that submits a form. English: "Submit".
    public static let submit: Self = "parley_submit"

    /// Every key ParleyUI ships texts for, in the order of `docs/ui.md`.
    public static let allKnown: [StringKey] = [
        .chatTitle, .connected, .connecting, .disconnected, .typingStatus, .speechError, .speechRecognitionError,
        .speechSend, .speechCancel, .speechStart, .speechPermissionDenied, .fileNotSupported, .fileSizeWarning,
        .galleryPermissionDenied, .photo, .files, .notificationTitle, .warning, .alert, .checkURL, .failToLoad,
        .error, .ok, .done, .writeAMessage, .camera, .speechUnsupportedLocale, .accessLabelSkill, .accessLabelUser,
        .accessLabelButtonSend, .accessLabelButtonSpeak, .accessLabelButtonClear, .accessLabelButtonAudioResponseOff,
        .accessLabelButtonAudioResponseOn, .accessLabelPlay, .accessLabelPause, .accessLabelButtonAttach,
        .accessLabelChatTitle, .accessLabelChatStatus, .accessLabelFileAttachment, .accessLabelImageAttachment,
        .accessLabelAudioAttachment, .accessLabelVideoAttachment, .accessLabelLocationMessage,
        .accessLabelTextMessage, .accessLabelCardTitle, .accessLabelCardDescription, .accessLabelHeaderText,
        .accessLabelFooterText, .defaultGreetingMessage, .defaultWaitMessage, .defaultSorryMessage, .detectLanguage,
        .languageMenu, .shareLocation, .endConversationTitle, .endConversationMessage, .endConversationConfirm,
        .endConversationCancel, .conversationEnded, .accessLabelAgent, .accessLabelFormMessage,
        .accessLabelOtherMessage, .retry, .deliveryPending, .deliverySent, .deliveryAcknowledged, .deliveryFailed,
        .uploading, .uploadFailed, .uploadRetrying, .speechUnavailable, .timeNow, .timeMoments, .timeMinute,
        .timeMinutes, .timeHour,
        .timeHours, .timeDay, .timeDays, .timeMonth, .timeMonths, .timeYear, .timeYears, .send, .attach, .clear,
        .locationError, .showForm, .submit,
    ]
}
