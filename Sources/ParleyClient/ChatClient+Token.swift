import Foundation

extension ChatClient {
    /// The token for the next connection: the one in hand while it stays valid for 20 more seconds (Oracle's Web
    /// SDK rule), otherwise a new one from the provider. Sets ``identity`` from its claims.
    ///
    /// Single flight: callers that need a token while the provider is already fetching one wait for that fetch.
    func currentToken() async throws(ParleyError) -> String? {
        guard configuration.tokenProvider != nil else { return nil }
        if let token, token.claims.expiresAt > Date().timeIntervalSince1970 + 20 { return token.value }
        return try await fetchToken()
    }

    /// A new token from the provider (joining a fetch in flight), checked and kept; schedules its refresh.
    @discardableResult
    func fetchToken() async throws(ParleyError) -> String {
        guard let provider = configuration.tokenProvider else {
            throw ParleyError(.tokenUnavailable, "the configuration has no token provider")
        }
        let fetch: Task<String, any Error>
        if let tokenFetch {
            fetch = tokenFetch
        } else {
            fetch = Task { try await provider() }
            tokenFetch = fetch
        }
        let value: String
        do {
            value = try await fetch.value
            if tokenFetch == fetch { tokenFetch = nil }
        } catch {
            if tokenFetch == fetch { tokenFetch = nil }
            throw ParleyError(.tokenUnavailable, "the token provider failed: \(error)", underlying: error)
        }
        let claims: TokenClaims
        do {
            claims = try TokenClaims(token: value)
        } catch {
            throw ParleyError(
                .tokenUnavailable, "the token provider returned a token without usable claims: \(error.message)",
                underlying: error)
        }
        // TokenClaims accepts only iat and exp from 1 to the year 9999: the text and the timer below cannot trap.
        let now = Date().timeIntervalSince1970
        guard claims.expiresAt > now else {
            throw ParleyError(
                .tokenExpired, "the token provider returned a token that expired at \(Int64(claims.expiresAt))")
        }
        if token?.value != value {
            token = (value, claims)
            scheduleTokenRefresh(in: .seconds(claims.expiresAt - now) - configuration.tokenRefreshMargin)
        }
        if identity != (claims.channelId, claims.userId) {
            identity = (claims.channelId, claims.userId)
            if lifecycle == .initialized { try await loadConversation() }
        }
        return value
    }

    /// Before the token expires, fetches the next one and presents it on the open socket with an `auth` frame
    /// (a socket whose token expires is closed by the server). A failure is reported once; the socket then lives
    /// until the server closes it, and reconnecting fetches again.
    private func scheduleTokenRefresh(in delay: Duration) {
        tokenRefreshTask?.cancel()
        let clock = self.clock
        tokenRefreshTask = Task {
            do {
                try await clock.sleep(for: max(delay, .zero))
            } catch {
                return
            }
            await self.refreshToken()
        }
    }

    private func refreshToken() async {
        guard connectionMachine.wantsConnection, lifecycle == .initialized else { return }
        do {
            let fresh = try await fetchToken()
            if configuration.tokenPresentation == .authFrame, let connection, status == .connected {
                try? await connection.send(StateFrame.auth(jwt: fresh).jsonString())
            }
        } catch {
            emit(.error(error))
        }
    }
}
