import Foundation
import ParleyGMSSimulator
import ParleyGenesys
import ParleyServerTesting
import Testing

/// The Callback Services API against the GMS simulator served in process, on a fixed clock.
@Suite("GMS callback operations", .serialized, .timeLimit(.minutes(2)))
struct CallbackOperationsTests {
    /// The simulator's "now": 2026-11-25T10:00:00Z, a slot boundary.
    static let now = Date(timeIntervalSince1970: 1_795_600_800)
    static let service = "callback-for-mobile"

    static func withSimulator(
        web: (any WebClient)? = nil, _ body: (CallbackService) async throws -> Void
    ) async throws {
        let simulator = GMSSimulator(defaultAuthority: "127.0.0.1", now: { Self.now })
        try await InProcessServer.run(gms: simulator) { server in
            let configuration = CallbackService.Configuration(serverURL: server.url, gmsUser: "cb-user")
            try await body(
                web.map { CallbackService(configuration: configuration, web: $0) }
                    ?? CallbackService(configuration: configuration))
        }
    }

    /// Runs `operation` and returns the `ParleyError` it throws, recording an issue when it throws none.
    static func failure(_ operation: () async throws(ParleyError) -> Void) async -> ParleyError? {
        do {
            try await operation()
            Issue.record("expected an error")
            return nil
        } catch {
            return error
        }
    }

    @Test func startNowThenQueryById() async throws {
        try await Self.withSimulator { service in
            let ticket = try await service.startCallback(
                Self.service, customerNumber: "+15551234", properties: ["_call_direction": "USERTERMINATED"])
            #expect(ticket.id == "SIMCB00000001")
            guard case .confirmation(let confirmation) = ticket.dialog?.content else {
                Issue.record("expected a ConfirmationDialog, got \(String(describing: ticket.dialog))")
                return
            }
            #expect(confirmation.text == "You will receive the call shortly")
            let record = try await service.callback(id: ticket.id)
            #expect(record.id == ticket.id)
            #expect(record.state == .queued)
            #expect(record.serviceName == Self.service)
            #expect(record.customerNumber == "+15551234")
            #expect(record.desiredTime == nil)
            #expect(record.jsonValue["_call_direction"] == "USERTERMINATED")
        }
    }

    @Test func scheduleInAnAvailableSlot() async throws {
        try await Self.withSimulator { service in
            let slots = try await service.availability(of: Self.service, maxSlots: 3)
            #expect(slots.map(\.start) == [0, 900, 1800].map { Self.now.addingTimeInterval($0) })
            #expect(slots.map(\.capacity) == [1, 1, 1])
            let ticket = try await service.startCallback(Self.service, customerNumber: "+1555", at: slots[1].start)
            let record = try await service.callback(id: ticket.id)
            #expect(record.state == .scheduled)
            #expect(record.desiredDate == slots[1].start)
            #expect(record.desiredTime == "2026-11-25T10:15:00.000Z")
            let after = try await service.availability(of: Self.service, maxSlots: 3)
            #expect(after.map(\.start) == [0, 1800, 2700].map { Self.now.addingTimeInterval($0) })
            let window = try await service.availability(
                of: Self.service, from: Self.now.addingTimeInterval(3600), until: Self.now.addingTimeInterval(5400))
            #expect(window.count == 2)
            let days = try await service.availability(of: Self.service, days: 1)
            #expect(days.count == 95)
        }
    }

    @Test func aFullSlotIsRefusedWithOffers() async throws {
        try await Self.withSimulator { service in
            let time = Self.now.addingTimeInterval(1800)
            _ = try await service.startCallback(Self.service, customerNumber: "+1", at: time)
            let error = await Self.failure { () throws(ParleyError) in
                _ = try await service.startCallback(Self.service, customerNumber: "+2", at: time.addingTimeInterval(60))
            }
            #expect(error?.code == .gmsSlotUnavailable)
            let failure = try #require(error?.underlying as? CallbackFailure)
            #expect(failure.status == 400)
            #expect(failure.message == "Requested time slot is not available")
            #expect(failure.exception == "com.genesyslab.gsg.services.callback.CallbackException")
            #expect(failure.availability.count == 5)
            #expect(!failure.availability.contains { $0.start == time })
            #expect(failure.availability.first?.start == time.addingTimeInterval(900))
        }
    }

    @Test func badTimesAreRefused() async throws {
        try await Self.withSimulator { service in
            let past = await Self.failure { () throws(ParleyError) in
                _ = try await service.startCallback(Self.service, customerNumber: "+1", at: Self.now - 60)
            }
            #expect(past?.code == .gmsInvalidTime)
            #expect((past?.underlying as? CallbackFailure)?.message?.hasSuffix("is in the past") == true)
            let ticket = try await service.startCallback(Self.service, customerNumber: "+1", at: Self.now + 900)
            let reschedule = await Self.failure { () throws(ParleyError) in
                try await service.rescheduleCallback(Self.service, id: ticket.id, to: Self.now - 1)
            }
            #expect(reschedule?.code == .gmsInvalidTime)
            let window = await Self.failure { () throws(ParleyError) in
                _ = try await service.availability(of: Self.service, from: Self.now + 900, until: Self.now)
            }
            #expect(window?.code == .gmsInvalidTime)
            #expect((window?.underlying as? CallbackFailure)?.message?.hasPrefix("Invalid end time") == true)
        }
    }

    @Test func unknownIdsAreNotFound() async throws {
        try await Self.withSimulator { service in
            let cancel = await Self.failure { () throws(ParleyError) in
                try await service.cancelCallback(Self.service, id: "NOPE")
            }
            #expect(cancel?.code == .gmsCallbackNotFound)
            #expect((cancel?.underlying as? CallbackFailure)?.status == 404)
            #expect((cancel?.underlying as? CallbackFailure)?.message == "Callback not found: NOPE")
            let reschedule = await Self.failure { () throws(ParleyError) in
                try await service.rescheduleCallback(Self.service, id: "NOPE", to: Self.now + 900)
            }
            #expect(reschedule?.code == .gmsCallbackNotFound)
            let query = await Self.failure { () throws(ParleyError) in
                _ = try await service.callback(id: "NOPE")
            }
            #expect(query?.code == .gmsCallbackNotFound)
        }
    }

    @Test func cancelForgetsAndFreesTheSlot() async throws {
        try await Self.withSimulator { service in
            let ticket = try await service.startCallback(Self.service, customerNumber: "+1", at: Self.now)
            #expect(try await service.availability(of: Self.service, maxSlots: 1).first?.start == Self.now + 900)
            try await service.cancelCallback(Self.service, id: ticket.id)
            #expect(try await service.availability(of: Self.service, maxSlots: 1).first?.start == Self.now)
            let again = await Self.failure { () throws(ParleyError) in
                try await service.cancelCallback(Self.service, id: ticket.id)
            }
            #expect(again?.code == .gmsCallbackNotFound)
            let query = await Self.failure { () throws(ParleyError) in _ = try await service.callback(id: ticket.id) }
            #expect(query?.code == .gmsCallbackNotFound)
        }
    }

    @Test func rescheduleMovesTheCallback() async throws {
        try await Self.withSimulator { service in
            let first = try await service.startCallback(Self.service, customerNumber: "+1", at: Self.now + 900)
            let second = try await service.startCallback(Self.service, customerNumber: "+2", at: Self.now + 1800)
            let full = await Self.failure { () throws(ParleyError) in
                try await service.rescheduleCallback(Self.service, id: first.id, to: Self.now + 1800)
            }
            #expect(full?.code == .gmsSlotUnavailable)
            // Its own slot is not counted against it.
            try await service.rescheduleCallback(Self.service, id: first.id, to: Self.now + 1000)
            try await service.rescheduleCallback(Self.service, id: first.id, to: Self.now + 2700)
            #expect(try await service.callback(id: first.id).desiredDate == Self.now + 2700)
            #expect(try await service.callback(id: second.id).desiredDate == Self.now + 1800)
            let free = try await service.availability(of: Self.service, maxSlots: 3).map(\.start)
            #expect(free == [Self.now, Self.now + 900, Self.now + 3600])
        }
    }

    @Test func queryByProperties() async throws {
        try await Self.withSimulator { service in
            let a = try await service.startCallback(
                Self.service, customerNumber: "+1", properties: ["first_name": "Ann"])
            _ = try await service.startCallback(Self.service, customerNumber: "+2", properties: ["first_name": "Bob"])
            _ = try await service.startCallback("other", customerNumber: "+1")
            let mine = try await service.callbacks(Self.service, matching: ["_customer_number": "+1"])
            #expect(mine.map(\.id) == [a.id])
            let either = try await service.callbacks(
                Self.service, matching: ["first_name": "Bob", "_customer_number": "+1"], operand: .or)
            #expect(either.map(\.customerNumber) == ["+1", "+2"])
        }
    }

    @Test func otherRefusalsKeepGMSSentence() async throws {
        // The form is dropped on its way, as a broken proxy would: GMS's own "missing parameter" answer comes back.
        try await Self.withSimulator(web: FormDroppingWebClient()) { service in
            let error = await Self.failure { () throws(ParleyError) in
                _ = try await service.startCallback(Self.service, customerNumber: "+1")
            }
            #expect(error?.code == .gmsCallbackRefused)
            #expect(error?.message.hasSuffix("Missing mandatory parameter: _customer_number") == true)
        }
        let web = ScriptedWebClient { request in
            request.method == "PUT"
                ? .json(#"{"message":"Read timed out","exception":"java.net.SocketTimeoutException"}"#, status: 500)
                : WebResponse(status: 502, body: Array("<html>Bad gateway</html>".utf8))
        }
        let service = CallbackService(configuration: .init(serverURL: URL(string: "http://gms.example")!), web: web)
        let error = await Self.failure { () throws(ParleyError) in try await service.cancelCallback("s", id: "1") }
        #expect(error?.code == .gmsHTTPStatus)
        let serverError = await Self.failure { () throws(ParleyError) in
            try await service.rescheduleCallback("s", id: "1", to: Self.now)
        }
        #expect(serverError?.code == .gmsHTTPStatus)
        #expect((serverError?.underlying as? CallbackFailure)?.exception == "java.net.SocketTimeoutException")
        let empty = await Self.failure { () throws(ParleyError) in
            _ = try await service.startCallback("s", customerNumber: "")
        }
        #expect(empty?.code == .invalidValue)
        #expect(await web.requests.count == 2)
    }

    @Test func theSimulatorTakesJSONBodies() async throws {
        let simulator = GMSSimulator(defaultAuthority: "127.0.0.1", now: { Self.now })
        try await InProcessServer.run(gms: simulator) { server in
            let url = server.url.appendingPathComponent("genesys/1/service/callback/\(Self.service)")
            let body = #"{"_customer_number":"+1","_desired_time":"2026-11-25T10:15:00.000Z","_wait_for_agent":true}"#
            let response = try await URLSessionWebClient().send(
                WebRequest(
                    method: "POST", url: url, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
            #expect(response.status == 200)
            let service = CallbackService(configuration: .init(serverURL: server.url))
            let record = try await service.callback(id: "SIMCB00000001")
            #expect(record.desiredDate == Self.now + 900)
            #expect(record.jsonValue["_wait_for_agent"] == "true")
        }
    }

    @Test func wireShapes() async throws {
        let web = ScriptedWebClient { request in
            switch request.method {
            case "POST": .json(#"{"_id":"X1","_action":"ConfirmationDialog","_text":"t"}"#)
            case "GET" where request.url.path.hasSuffix("availability"): .json(#"{"2026-11-25T10:15:00.000Z":"2"}"#)
            case "GET": .json(#"[{"_id":"X1","_callback_state":"SOMETHING_NEW"}]"#)
            default: WebResponse(status: 200)
            }
        }
        let server = URL(string: "http://gms.example:8080")!
        let service = CallbackService(configuration: .init(serverURL: server, gmsUser: "u"), web: web)
        _ = try await service.startCallback("cb svc", customerNumber: "+1 555", at: Self.now + 900)
        let slots = try await service.availability(of: "cb svc", from: Self.now, days: 2, maxSlots: 4)
        #expect(slots == [TimeSlot(start: Self.now + 900, capacity: 2)])
        #expect(try await service.callback(id: "X1").state == CallbackState(rawValue: "SOMETHING_NEW"))
        _ = try await service.callbacks("cb svc", matching: ["_customer_number": "+1"])
        try await service.rescheduleCallback("cb svc", id: "X/1", to: Self.now + 1800)
        try await service.cancelCallback("cb svc", id: "X1")
        let requests = await web.requests
        let base = "http://gms.example:8080/genesys/1/service/callback"
        #expect(
            requests.map { "\($0.method) \($0.url.absoluteString)" } == [
                "POST \(base)/cb%20svc",
                "GET \(base)/cb%20svc/availability?start=2026-11-25T10%3A00%3A00.000Z"
                    + "&number-of-days=2&max-time-slots=4",
                "GET \(base)?_id=X1",
                "GET \(base)/cb%20svc?operand=AND&_customer_number=%2B1",
                "PUT \(base)/cb%20svc/X%2F1",
                "DELETE \(base)/cb%20svc/X1",
            ])
        #expect(requests.allSatisfy { $0.headers["gms_user"] == "u" })
        #expect(
            requests[0].body.map { String(decoding: $0, as: UTF8.self) }
                == "_customer_number=%2B1+555&_desired_time=2026-11-25T10%3A15%3A00.000Z")
        #expect(
            requests[4].body.map { String(decoding: $0, as: UTF8.self) }
                == "_new_desired_time=2026-11-25T10%3A30%3A00.000Z")
        #expect(requests[5].body == nil)
    }
}

/// Sends requests to the real server without their bodies.
struct FormDroppingWebClient: WebClient {
    let inner = URLSessionWebClient()

    func send(_ request: WebRequest) async throws -> WebResponse {
        var request = request
        request.body = []
        return try await inner.send(request)
    }
}
