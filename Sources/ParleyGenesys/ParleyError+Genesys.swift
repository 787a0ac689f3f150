extension ParleyError.Code {
    /// A GMS request got an HTTP status other than 2xx; the message carries the status and the URL.
    public static let gmsHTTPStatus: Self = "gms.httpStatus"
    /// A GMS answer is not what the API promises (not HTTP, not JSON, not a dialog).
    public static let gmsBadResponse: Self = "gms.badResponse"
    /// A push notification carries no `message` with `_id` and `_action`.
    public static let gmsNotACallbackPush: Self = "gms.notACallbackPush"
    /// A GMS chat call was made before ``ChatSession/start()`` or after the chat ended.
    public static let gmsChatNotActive: Self = "gms.chatNotActive"
    /// A Bayeux handshake was refused and the server's advice forbids trying again (`reconnect: none`).
    public static let bayeuxRefused: Self = "bayeux.refused"
    /// A Bayeux message was sent before a handshake succeeded, or after a disconnect.
    public static let bayeuxNotConnected: Self = "bayeux.notConnected"
    /// A Bayeux subscribe, unsubscribe or publish was answered with `successful: false`.
    public static let bayeuxUnsuccessful: Self = "bayeux.unsuccessful"
}
