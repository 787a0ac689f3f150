public import ParleyCore

extension ParleyError.Code {
    // MARK: Talking to a language model (see docs/skills.md, "Language models")

    /// The model's endpoint cannot be reached: the connection was refused, the name does not resolve, TLS failed.
    public static let llmUnreachable: Self = "llm.unreachable"
    /// The endpoint refused the request with HTTP 4xx (other than 429): a wrong key, an unknown model, a request
    /// it does not accept.
    public static let llmRejected: Self = "llm.rejected"
    /// The endpoint failed with HTTP 5xx, or reported an error inside its stream.
    public static let llmFailed: Self = "llm.failed"
    /// The endpoint answered HTTP 429 and its `Retry-After` was longer than the turn could wait.
    public static let llmRateLimited: Self = "llm.rateLimited"
    /// The endpoint's stream is not a chat-completions event stream (not `data:` lines of JSON chunks).
    public static let llmMalformedStream: Self = "llm.malformedStream"
    /// The endpoint's stream stopped before its end (no `finish_reason` nor `[DONE]`): what came is kept.
    public static let llmStreamCut: Self = "llm.streamCut"
    /// The turn took longer than the configured `timeoutSeconds`.
    public static let llmTimeout: Self = "llm.timeout"
    /// The model called tools more times in one turn than `maxToolSteps` allows.
    public static let llmToolSteps: Self = "llm.toolSteps"
    /// The turn used more tokens than `maxTokensPerTurn` allows.
    public static let llmTokenLimit: Self = "llm.tokenLimit"
    /// The conversation has used the tokens `maxTokensPerDay` allows it today (UTC); the model is not asked.
    public static let llmDailyLimit: Self = "llm.dailyLimit"
}
