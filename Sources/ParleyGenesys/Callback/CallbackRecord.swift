public import Foundation

/// A callback as GMS reports it: one element of the answer to a callback query.
///
/// GMS always returns `_id`, `_desired_time`, `_service_name`, `_callback_state`, `_expiration_time`,
/// `_customer_number` and `_url`, and `_callback_reason` when there is one; a deployment may add keys
/// (`returned-keys`), which stay in ``jsonValue``.
public struct CallbackRecord: Sendable, Hashable {
    /// The callback's id (`_id`), the one to cancel or reschedule it with.
    public var id: String
    /// The callback service it belongs to (`_service_name`).
    public var serviceName: String?
    /// Its state (`_callback_state`).
    public var state: CallbackState?
    /// Why it is in that state (`_callback_reason`), such as `CANCELLED`.
    public var reason: String?
    /// When the customer wants the call (`_desired_time`), as sent; see ``desiredDate``.
    public var desiredTime: String?
    /// When GMS forgets it (`_expiration_time`), as sent.
    public var expirationTime: String?
    /// The number to call (`_customer_number`).
    public var customerNumber: String?
    /// The callback's own URL (`_url`).
    public var url: String?
    /// The record as received.
    public let jsonValue: JSONValue

    /// Reads a record.
    /// - Throws: ``ParleyError/Code/typeMismatch`` when `json` is not an object, ``ParleyError/Code/missingField``
    ///   when it has no `_id`.
    public init(json: JSONValue) throws(ParleyError) {
        guard let fields = LenientObject(json) else {
            throw ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath())
        }
        guard let id = fields.string("_id") else {
            throw ParleyError(.missingField, "missing required field \"_id\"", path: JSONPath([.key("_id")]))
        }
        self.id = id
        serviceName = fields.string("_service_name")
        state = fields.string("_callback_state").map(CallbackState.init(rawValue:))
        reason = fields.string("_callback_reason")
        desiredTime = fields.string("_desired_time")
        expirationTime = fields.string("_expiration_time")
        customerNumber = fields.string("_customer_number")
        url = fields.string("_url")
        jsonValue = json
    }

    /// ``desiredTime`` as a date (ISO 8601, with or without milliseconds).
    public var desiredDate: Date? { desiredTime.flatMap(GMSTime.date) }

    /// Equal when the JSON received is.
    public static func == (lhs: CallbackRecord, rhs: CallbackRecord) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}

/// A callback's `_callback_state`. Open: a state this version does not know decodes and round-trips.
public struct CallbackState: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Waiting for its desired time.
    public static let scheduled: Self = "SCHEDULED"
    /// Waiting for an agent.
    public static let queued: Self = "QUEUED"
    /// Being routed to an agent.
    public static let routing: Self = "ROUTING"
    /// An agent is on it.
    public static let processing: Self = "PROCESSING"
    /// Done, for the reason in ``CallbackRecord/reason`` (`CANCELLED`, say).
    public static let completed: Self = "COMPLETED"
}

/// A bookable time: one entry of a callback service's availability.
public struct TimeSlot: Sendable, Hashable {
    /// When the slot starts.
    public var start: Date
    /// How many more callbacks GMS will take in it.
    public var capacity: Int

    /// A slot.
    public init(start: Date, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// Reads GMS's availability object, `{"2026-11-25T14:00:00.000Z": 5, …}`, sorted by start; members whose key
    /// is not a time or whose value is not a count are skipped.
    public static func slots(from json: JSONValue) -> [TimeSlot] {
        guard let object = json.objectValue else { return [] }
        return object.compactMap { member -> TimeSlot? in
            guard let start = GMSTime.date(member.key), let capacity = LenientObject.int(member.value) else {
                return nil
            }
            return TimeSlot(start: start, capacity: capacity)
        }.sorted { $0.start < $1.start }
    }
}

/// What GMS answered to a callback request it refused: the `underlying` error of the ``ParleyError`` thrown.
///
/// GMS's error body is `{"message": …, "exception": …}`; a refused time also carries `availability`, the slots
/// GMS offers instead (the public Android sample reads these four keys, `error` among them).
public struct CallbackFailure: Error, Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// GMS's sentence (`message`, or `error` when there is no `message`).
    public var message: String?
    /// The Java exception GMS names (`exception`).
    public var exception: String?
    /// The slots GMS offers instead (`availability`), sorted; empty when it offers none.
    public var availability: [TimeSlot]
    /// The body as received, `null` when it is not JSON.
    public var jsonValue: JSONValue

    /// Reads a GMS error answer.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        jsonValue = (try? JSONValue(parsingLeniently: body)) ?? .null
        let fields = LenientObject(jsonValue)
        message = fields?.string("message") ?? fields?.string("error")
        exception = fields?.string("exception")
        availability = fields?["availability"].map(TimeSlot.slots(from:)) ?? []
    }
}

/// GMS's time format: ISO 8601 in UTC, with milliseconds when written (`2026-11-25T14:00:00.000Z`). The `--gms`
/// simulator reads and writes it too.
package enum GMSTime {
    package static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    package static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: .iso8601)
    }
}
