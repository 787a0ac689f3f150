public import Foundation

/// The GMS Callback Services API: `{ServerURL}{URLPath}callback/{service}` (by default
/// `/genesys/1/service/callback/{service}`), where `{service}` is the callback service's execution name.
///
/// ```swift
/// let slots = try await service.availability(of: "callback-for-mobile", days: 1)
/// let ticket = try await service.startCallback("callback-for-mobile", customerNumber: "+15551234",
///                                              at: slots.first?.start)
/// try await service.rescheduleCallback("callback-for-mobile", id: ticket.id, to: slots[1].start)
/// try await service.cancelCallback("callback-for-mobile", id: ticket.id)
/// ```
///
/// A refusal is a ``ParleyError`` whose `underlying` is the ``CallbackFailure`` GMS sent:
/// ``ParleyError/Code/gmsCallbackNotFound``, ``ParleyError/Code/gmsSlotUnavailable``,
/// ``ParleyError/Code/gmsInvalidTime`` or ``ParleyError/Code/gmsCallbackRefused``.
extension CallbackService {
    /// The answer to ``startCallback(_:customerNumber:at:properties:)``.
    public struct Ticket: Sendable, Hashable {
        /// The new callback's id (`_id`).
        public var id: String
        /// The dialog GMS sent with it (GMS answers with a `ConfirmationDialog`), when the answer has an `_action`.
        public var dialog: Dialog?
        /// The answer as received.
        public var jsonValue: JSONValue

        /// A ticket with its parts (for test doubles; the service reads its own from GMS's answer).
        public init(id: String, dialog: Dialog? = nil, jsonValue: JSONValue = .null) {
            self.id = id
            self.dialog = dialog
            self.jsonValue = jsonValue
        }
    }

    /// How ``callbacks(_:matching:operand:)`` combines its properties (`operand`).
    public struct QueryOperand: OpenString {
        /// The wire form.
        public let rawValue: String
        /// A value from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every property must match.
        public static let and: Self = "AND"
        /// Any property may match.
        public static let or: Self = "OR"
    }

    /// Starts a callback: now (`_desired_time` absent) or at a time.
    ///
    /// `POST …/callback/{service}` with the form `_customer_number`, `_desired_time` (ISO 8601 UTC, with
    /// milliseconds) and `properties` (such as `_call_direction`, `_media_type`, `_device_notification_id`).
    /// - Throws: ``ParleyError/Code/invalidValue`` for an empty number; ``ParleyError/Code/gmsSlotUnavailable``,
    ///   ``ParleyError/Code/gmsInvalidTime``, ``ParleyError/Code/gmsCallbackRefused``; what ``dialog(at:method:)``
    ///   throws for the transport and the answer.
    public func startCallback(
        _ service: String, customerNumber: String, at desiredTime: Date? = nil, properties: [String: String] = [:]
    ) async throws(ParleyError) -> Ticket {
        guard !customerNumber.isEmpty else {
            throw ParleyError(.invalidValue, "a callback needs a customer number")
        }
        var fields = [("_customer_number", customerNumber)]
        if let desiredTime { fields.append(("_desired_time", GMSTime.string(desiredTime))) }
        fields += properties.sorted { $0.key < $1.key }.filter {
            !["_customer_number", "_desired_time"].contains($0.key)
        }.map {
            ($0.key, $0.value)
        }
        let json = try await callbackRequest("POST", try callbackURL(service), fields: fields)
        guard let id = LenientObject(json)?.string("_id"), !id.isEmpty else {
            throw ParleyError(.gmsBadResponse, "GMS started a callback on \(service) but sent no _id")
        }
        let dialog = LenientObject(json)?.string("_action") == nil ? nil : try? Dialog(json: json)
        return Ticket(id: id, dialog: dialog, jsonValue: json)
    }

    /// The free slots of a callback service: `GET …/callback/{service}/availability` with `start`,
    /// `number-of-days`, `end` and `max-time-slots` (each sent only when given; GMS's defaults apply otherwise).
    /// - Returns: The slots GMS lists, sorted by start.
    /// - Throws: ``ParleyError/Code/gmsInvalidTime`` for times GMS refuses, and what a callback request throws.
    public func availability(
        of service: String, from start: Date? = nil, days: Int? = nil, until end: Date? = nil, maxSlots: Int? = nil
    ) async throws(ParleyError) -> [TimeSlot] {
        var query: [(String, String)] = []
        if let start { query.append(("start", GMSTime.string(start))) }
        if let days { query.append(("number-of-days", String(days))) }
        if let end { query.append(("end", GMSTime.string(end))) }
        if let maxSlots { query.append(("max-time-slots", String(maxSlots))) }
        let url = try callbackURL(service, "availability", query: query)
        return TimeSlot.slots(from: try await callbackRequest("GET", url))
    }

    /// One callback by id: `GET …/callback?_id={id}` (GMS answers with a list).
    /// - Throws: ``ParleyError/Code/gmsCallbackNotFound`` when GMS knows no such callback (a list without it, or
    ///   an error), and what a callback request throws.
    public func callback(id: String) async throws(ParleyError) -> CallbackRecord {
        let json = try await callbackRequest("GET", try callbackURL(nil, query: [("_id", id)]))
        let records = try Self.records(json)
        guard let record = records.first(where: { $0.id == id }) else {
            throw ParleyError(.gmsCallbackNotFound, "GMS knows no callback \(id)")
        }
        return record
    }

    /// The callbacks of a service whose properties match: `GET …/callback/{service}?operand=AND&key=value…`,
    /// such as `["_customer_number": "+15551234"]`.
    public func callbacks(
        _ service: String, matching properties: [String: String], operand: QueryOperand = .and
    ) async throws(ParleyError) -> [CallbackRecord] {
        let query = [("operand", operand.rawValue)] + properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return try Self.records(try await callbackRequest("GET", try callbackURL(service, query: query)))
    }

    /// Cancels a callback: `DELETE …/callback/{service}/{id}`.
    /// - Throws: ``ParleyError/Code/gmsCallbackNotFound`` when GMS knows no such callback, and what a callback
    ///   request throws.
    public func cancelCallback(_ service: String, id: String) async throws(ParleyError) {
        _ = try await callbackRequest("DELETE", try callbackURL(service, id))
    }

    /// Moves a callback to another time: `PUT …/callback/{service}/{id}` with the form `_new_desired_time` and
    /// `properties`.
    /// - Throws: ``ParleyError/Code/gmsCallbackNotFound``, ``ParleyError/Code/gmsSlotUnavailable`` (the
    ///   ``CallbackFailure`` lists the slots GMS offers instead), ``ParleyError/Code/gmsInvalidTime``, and what a
    ///   callback request throws.
    public func rescheduleCallback(
        _ service: String, id: String, to desiredTime: Date, properties: [String: String] = [:]
    ) async throws(ParleyError) {
        let fields =
            [("_new_desired_time", GMSTime.string(desiredTime))]
            + properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        _ = try await callbackRequest("PUT", try callbackURL(service, id), fields: fields)
    }

    // MARK: Requests

    /// `{ServerURL}{URLPath}callback[/{service}[/{id}]][?query]`, each part percent-encoded.
    func callbackURL(
        _ service: String?, _ last: String? = nil, query: [(String, String)] = []
    ) throws(ParleyError) -> URL {
        var text = configuration.serverURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        var path = configuration.urlPath
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        text += path + "callback"
        for part in [service, last].compactMap(\.self) {
            guard !part.isEmpty, let escaped = part.addingPercentEncoding(withAllowedCharacters: Self.segment) else {
                throw ParleyError(.invalidValue, "\"\(part)\" cannot be part of a callback URL")
            }
            text += "/" + escaped
        }
        if !query.isEmpty { text += "?" + FormEncoding.encode(query) }
        guard let url = URL(string: text) else {
            throw ParleyError(.invalidValue, "\(text) is not a URL")
        }
        return url
    }

    private static let segment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))

    /// Sends one callback request and returns its JSON (`null` for an empty body), or throws the mapped error.
    private func callbackRequest(
        _ method: String, _ url: URL, fields: [(String, String)]? = nil
    ) async throws(ParleyError) -> JSONValue {
        var headers = configuration.headers
        if let user = configuration.gmsUser { headers["gms_user"] = user }
        var request = WebRequest(method: method, url: url, headers: headers)
        if let fields { request = .form(method, url: url, fields: fields, headers: headers) }
        let response: WebResponse
        do {
            response = try await web.send(request)
        } catch {
            throw ParleyError(.connectionFailed, "\(method) \(url) failed: \(error)", underlying: error)
        }
        guard response.isSuccess else { throw Self.error(for: response, method: method, url: url) }
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .null }
        do {
            return try JSONValue(parsingLeniently: response.body)
        } catch {
            throw ParleyError(.gmsBadResponse, "\(method) \(url) did not answer with JSON: \(error)", underlying: error)
        }
    }

    private static func records(_ json: JSONValue) throws(ParleyError) -> [CallbackRecord] {
        guard let array = json.arrayValue ?? (json == .null ? [] : nil) else {
            throw ParleyError(.gmsBadResponse, "a callback query answered \(json.typeName), not a list")
        }
        var records: [CallbackRecord] = []
        for (index, element) in array.enumerated() {
            do {
                records.append(try CallbackRecord(json: element))
            } catch {
                throw ParleyError(.gmsBadResponse, "callback \(index) is not a record: \(error.message)")
            }
        }
        return records
    }

    /// Maps a refusal to a code. GMS publishes no error codes, so the rules read what it does send: the status,
    /// an `availability` offer, and the sentence (see `docs/genesys.md`).
    static func error(for response: WebResponse, method: String, url: URL) -> ParleyError {
        let failure = CallbackFailure(status: response.status, body: response.body)
        let sentence = (failure.message ?? "").lowercased()
        let said = failure.message.map { ": \($0)" } ?? ""
        let code: ParleyError.Code
        if response.status >= 500 {
            code = .gmsHTTPStatus  // GMS failed, whatever its sentence says ("Read timed out" is not a bad time)
        } else if response.status == 404
            || ["not found", "does not exist", "unknown callback"].contains(where: sentence.contains)
        {
            code = .gmsCallbackNotFound
        } else if !failure.availability.isEmpty || sentence.contains("not available") || sentence.contains(" full") {
            code = .gmsSlotUnavailable
        } else if !sentence.contains("missing") && (sentence.contains("time") || sentence.contains("date")) {
            code = .gmsInvalidTime
        } else if failure.message != nil {
            code = .gmsCallbackRefused
        } else {
            code = .gmsHTTPStatus
        }
        return ParleyError(code, "\(method) \(url) answered HTTP \(response.status)\(said)", underlying: failure)
    }
}
