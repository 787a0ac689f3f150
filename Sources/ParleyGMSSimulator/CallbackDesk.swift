import Foundation
import ParleyGenesys

/// The simulator's callback services: an in-memory store of callbacks, time slots of
/// ``GMSSimulatorConfiguration/callbackBucket`` taking ``GMSSimulatorConfiguration/callbackBucketCapacity``
/// scheduled callbacks each, round the clock, and GMS-shaped answers and error bodies.
actor CallbackDesk {
    /// An answer: HTTP status and JSON body.
    struct Answer: Sendable {
        var status: Int
        var body: JSONValue
    }

    private struct Callback {
        var id: String
        var service: String
        var customerNumber: String
        var desiredTime: Date?
        var properties: [String: String]
    }

    /// The exception class GMS names in its callback error bodies.
    static let exception = "com.genesyslab.gsg.services.callback.CallbackException"

    private let configuration: GMSSimulatorConfiguration
    private let now: @Sendable () -> Date
    private var callbacks: [String: Callback] = [:]
    private var nextNumber = 1
    /// The APNs notifications GMS would have sent, in order: `{"deviceToken", "payload": {"aps", "message"}}`.
    private(set) var pushes: [JSONValue] = []

    init(configuration: GMSSimulatorConfiguration, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.now = now
    }

    private var bucket: TimeInterval {
        let components = configuration.callbackBucket.components
        return max(60, Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    // MARK: Operations

    func start(service: String, fields: [String: String]) -> Answer {
        guard let number = fields["_customer_number"], !number.isEmpty else {
            return Self.failure(400, "Missing mandatory parameter: _customer_number")
        }
        var desired: Date?
        if let text = fields["_desired_time"] {
            switch check(text, field: "_desired_time", excluding: nil) {
            case .failure(let answer): return answer
            case .success(let date): desired = date
            }
        }
        let id = String(format: "SIMCB%08d", nextNumber)
        nextNumber += 1
        var properties = fields
        for key in ["_customer_number", "_desired_time"] { properties[key] = nil }
        callbacks[id] = Callback(
            id: id, service: service, customerNumber: number, desiredTime: desired, properties: properties)
        notifyIfAsked(id: id, properties)
        let text =
            desired.map { "Your callback is scheduled for \(GMSTime.string($0))" }
            ?? "You will receive the call shortly"
        return Answer(
            status: 200,
            body: [
                "_id": .string(id), "_dialog_id": "0", "_action": "ConfirmationDialog", "_text": .string(text),
                "_ok_title": "Ok",
            ])
    }

    func availability(service: String, fields: [String: String]) -> Answer {
        var start = now()
        if let text = fields["start"] {
            guard let date = GMSTime.date(text) else { return Self.failure(400, "Invalid start time: \(text)") }
            start = max(start, date)
        }
        var end = start.addingTimeInterval(86_400 * Double(max(1, Int(fields["number-of-days"] ?? "") ?? 1)))
        if let text = fields["end"] {
            guard let date = GMSTime.date(text), date > start else {
                return Self.failure(400, "Invalid end time: \(text)")
            }
            end = date
        }
        let limit = Int(fields["max-time-slots"] ?? "") ?? Int.max
        return Answer(status: 200, body: .object(slots(from: start, to: end, limit: limit, excluding: nil)))
    }

    func query(id: String) -> Answer {
        Answer(status: 200, body: .array(callbacks[id].map { [record($0)] } ?? []))
    }

    func query(service: String, fields: [String: String]) -> Answer {
        let or = fields["operand"]?.uppercased() == "OR"
        var wanted = fields
        wanted["operand"] = nil
        let found = callbacks.values.filter { $0.service == service }.sorted { $0.id < $1.id }.filter { callback in
            let record = record(callback).objectValue ?? [:]
            let matches = wanted.map { record[$0.key]?.stringValue == $0.value }
            return wanted.isEmpty || (or ? matches.contains(true) : !matches.contains(false))
        }
        return Answer(status: 200, body: .array(found.map(record)))
    }

    func cancel(service: String, id: String) -> Answer {
        guard let callback = callbacks[id], callback.service == service else { return Self.notFound(id) }
        callbacks[id] = nil
        return Answer(status: 200, body: .null)
    }

    func reschedule(service: String, id: String, fields: [String: String]) -> Answer {
        guard var callback = callbacks[id], callback.service == service else { return Self.notFound(id) }
        guard let text = fields["_new_desired_time"] else {
            return Self.failure(400, "Missing mandatory parameter: _new_desired_time")
        }
        switch check(text, field: "_new_desired_time", excluding: id) {
        case .failure(let answer): return answer
        case .success(let date): callback.desiredTime = date
        }
        for (key, value) in fields where key != "_new_desired_time" { callback.properties[key] = value }
        callbacks[id] = callback
        return Answer(status: 200, body: record(callback))
    }

    // MARK: Slots

    private enum Check {
        case success(Date)
        case failure(Answer)
    }

    /// A desired time must read as ISO 8601, not have passed, and fall in a bucket with room.
    private func check(_ text: String, field: String, excluding id: String?) -> Check {
        guard let date = GMSTime.date(text) else { return .failure(Self.failure(400, "Invalid \(field): \(text)")) }
        guard date >= now() else {
            return .failure(Self.failure(400, "Invalid \(field): \(text) is in the past"))
        }
        let start = bucketStart(date)
        guard booked(start, excluding: id) < configuration.callbackBucketCapacity else {
            var body: JSONObject = [
                "message": "Requested time slot is not available", "exception": .string(Self.exception),
            ]
            body.append("availability", .object(slots(from: date, to: date + 86_400, limit: 5, excluding: id)))
            return .failure(Answer(status: 400, body: .object(body)))
        }
        return .success(date)
    }

    private func bucketStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / bucket).rounded(.down) * bucket)
    }

    private func booked(_ start: Date, excluding id: String?) -> Int {
        callbacks.values.filter { $0.id != id && $0.desiredTime.map(bucketStart) == start }.count
    }

    /// The buckets from the first that starts at or after `start` up to `end`, with room left, `limit` at most.
    private func slots(from start: Date, to end: Date, limit: Int, excluding id: String?) -> JSONObject {
        var slots: JSONObject = [:]
        var slot = bucketStart(start)
        if slot < start { slot += bucket }
        while slot < end, slots.count < limit {
            let free = configuration.callbackBucketCapacity - booked(slot, excluding: id)
            if free > 0 { slots.append(GMSTime.string(slot), .number(Double(free))) }
            slot += bucket
        }
        return slots
    }

    // MARK: Wire

    private func record(_ callback: Callback) -> JSONValue {
        var object: JSONObject = [
            "_id": .string(callback.id), "_service_name": .string(callback.service),
            "_callback_state": callback.desiredTime == nil ? "QUEUED" : "SCHEDULED",
            "_customer_number": .string(callback.customerNumber),
        ]
        if let desired = callback.desiredTime { object.append("_desired_time", .string(GMSTime.string(desired))) }
        for (key, value) in callback.properties.sorted(by: { $0.key < $1.key }) where object[key] == nil {
            object.append(key, .string(value))
        }
        return .object(object)
    }

    /// An iOS device that asked to confirm it is ready (`_device_os=ios`, `_device_notification_id`,
    /// `_wait_for_user_confirm=true`) is told at once that an agent is available: the simulator's agent always is.
    /// The push is what GMS's iOS documentation shows: an `aps` alert and a `message` naming `_id` and `_action`
    /// (a JSON string, as GMS's pushes to Android carry it). A chat callback (`_media_type=chat`) names the
    /// simulator's own menu with a "Chat now" choice; a voice one names the documented confirmation menu.
    private func notifyIfAsked(id: String, _ properties: [String: String]) {
        guard properties["_device_os"]?.lowercased() == "ios", let token = properties["_device_notification_id"],
            !token.isEmpty, properties["_wait_for_user_confirm"]?.lowercased() == "true"
        else { return }
        let action =
            properties["_media_type"]?.lowercased() == "chat"
            ? "get-dialog-user-confirmation-chat"
            : "get-dialog-user-confirmation-provide_code-\(properties["_provide_code"]?.lowercased() == "true")"
        let message: JSONValue = ["_id": .string(id), "_action": .string(action)]
        pushes.append([
            "deviceToken": .string(token),
            "payload": [
                "aps": [
                    "alert": ["title": "Agent is available right now", "body": "Are you ready?"], "sound": "default",
                ],
                "message": .string(message.jsonString()),
            ],
        ])
    }

    private static func notFound(_ id: String) -> Answer {
        failure(404, "Callback not found: \(id)")
    }

    private static func failure(_ status: Int, _ message: String) -> Answer {
        Answer(status: status, body: ["message": .string(message), "exception": .string(exception)])
    }
}
