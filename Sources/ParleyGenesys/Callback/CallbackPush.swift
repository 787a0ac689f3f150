import Foundation

/// A GMS callback push notification: the `message` component's service id and action.
///
/// ```swift
/// // application(_:didReceiveRemoteNotification:)
/// let push = try CallbackPush(userInfo: userInfo)
/// let dialog = try await service.dialog(for: push)
/// ```
///
/// The `message` may arrive as a JSON string (as GCM delivers it) or as an object; both decode.
public struct CallbackPush: Sendable, Hashable {
    /// The GMS-issued service id (`_id`).
    public var serviceID: String
    /// The callback action to perform (`_action`), such as `get-dialog-user-confirmation-provide_code-true`.
    public var action: String
    /// The `aps` component: the alert iOS shows the user, if the payload has one.
    public var aps: JSONValue?

    /// A push with its parts.
    public init(serviceID: String, action: String, aps: JSONValue? = nil) {
        self.serviceID = serviceID
        self.action = action
        self.aps = aps
    }

    /// Reads a notification payload: `{"aps": {…}, "message": "{\"_id\":…,\"_action\":…}"}`, or the `message`
    /// object on its own.
    /// - Throws: ``ParleyError/Code/gmsNotACallbackPush`` when there is no `_id` and `_action`.
    public init(userInfo: JSONValue) throws(ParleyError) {
        var message = userInfo["message"] ?? userInfo
        if case .string(let text) = message {
            message = (try? JSONValue(parsingLeniently: text)) ?? .null
        }
        guard let fields = LenientObject(message), let id = fields.string("_id"), let action = fields.string("_action"),
            !id.isEmpty, !action.isEmpty
        else {
            throw ParleyError(.gmsNotACallbackPush, "the notification has no message with \"_id\" and \"_action\"")
        }
        self.init(serviceID: id, action: action, aps: userInfo["aps"])
    }

    /// Reads an iOS `userInfo` dictionary.
    /// - Throws: ``ParleyError/Code/gmsNotACallbackPush`` when it is not JSON or has no `_id` and `_action`.
    public init(userInfo: [AnyHashable: Any]) throws(ParleyError) {
        var plain: [String: Any] = [:]
        for (key, value) in userInfo { if let key = key as? String { plain[key] = value } }
        guard JSONSerialization.isValidJSONObject(plain),
            let data = try? JSONSerialization.data(withJSONObject: plain),
            let json = try? JSONValue(parsing: data)
        else {
            throw ParleyError(.gmsNotACallbackPush, "the notification payload is not JSON")
        }
        try self.init(userInfo: json)
    }
}
