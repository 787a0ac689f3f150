public import Foundation

/// What a GMS callback service answers: an action for the app to perform and the UI that goes with it.
///
/// ```swift
/// let dialog = try await service.dialog(for: push)
/// switch dialog.content {
/// case .menu(let menu): show(menu.groups)
/// case .startChat(let chat): startChat(chat)
/// case .dialNumber(let dial): call(dial.telURL)
/// case .confirmation(let confirmation): alert(confirmation.text)
/// default: log(dialog.action)          // an action this version does not know: reported, not fatal
/// }
/// ```
///
/// Decoding is lenient: `_dialog_id`, `_dialogId` and `dialogId` are the same key (GMS documents snake case,
/// the public Android sample uses camel case), unknown keys are ignored, and numbers may come as strings.
/// ``jsonValue`` is the object as received, so decode → encode gives equal JSON.
public struct Dialog: JSONConvertible, Codable, Hashable {
    /// The action (`_action`).
    public var action: DialogAction
    /// The dialog's id (`_dialog_id`).
    public var dialogID: String?
    /// The GMS service id (`_id`), reused as the chat's service id.
    public var serviceID: String?
    /// A title (menu) or a line to show while acting (dial) (`_label`).
    public var label: String?
    /// When the dialog stops being valid (`_expires`), as sent; see ``expiryDate``.
    public var expires: String?
    /// Where the dialog can be fetched again (`_resource_url`).
    public var resourceURL: String?
    /// An error the service reports (`error`); empty or absent when none.
    public var error: String?
    /// What the action carries.
    public var content: Content
    /// The dialog as received.
    public let jsonValue: JSONValue

    /// What each action carries.
    public enum Content: Sendable, Hashable {
        /// `DisplayMenu`: groups of choices.
        case menu(DialogMenu)
        /// `StartChat`: where and how to open a chat.
        case startChat(StartChat)
        /// `DialNumber`: a number to call.
        case dialNumber(DialNumber)
        /// `ConfirmationDialog`: a message with an OK button.
        case confirmation(ConfirmationDialog)
        /// `MenuItem`: a single choice sent on its own.
        case menuItem(MenuItem)
        /// An action this version does not know; the dialog's ``Dialog/jsonValue`` has everything.
        case unknown(String)
    }

    /// Decodes a dialog object.
    /// - Throws: ``ParleyError/Code/typeMismatch`` when it is not an object, ``ParleyError/Code/missingField``
    ///   when it has no `_action`.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else {
            throw ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath())
        }
        let fields = LenientObject(object)
        guard let action = fields.string("_action") else {
            throw ParleyError(.missingField, "missing required field \"_action\"", path: JSONPath([.key("_action")]))
        }
        self.action = DialogAction(rawValue: action)
        dialogID = fields.string("_dialog_id")
        serviceID = fields.string("_id")
        label = fields.string("_label")
        expires = fields.string("_expires")
        resourceURL = fields.string("_resource_url")
        error = fields.string("error")
        jsonValue = json
        switch self.action {
        case .displayMenu: content = .menu(DialogMenu(fields))
        case .startChat: content = .startChat(StartChat(fields))
        case .dialNumber: content = .dialNumber(DialNumber(fields))
        case .confirmationDialog: content = .confirmation(ConfirmationDialog(fields))
        case .menuItem: content = .menuItem(MenuItem(fields))
        default: content = .unknown(action)
        }
    }

    /// Decodes a dialog from a GMS answer body, accepting the trailing commas of Genesys's published samples.
    public init(decodingLenient bytes: some Collection<UInt8>) throws(ParleyError) {
        try self.init(json: JSONValue(parsingLeniently: bytes))
    }

    /// Whether the action is one this version does not know.
    public var isUnknownAction: Bool {
        if case .unknown = content { return true }
        return false
    }

    /// ``expires`` as a date, when it is an ISO 8601 date-time (GMS writes `YYYY-MM-DDTHH:MM:SSZ`) or a number
    /// of milliseconds since 1970.
    public var expiryDate: Date? {
        guard let expires else { return nil }
        if let date = try? Date(expires, strategy: .iso8601) { return date }
        if let milliseconds = Double(expires) { return Date(timeIntervalSince1970: milliseconds / 1000) }
        return nil
    }

    /// Whether the dialog has expired at `date` (a dialog without a readable expiry never does).
    public func isExpired(at date: Date = Date()) -> Bool {
        expiryDate.map { $0 <= date } ?? false
    }

    /// Equal when the JSON received is.
    public static func == (lhs: Dialog, rhs: Dialog) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}

/// A dialog's `_action`. Open: an action this version does not know decodes and round-trips.
public struct DialogAction: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Show a menu of choices.
    public static let displayMenu: Self = "DisplayMenu"
    /// Open a chat.
    public static let startChat: Self = "StartChat"
    /// Call a number.
    public static let dialNumber: Self = "DialNumber"
    /// Show a message with an OK button.
    public static let confirmationDialog: Self = "ConfirmationDialog"
    /// One choice of a menu.
    public static let menuItem: Self = "MenuItem"
}

/// A `DisplayMenu` dialog's content.
public struct DialogMenu: Sendable, Hashable {
    /// The groups of choices (`_content`), in order.
    public var groups: [MenuGroup]
    /// The menu's own action URL (`_user_action_url`); GMS sends a placeholder (`…/not-used`).
    public var userActionURL: String?
    /// The menu's own method (`_method`).
    public var method: String?

    init(_ fields: LenientObject) {
        groups = (fields["_content"]?.arrayValue ?? []).compactMap(LenientObject.init).map(MenuGroup.init)
        userActionURL = fields.string("_user_action_url")
        method = fields.string("_method")
    }

    /// Every item of every group, in order.
    public var items: [MenuItem] { groups.flatMap(\.items) }
}

/// A titled group of menu items.
public struct MenuGroup: Sendable, Hashable {
    /// The title (`_group_name`).
    public var name: String?
    /// The choices (`_group_content`), in order.
    public var items: [MenuItem]

    init(_ fields: LenientObject) {
        name = fields.string("_group_name")
        items = (fields["_group_content"]?.arrayValue ?? []).compactMap(LenientObject.init).map(MenuItem.init)
    }
}

/// One choice of a menu: choosing it requests ``userActionURL``, whose answer is the next dialog.
public struct MenuItem: Sendable, Hashable {
    /// The item's id (`_dialog_id`).
    public var dialogID: String?
    /// What the user sees (`_label`).
    public var label: String?
    /// What to request when chosen (`_user_action_url`): a full URL, or a path on the GMS server.
    public var userActionURL: String?
    /// How to request it (`_method`); the service's default method when absent.
    public var method: String?
    /// Where to go after the action (`_id_to_jump_before`), such as `exit://`.
    public var jumpBefore: String?
    /// A message to show when chosen (`_confirmation_dialog`).
    public var confirmation: ConfirmationDialog?

    init(_ fields: LenientObject) {
        dialogID = fields.string("_dialog_id")
        label = fields.string("_label")
        userActionURL = fields.string("_user_action_url")
        method = fields.string("_method")
        jumpBefore = fields.string("_id_to_jump_before")
        confirmation = LenientObject(fields["_confirmation_dialog"]).map(ConfirmationDialog.init)
    }
}

/// A message for the user: a `ConfirmationDialog` action, or a menu item's `_confirmation_dialog`.
public struct ConfirmationDialog: Sendable, Hashable {
    /// The message (`_text`).
    public var text: String?
    /// The OK button's title (`_ok_title`).
    public var okTitle: String?
    /// The kind of dialog (`_dialog_type`), such as `Notification`.
    public var dialogType: String?
    /// How long to show it before dismissing it by itself (`_dismiss_timeout`, seconds).
    public var dismissTimeout: Duration?

    init(_ fields: LenientObject) {
        text = fields.string("_text")
        okTitle = fields.string("_ok_title")
        dialogType = fields.string("_dialog_type")
        // Lenient like the rest of a push payload: a time that is not 0 to a day (`1e300`, negative) is ignored.
        dismissTimeout = fields.double("_dismiss_timeout").flatMap { Duration.milliseconds(checking: $0 * 1000) }
    }
}

/// A `StartChat` dialog's content.
public struct StartChat: Sendable, Hashable {
    /// Where to create the chat interaction (`_start_chat_url`), such as `…/1/service/{id}/ixn/chat`.
    public var startChatURL: String?
    /// The CometD endpoint (`_comet_url`).
    public var cometURL: String?
    /// The `gms_user` header value to send on every chat and Comet request (`_user_header`).
    public var userHeader: String?
    /// Parameters for creating the chat (`_chat_parameters`), such as `subject`.
    public var parameters: JSONObject
    /// Where to go after the chat (`_id_to_jump_before`).
    public var jumpBefore: String?

    init(_ fields: LenientObject) {
        startChatURL = fields.string("_start_chat_url")
        cometURL = fields.string("_comet_url")
        userHeader = fields.string("_user_header")
        parameters = fields["_chat_parameters"]?.objectValue ?? [:]
        jumpBefore = fields.string("_id_to_jump_before")
    }
}

/// A `DialNumber` dialog's content.
public struct DialNumber: Sendable, Hashable {
    /// The number to call (`_tel_url`), such as `tel:+15551234`; GMS may send `n/a`.
    public var telURL: String?
    /// A code to dial once connected (`_access_code`); GMS may send `n/a`.
    public var accessCode: String?

    init(_ fields: LenientObject) {
        telURL = fields.string("_tel_url")
        accessCode = fields.string("_access_code")
    }
}
