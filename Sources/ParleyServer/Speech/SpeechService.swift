import NIOConcurrencyHelpers
import ParleyCore
import ParleySpeech

/// What the speech endpoints share: the engines, the concurrency limits, the locale mapping and the metrics.
final class SpeechService: Sendable {
    let configuration: SpeechConfiguration
    let metrics: ServerMetrics
    private let state = NIOLockedValueBox(State())

    private struct State {
        var recognitions = 0
        var recognitionsPerUser: [String: Int] = [:]
        var syntheses = 0
        var voices: [SynthesisVoice]?
    }

    init(configuration: SpeechConfiguration, metrics: ServerMetrics) {
        self.configuration = configuration
        self.metrics = metrics
    }

    // MARK: Limits

    /// A running recognition; hand it back to ``release(_:)``.
    struct Ticket: Sendable {
        fileprivate let user: String
    }

    /// Admits a recognition by a user, or throws `server.busy` (the server runs as many as it allows) or
    /// `server.rateLimited` (the user does).
    func admitRecognition(channelId: String, userId: String) throws(ParleyError) -> Ticket {
        let user = "\(channelId)\u{0}\(userId)"
        let limits = configuration
        let refusal = state.withLockedValue { state -> ParleyError? in
            if state.recognitions >= limits.maxConcurrentRecognitions {
                return ParleyError(
                    .serverBusy,
                    "the server runs as many recognitions as it allows (\(limits.maxConcurrentRecognitions)); "
                        + "try again shortly")
            }
            if state.recognitionsPerUser[user, default: 0] >= limits.maxConcurrentRecognitionsPerUser {
                return ParleyError(
                    .rateLimited,
                    "this user already runs \(limits.maxConcurrentRecognitionsPerUser) recognitions; "
                        + "wait for one to finish")
            }
            state.recognitions += 1
            state.recognitionsPerUser[user, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
        return Ticket(user: user)
    }

    /// Ends an admitted recognition.
    func release(_ ticket: Ticket) {
        state.withLockedValue { state in
            state.recognitions -= 1
            let left = state.recognitionsPerUser[ticket.user, default: 1] - 1
            state.recognitionsPerUser[ticket.user] = left > 0 ? left : nil
        }
    }

    /// Admits a synthesis, or throws `server.busy`.
    func admitSynthesis() throws(ParleyError) {
        let limit = configuration.maxConcurrentSyntheses
        let admitted = state.withLockedValue { state in
            guard state.syntheses < limit else { return false }
            state.syntheses += 1
            return true
        }
        guard admitted else {
            throw ParleyError(.serverBusy, "the server runs as many syntheses as it allows (\(limit)); try again")
        }
    }

    /// Ends an admitted synthesis.
    func releaseSynthesis() {
        state.withLockedValue { $0.syntheses -= 1 }
    }

    // MARK: Engines

    /// The recognizer, or `speech.engineUnavailable`.
    func recognizer() throws(ParleyError) -> any StreamingRecognizer {
        guard let recognizer = configuration.recognizer else {
            throw ParleyError(.speechEngineUnavailable, "this server has no speech recognizer")
        }
        return recognizer
    }

    /// The synthesiser, or `speech.engineUnavailable`.
    func synthesizer() throws(ParleyError) -> any StreamingSynthesizer {
        guard let synthesizer = configuration.synthesizer else {
            throw ParleyError(.speechEngineUnavailable, "this server has no speech synthesiser")
        }
        return synthesizer
    }

    /// The engine locale that hears `locale` on a channel: `locale` must be among the channel's offered locales,
    /// and the recognizer must have a model for it (`en-us` → `en-US`) or, failing that, for its language (`en-gb`
    /// → `en-US`).
    /// - Throws: `speech.unsupportedLocale`; `speech.engineUnavailable` when there is no recognizer.
    func engineLocale(for locale: String, on speech: ChannelSpeech) async throws(ParleyError) -> String {
        let recognizer = try recognizer()
        guard speech.offered(locale) != nil else {
            throw ParleyError(
                .speechUnsupportedLocale,
                "locale \(locale) is not offered on this channel; it offers \(speech.locales.joined(separator: ", "))"
            )
        }
        let available = await recognizer.locales()
        if let exact = available.first(where: { $0.lowercased() == locale.lowercased() }) { return exact }
        let language = Self.language(of: locale)
        if let sameLanguage = available.first(where: { Self.language(of: $0) == language }) { return sameLanguage }
        if available.isEmpty {
            throw ParleyError(
                .speechEngineUnavailable, "the \(recognizer.engine) recognizer has no model installed")
        }
        throw ParleyError(
            .speechUnsupportedLocale,
            "the \(recognizer.engine) recognizer hears \(available.joined(separator: ", ")), not \(locale)")
    }

    /// The language of a locale tag: `en` of `en-GB`.
    static func language(of locale: String) -> String {
        String(locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
    }

    /// The synthesiser's voices, asked once and kept.
    func voices() async throws(ParleyError) -> [SynthesisVoice] {
        if let voices = state.withLockedValue({ $0.voices }) { return voices }
        let voices = try await synthesizer().voices()
        state.withLockedValue { $0.voices = voices }
        return voices
    }
}
