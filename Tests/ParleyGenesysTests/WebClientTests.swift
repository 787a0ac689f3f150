#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import Testing

    @testable import ParleyGenesys

    /// On Linux, `URLSessionWebClient` gives up on a request a second after its timeout even if
    /// swift-corelibs-foundation never answers it (seen under load: a Bayeux long poll left hanging for two minutes).
    @Suite struct WebClientTests {
        @Test func aRequestThatNeverEndsFailsAsTimedOut() async throws {
            let error = await #expect(throws: URLError.self) {
                try await URLSessionWebClient.firstOf(
                    { try await Task.sleep(for: .seconds(3600)) }, orTimeoutAfter: .milliseconds(50))
            }
            #expect(error?.code == .timedOut)
        }

        @Test func anAnswerBeforeTheLimitIsTheResult() async throws {
            let value = try await URLSessionWebClient.firstOf({ 42 }, orTimeoutAfter: .seconds(60))
            #expect(value == 42)
        }
    }
#endif
