import Foundation
import ParleyGenesys
import Testing

@Suite("Callback service")
struct CallbackServiceTests {
    static let server = URL(string: "http://135.34.145.123:8080")!

    @Test func urlIsServerPathIdAction() {
        let service = CallbackService(configuration: .init(serverURL: Self.server))
        let push = CallbackPush(serviceID: "3SQI3S31693JL9L3R0O5O6T4OC000U73", action: "get-dialog-start-chat")
        #expect(
            service.url(for: push).absoluteString
                == "http://135.34.145.123:8080/genesys/1/service/3SQI3S31693JL9L3R0O5O6T4OC000U73/get-dialog-start-chat"
        )
        let odd = CallbackService(configuration: .init(serverURL: URL(string: "http://h:1/")!, urlPath: "gms/service"))
        #expect(
            odd.url(for: push).absoluteString
                == "http://h:1/gms/service/3SQI3S31693JL9L3R0O5O6T4OC000U73/get-dialog-start-chat")
    }

    @Test func pushDialogIsPostedWithTheUserHeader() async throws {
        let web = ScriptedWebClient { _ in .json(SeedExamples.connectOutbound) }
        let service = CallbackService(configuration: .init(serverURL: Self.server, gmsUser: "user-42"), web: web)
        let dialog = try await service.dialog(for: CallbackPush(serviceID: "S1", action: "connect-outbound"))
        #expect(dialog.action == .confirmationDialog)
        let requests = await web.requests
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://135.34.145.123:8080/genesys/1/service/S1/connect-outbound")
        #expect(request.headers["gms_user"] == "user-42")
    }

    @Test func getIsSupported() async throws {
        let web = ScriptedWebClient { _ in .json(SeedExamples.waitForAgent) }
        let service = CallbackService(configuration: .init(serverURL: Self.server, defaultMethod: "GET"), web: web)
        _ = try await service.dialog(for: CallbackPush(serviceID: "S1", action: "wait-for-agent"))
        _ = try await service.dialog(for: CallbackPush(serviceID: "S1", action: "wait-for-agent"), method: "POST")
        let requests = await web.requests
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests[0].body == nil)
        #expect(requests[0].headers["gms_user"] == nil)
    }

    @Test func menuToConnect() async throws {
        let menu = SeedExamples.confirmationProvideCodeTrue.replacingOccurrences(
            of: "$(ExtURLBase)", with: "http://gms.example/genesys"
        ).replacingOccurrences(of: "$(ServiceID)", with: "S1")
        let web = ScriptedWebClient { request in
            switch request.url.lastPathComponent {
            case "get-dialog-user-confirmation-provide_code-true": .json(menu)
            case "connect": .json(SeedExamples.connectInbound)
            default: WebResponse(status: 404)
            }
        }
        let service = CallbackService(configuration: .init(serverURL: Self.server, gmsUser: "u"), web: web)
        let first = try await service.dialog(
            for: CallbackPush(serviceID: "S1", action: "get-dialog-user-confirmation-provide_code-true"))
        guard case .menu(let choices) = first.content else {
            Issue.record("expected a menu")
            return
        }
        let ready = try #require(choices.items.first)
        let next = try await service.choose(ready)
        guard case .dialNumber(let dial) = next.content else {
            Issue.record("expected DialNumber, got \(next.content)")
            return
        }
        #expect(dial.telURL == "n/a")
        let requests = await web.requests
        #expect(requests.map(\.url.absoluteString).last == "http://gms.example/genesys/1/service/S1/connect")
        #expect(requests.map(\.method) == ["POST", "POST"])
        #expect(requests.allSatisfy { $0.headers["gms_user"] == "u" })
    }

    @Test func relativeItemURLsResolveAgainstTheServer() async throws {
        let web = ScriptedWebClient { _ in .json(SeedExamples.connectOutbound) }
        let service = CallbackService(configuration: .init(serverURL: Self.server, defaultMethod: "GET"), web: web)
        let item = try Dialog(
            decoding:
                #"{"_action":"DisplayMenu","_content":[{"_group_content":[{"_label":"x","_user_action_url":"/genesys/1/service/S1/connect-outbound"}]}]}"#
        )
        guard case .menu(let menu) = item.content else {
            Issue.record("expected a menu")
            return
        }
        _ = try await service.choose(menu.items[0])
        let requests = await web.requests
        #expect(
            requests.first?.url.absoluteString == "http://135.34.145.123:8080/genesys/1/service/S1/connect-outbound")
        #expect(requests.first?.method == "GET")
    }

    @Test func errorsHaveStableCodes() async throws {
        let failing = CallbackService(
            configuration: .init(serverURL: Self.server), web: ScriptedWebClient { _ in WebResponse(status: 500) })
        await #expect(throws: ParleyError.self) {
            try await failing.dialog(for: CallbackPush(serviceID: "S", action: "a"))
        }
        do {
            _ = try await failing.dialog(for: CallbackPush(serviceID: "S", action: "a"))
        } catch {
            #expect(error.code == .gmsHTTPStatus)
        }
        let garbage = CallbackService(
            configuration: .init(serverURL: Self.server), web: ScriptedWebClient { _ in .json("<html>") })
        do {
            _ = try await garbage.dialog(for: CallbackPush(serviceID: "S", action: "a"))
        } catch {
            #expect(error.code == .gmsBadResponse)
        }
    }
}
