public import CoreMetrics
import Foundation

/// A language-model skill's metrics, on `swift-metrics` (docs/deploy.md, "Metrics"): requests sent to the endpoint,
/// tokens in and out, the time to the first token, and the turns that ended in an `llm.*` error, each by `model`
/// (the configured name: few values). They go to the factory given to ``LanguageModelSkill``, which
/// `parley serve` and `buildApplication` set to the server's own.
public struct LanguageModelMetrics: Sendable {
    /// Counter: HTTP requests sent to the endpoint (a turn with tool calls sends one per step; a 429 waited out
    /// sends two), by `model`.
    public static let requests = "parley_llm_requests_total"
    /// Counter: tokens, by `model` and `direction` (`in`: the request's prompt, `out`: what the model wrote), as
    /// the endpoint reports them (`usage`), else estimated at four characters a token.
    public static let tokens = "parley_llm_tokens_total"
    /// Timer (a histogram in seconds with Prometheus): from sending a request to its first piece of text, by
    /// `model`. Requests that write no text (only tool calls) are not timed.
    public static let firstToken = "parley_llm_first_token_seconds"
    /// Counter: turns that ended with an error payload, by `model` and `code` (an `llm.*` code: a closed set).
    public static let errors = "parley_llm_errors_total"

    private let model: String
    private let factory: any MetricsFactory

    /// Metrics for `model` on `factory`.
    public init(model: String, factory: any MetricsFactory) {
        self.model = model
        self.factory = factory
    }

    func requestSent() {
        Counter(label: Self.requests, dimensions: [("model", model)], factory: factory).increment()
    }

    func tokens(in prompt: Int, out written: Int) {
        Counter(label: Self.tokens, dimensions: [("model", model), ("direction", "in")], factory: factory)
            .increment(by: max(0, prompt))
        Counter(label: Self.tokens, dimensions: [("model", model), ("direction", "out")], factory: factory)
            .increment(by: max(0, written))
    }

    func firstToken(after duration: Duration) {
        Timer(label: Self.firstToken, dimensions: [("model", model)], factory: factory).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func failed(_ code: ParleyError.Code) {
        Counter(label: Self.errors, dimensions: [("model", model), ("code", code.rawValue)], factory: factory)
            .increment()
    }
}
