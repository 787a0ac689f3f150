extension ParleyError.Code {
    /// A GMS request got an HTTP status other than 2xx; the message carries the status and the URL.
    public static let gmsHTTPStatus: Self = "gms.httpStatus"
    /// A GMS answer is not what the API promises (not HTTP, not JSON, not a dialog).
    public static let gmsBadResponse: Self = "gms.badResponse"
    /// A push notification carries no `message` with `_id` and `_action`.
    public static let gmsNotACallbackPush: Self = "gms.notACallbackPush"
    /// GMS knows no callback with the id given (cancel, reschedule, query), or no such callback service.
    public static let gmsCallbackNotFound: Self = "gms.callbackNotFound"
    /// GMS refused a callback's time because its slot is full or closed; the ``CallbackFailure`` lists the slots
    /// GMS offers instead, when it sent some.
    public static let gmsSlotUnavailable: Self = "gms.slotUnavailable"
    /// GMS refused a time it cannot read or that has passed (`_desired_time`, `_new_desired_time`, `start`, `end`).
    public static let gmsInvalidTime: Self = "gms.invalidTime"
    /// GMS refused a callback request for another reason (a missing parameter, say); the message has its sentence.
    public static let gmsCallbackRefused: Self = "gms.callbackRefused"
    /// A GMS chat call was made before ``ChatSession/start()`` or after the chat ended.
    public static let gmsChatNotActive: Self = "gms.chatNotActive"
    /// GMS refused a Chat API version 2 `requestChat` (`statusCode` 1 or 2, or `errors`); the ``ChatV2Failure``
    /// is the underlying error.
    public static let gmsChatRefused: Self = "gms.chatRefused"
    /// A Chat API version 2 operation was answered with `statusCode` 1 or 2, or `errors`; the ``ChatV2Failure`` is
    /// the underlying error.
    public static let gmsChatFailed: Self = "gms.chatFailed"
    /// GMS did not answer in time (a Chat API version 2 `requestChat` over Comet).
    public static let gmsNoAnswer: Self = "gms.noAnswer"
    /// A Bayeux handshake was refused and the server's advice forbids trying again (`reconnect: none`).
    public static let bayeuxRefused: Self = "bayeux.refused"
    /// A Bayeux message was sent before a handshake succeeded, or after a disconnect.
    public static let bayeuxNotConnected: Self = "bayeux.notConnected"
    /// A Bayeux subscribe, unsubscribe or publish was answered with `successful: false`.
    public static let bayeuxUnsuccessful: Self = "bayeux.unsuccessful"
}
