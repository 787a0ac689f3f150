public import CoreMetrics
public import Foundation
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
public import ParleySkills

/// A skill that answers with a language model on any OpenAI-compatible chat-completions endpoint (Ollama,
/// llama.cpp's server, vLLM, LiteLLM, hosted services), streamed as it is written.
///
/// Each request carries the configuration's instructions, the conversation's recent messages
/// (``SkillContext/history``, bounded by ``LanguageModelConfiguration/history`` and
/// ``LanguageModelConfiguration/historyTokens``) and the input. The model may call tools: the built-in
/// `offerChoices` (its choices become postback actions on the answer) and `handOffToAgent`
/// (``SkillResponse/handOff``), and the operator's tools, whose webhooks get the arguments once they match the
/// tool's schema. A turn is bounded in tool steps, tokens and time.
///
/// Failures are answers: when the endpoint is down, refuses, fails, rate-limits, sends a malformed stream, stops
/// mid-way or is too slow, the response is an `error` payload with an `llm.*` code, after the text streamed so far
/// when there is some. Only cancellation is thrown.
///
/// ```swift
/// let skill = try LanguageModelSkill(
///     configuration: LanguageModelConfiguration(url: "http://127.0.0.1:11434/v1", model: "llama3.2"))
/// for try await event in skill.stream(.message(.text("Hi!")), in: SkillContext(channelId: "web", userId: "ada")) {
///     if case .text(let piece) = event { print(piece, terminator: "") }
/// }
/// ```
public struct LanguageModelSkill: StreamingSkill {
    /// The configuration.
    public let configuration: LanguageModelConfiguration
    /// Where the requests go: ``LanguageModelConfiguration/url`` + `/chat/completions`.
    public let endpoint: HTTPEndpoint
    private let apiKey: String?
    private let limiter: RequestLimiter
    private let client = StreamingHTTPClient()
    private let logger: Logger
    private let metrics: LanguageModelMetrics

    /// The longest tool answer fed back to the model, in bytes.
    static let maximumToolAnswer = 64 * 1024
    /// The longest `Retry-After` a turn waits out once, when its timeout leaves the time.
    static let maximumRetryAfter: Duration = .seconds(10)

    /// Creates a skill.
    /// - Parameters:
    ///   - configuration: The endpoint, model and limits.
    ///   - environment: Where ``LanguageModelConfiguration/apiKeyEnvironment`` is looked up; the process's
    ///     environment by default.
    ///   - limits: The per-endpoint request limits this skill shares; the process's by default.
    ///   - logger: Where failures are logged (never the key).
    ///   - metrics: Where the requests, tokens, times to the first token and errors are counted
    ///     (``LanguageModelMetrics``); the process's `MetricsSystem` by default.
    /// - Throws: ``ParleyError`` with code `config.invalidValue` for an invalid configuration, or when the
    ///   environment has no API key under the configured name.
    public init(
        configuration: LanguageModelConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        limits: EndpointLimits = .shared, logger: Logger = Logger(label: "parley.llm"),
        metrics: any MetricsFactory = MetricsSystem.factory
    ) throws(ParleyError) {
        try configuration.validate()
        self.configuration = configuration
        endpoint = try HTTPEndpoint(configuration.url).appending("chat/completions")
        if let name = configuration.apiKeyEnvironment {
            guard let key = environment[name], !key.isEmpty else {
                throw ParleyError(
                    .invalidValue, "the environment variable \(name) (apiKeyEnvironment) is not set",
                    path: JSONPath([.key("apiKeyEnvironment")]))
            }
            apiKey = key
        } else {
            apiKey = nil
        }
        limiter = limits.limiter(for: endpoint, limit: configuration.maxConcurrentRequests)
        self.logger = logger
        self.metrics = LanguageModelMetrics(model: configuration.model, factory: metrics)
    }

    /// Answers in pieces: the text as the model writes it, then the whole response.
    public func stream(_ input: SkillInput, in context: SkillContext) -> AsyncThrowingStream<
        SkillStreamEvent, any Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await answer(input, in: context) { continuation.yield(.text($0)) }
                    continuation.yield(.response(response))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The whole answer to `input`, with `emit` called with each piece of text as it comes.
    /// - Throws: `CancellationError` only; every failure of the model is an answer.
    func answer(
        _ input: SkillInput, in context: SkillContext, emit: @escaping @Sendable (String) -> Void
    ) async throws -> SkillResponse {
        guard case .message(let payload) = input else { return SkillResponse(messages: []) }
        switch payload.content {
        case .status, .suggest: return SkillResponse(messages: [])
        case .closeSession: return SkillResponse(messages: [MessagePayload(.sessionClosed)], endsConversation: true)
        default: break
        }
        var daily = DailyTokens(in: context.state, on: context.now)
        if let limit = configuration.maxTokensPerDay, daily.used >= limit {
            metrics.failed(.llmDailyLimit)
            let refusal = ParleyError(.llmDailyLimit, Self.userMessage(for: .llmDailyLimit))
            return SkillResponse(messages: [.error(refusal)])
        }
        let turn = Turn(configuration: configuration, emit: emit)
        // With a daily bound, every answer carries the day's count into the stored state.
        func counted(_ response: SkillResponse) -> SkillResponse {
            guard configuration.maxTokensPerDay != nil else { return response }
            var response = response
            daily.used += turn.tokens + turn.promptTokens
            response.state = daily.written(into: context.state)
            return response
        }
        do {
            var messages: [ChatCompletionMessage] = []
            if let instructions = configuration.instructions {
                messages.append(ChatCompletionMessage(role: .system, content: instructions))
            }
            messages += await history(in: context)
            messages.append(ChatCompletionMessage(role: .user, content: Self.text(of: payload)))
            let start = messages
            let outcome = try await withDeadline(context.clock) {
                try await run(start, turn: turn, context: context)
            }
            let choices = outcome.choices.map { Action.postback($0, .string($0)) }
            let text = turn.text
            if text.isEmpty, !choices.isEmpty {
                return counted(SkillResponse(messages: [.text("", actions: choices)], handOff: outcome.handOff))
            }
            return counted(
                SkillResponse(
                    messages: text.isEmpty ? [] : [.text(text, actions: choices.isEmpty ? nil : choices)],
                    handOff: outcome.handOff))
        } catch let error as ParleyError {
            logger.warning(
                "the language model did not answer", metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            metrics.failed(error.code)
            let text = turn.text
            let shown = ParleyError(error.code, Self.userMessage(for: error.code))
            return counted(SkillResponse(messages: (text.isEmpty ? [] : [.text(text)]) + [.error(shown)]))
        }
    }

    /// What the model decided besides its text.
    private struct Outcome: Sendable {
        var choices: [String] = []
        var handOff = false
    }

    /// The text of a turn so far, over its tool steps, kept where a timeout can read it.
    private final class Turn: Sendable {
        private let state = NIOLockedValueBox((text: "", tokens: 0, promptTokens: 0))
        let configuration: LanguageModelConfiguration
        let emit: @Sendable (String) -> Void

        init(configuration: LanguageModelConfiguration, emit: @escaping @Sendable (String) -> Void) {
            self.configuration = configuration
            self.emit = emit
        }

        var text: String { state.withLockedValue { $0.text } }

        /// Adds a piece of this step's text, after a blank line when an earlier step said something.
        func append(_ piece: String, firstOfStep: Bool) throws(ParleyError) {
            guard !piece.isEmpty else { return }
            let added = state.withLockedValue { state in
                let separator = firstOfStep && !state.text.isEmpty ? "\n\n" : ""
                state.text += separator + piece
                state.tokens += (piece.utf8.count + 3) / 4
                return separator + piece
            }
            emit(added)
            if let limit = configuration.maxTokensPerTurn, tokens > limit {
                throw ParleyError(.llmTokenLimit, "the turn wrote more than \(limit) tokens")
            }
        }

        /// Counts the tokens the endpoint reported for a step in place of the estimate.
        func settle(estimated: Int, reported: Int?) {
            guard let reported else { return }
            state.withLockedValue { $0.tokens += reported - estimated }
        }

        var tokens: Int { state.withLockedValue { $0.tokens } }

        /// The prompt tokens of the turn's requests, as reported or estimated.
        var promptTokens: Int { state.withLockedValue { $0.promptTokens } }

        /// Counts a request's prompt tokens.
        func prompt(_ tokens: Int) {
            state.withLockedValue { $0.promptTokens += tokens }
        }
    }

    private func withDeadline<Result: Sendable>(
        _ clock: any Clock<Duration>, _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let timeout = Duration.milliseconds(Int64(configuration.timeoutSeconds * 1000))
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw ParleyError(.llmTimeout, "the model did not answer within \(configuration.timeoutSeconds) s")
            }
            return result
        }
    }

    private func run(_ start: [ChatCompletionMessage], turn: Turn, context: SkillContext) async throws -> Outcome {
        var messages = start
        var outcome = Outcome()
        var steps = 0
        while true {
            let completion = try await complete(messages, turn: turn, clock: context.clock)
            let calls = completion.toolCalls.filter { !$0.name.isEmpty }
            if calls.isEmpty { return outcome }
            guard steps < configuration.maxToolSteps else {
                throw ParleyError(.llmToolSteps, "the model called tools more than \(configuration.maxToolSteps) times")
            }
            steps += 1
            let numbered = calls.enumerated().map { index, call in
                var call = call
                if call.id.isEmpty { call.id = "call_\(steps)_\(index)" }
                return call
            }
            messages.append(
                ChatCompletionMessage(
                    role: .assistant, content: completion.content.isEmpty ? nil : completion.content,
                    toolCalls: numbered))
            var needsAnswer = false
            for call in numbered {
                let result: String
                switch call.name {
                case BuiltInTool.offerChoices where configuration.offerChoices:
                    result = offerChoices(call, into: &outcome)
                case BuiltInTool.handOffToAgent where configuration.handOff:
                    outcome.handOff = true
                    result = #"{"ok": true, "note": "A live agent takes the conversation over after your message."}"#
                default:
                    needsAnswer = true
                    result = await callTool(call, context: context)
                }
                messages.append(ChatCompletionMessage(role: .tool, content: result, toolCallId: call.id))
            }
            // Built-in tools need no answer from the model, unless it has said nothing yet.
            if !needsAnswer, !turn.text.isEmpty || outcome.handOff { return outcome }
        }
    }

    private func offerChoices(_ call: ToolCall, into outcome: inout Outcome) -> String {
        guard let arguments = try? JSONValue(parsing: call.arguments) else {
            return #"{"error": "the arguments are not JSON"}"#
        }
        let problems = JSONSchemaCheck.problems(of: arguments, against: BuiltInTool.offerChoicesParameters)
        guard problems.isEmpty, let choices = arguments["choices"]?.arrayValue?.compactMap(\.stringValue) else {
            return JSONValue.object(["error": .string(problems.joined(separator: "; "))]).jsonString()
        }
        outcome.choices = Array(choices.prefix(BuiltInTool.maximumChoices))
        return #"{"ok": true, "note": "The choices are shown as buttons under your message."}"#
    }

    /// Calls an operator tool's webhook with the model's arguments once they match its schema; the answer (or
    /// what went wrong) is the result the model reads.
    private func callTool(_ call: ToolCall, context: SkillContext) async -> String {
        func failure(_ message: String) -> String { JSONValue.object(["error": .string(message)]).jsonString() }
        guard let tool = configuration.tools.first(where: { $0.name == call.name }),
            let webhook = try? HTTPEndpoint(tool.webhook)
        else { return failure("there is no tool named \(call.name)") }
        let arguments: JSONValue
        do {
            arguments = call.arguments.isEmpty ? [:] : try JSONValue(parsing: call.arguments)
        } catch {
            return failure("the arguments are not JSON: \(error.message)")
        }
        let problems = JSONSchemaCheck.problems(of: arguments, against: tool.parameters)
        guard problems.isEmpty else { return failure("invalid arguments: " + problems.joined(separator: "; ")) }
        var body: JSONObject = [
            "tool": .string(tool.name), "arguments": arguments, "channelId": .string(context.channelId),
            "userId": .string(context.userId), "messageId": .string(context.turn.messageId),
        ]
        if let clientMessageId = context.turn.clientMessageId { body["clientMessageId"] = .string(clientMessageId) }
        do {
            let (status, bytes) = try await client.post(
                webhook, headers: [], body: JSONValue.object(body).jsonBytes()
            ) { response in try await Self.readToolAnswer(&response) }
            guard (200..<300).contains(status) else {
                logger.warning("a tool's webhook failed", metadata: ["tool": "\(tool.name)", "status": "\(status)"])
                return failure("the tool failed (HTTP \(status))")
            }
            return bytes.isEmpty ? #"{"ok": true}"# : String(decoding: bytes, as: UTF8.self)
        } catch is CancellationError {
            return failure("cancelled")
        } catch {
            logger.warning("a tool's webhook failed", metadata: ["tool": "\(tool.name)", "error": "\(error)"])
            return failure("the tool did not answer")
        }
    }

    /// A tool webhook's status and body.
    @concurrent
    private static func readToolAnswer(_ response: inout StreamingHTTPClient.Response) async throws -> (UInt, [UInt8]) {
        (response.head.status.code, try await response.collect(upTo: maximumToolAnswer))
    }

    /// One request: its text goes to `turn` as it arrives. A 429 whose `Retry-After` fits is waited out once.
    private func complete(
        _ messages: [ChatCompletionMessage], turn: Turn, clock: any Clock<Duration>
    ) async throws -> ChatCompletionAccumulator {
        var headers = [("Accept", "text/event-stream")]
        if let apiKey { headers.append(("Authorization", "Bearer \(apiKey)")) }
        let body = requestBody(messages).jsonBytes()
        var retried = false
        while true {
            let result = try await limiter.run {
                metrics.requestSent()
                let sent = ContinuousClock.now
                return try await client.post(endpoint, headers: headers, body: body) { response in
                    try await read(&response, turn: turn, promptEstimate: (body.count + 3) / 4, sent: sent)
                }
            }
            switch result {
            case .completion(let completion): return completion
            case .retry(let delay):
                guard !retried, let delay, delay <= Self.maximumRetryAfter,
                    delay < .milliseconds(Int64(configuration.timeoutSeconds * 1000))
                else {
                    let after = delay.map { " (Retry-After: \($0.components.seconds) s)" } ?? ""
                    throw ParleyError(.llmRateLimited, "the endpoint is rate-limited\(after)")
                }
                retried = true
                try await clock.sleep(for: delay)
            }
        }
    }

    private enum RequestResult: Sendable {
        case completion(ChatCompletionAccumulator)
        case retry(after: Duration?)
    }

    /// Reads one answer of the endpoint; its tokens are counted however it ends (the usage when the endpoint
    /// reported it, else the estimates), and the time to its first text is measured from `sent`.
    @concurrent
    private func read(
        _ response: inout StreamingHTTPClient.Response, turn: Turn, promptEstimate: Int, sent: ContinuousClock.Instant
    ) async throws -> RequestResult {
        let status = response.head.status.code
        guard (200..<300).contains(status) else {
            let bytes = (try? await response.collect(upTo: 16 * 1024)) ?? []
            if status == 429 {
                let after = response.head.headers.first(name: "Retry-After").flatMap { Int($0) }
                return .retry(after: after.map { .seconds(max(0, $0)) })
            }
            let detail = Self.errorMessage(in: bytes).map { ": \($0)" } ?? ""
            throw ParleyError(
                status < 500 ? .llmRejected : .llmFailed, "the endpoint answered HTTP \(status)\(detail)")
        }
        var completion = ChatCompletionAccumulator()
        let contentType = response.head.headers.first(name: "Content-Type")?.lowercased() ?? ""
        var firstOfStep = true
        var estimated = 0
        defer {
            let prompt = completion.usage?.prompt ?? promptEstimate
            turn.prompt(prompt)
            metrics.tokens(in: prompt, out: completion.usage?.completion ?? estimated)
        }
        func take(_ data: String) throws(ParleyError) {
            let piece = try completion.apply(data)
            guard !piece.isEmpty else { return }
            if firstOfStep { metrics.firstToken(after: ContinuousClock.now - sent) }
            estimated += (piece.utf8.count + 3) / 4
            try turn.append(piece, firstOfStep: firstOfStep)
            firstOfStep = false
        }
        if contentType.hasPrefix("application/json") {
            // A server that ignores `stream` answers with the whole completion.
            try take(String(decoding: try await response.collect(upTo: 4 << 20), as: UTF8.self))
        } else {
            var events = ServerSentEvents()
            while !completion.done, var buffer = try await nextOrCut(&response, completion: completion) {
                for data in try events.feed(buffer.readBytes(length: buffer.readableBytes) ?? []) {
                    try take(data)
                    if completion.done { break }
                }
            }
            if !completion.done, let last = try events.finish() { try take(last) }
        }
        guard completion.isComplete else {
            throw ParleyError(.llmStreamCut, "the endpoint's stream ended before the answer did")
        }
        turn.settle(estimated: estimated, reported: completion.usage?.completion)
        return .completion(completion)
    }

    /// The next piece of the body; a connection that fails after the completion was whole is its end.
    @concurrent
    private func nextOrCut(
        _ response: inout StreamingHTTPClient.Response, completion: ChatCompletionAccumulator
    ) async throws -> ByteBuffer? {
        do {
            return try await response.next()
        } catch let error as ParleyError where completion.isComplete && error.code == .llmStreamCut {
            return nil
        }
    }

    private func requestBody(_ messages: [ChatCompletionMessage]) -> JSONValue {
        var body: JSONObject = [
            "model": .string(configuration.model), "messages": .array(messages.map(\.jsonValue)), "stream": true,
            "stream_options": ["include_usage": true],
        ]
        if let maxTokens = configuration.maxTokens { body["max_tokens"] = .number(Double(maxTokens)) }
        if let temperature = configuration.temperature { body["temperature"] = .number(temperature) }
        let tools = BuiltInTool.definitions(for: configuration)
        if !tools.isEmpty { body["tools"] = .array(tools) }
        return .object(body)
    }

    /// The conversation's recent messages as chat messages, newest kept first within the token bound.
    private func history(in context: SkillContext) async -> [ChatCompletionMessage] {
        guard configuration.history > 0 else { return [] }
        let recent: [HistoryMessage]
        do {
            recent = try await context.history.recentMessages(limit: configuration.history)
        } catch {
            logger.warning("the conversation's history cannot be read", metadata: ["error": "\(error)"])
            return []
        }
        var kept: [ChatCompletionMessage] = []
        var tokens = 0
        for message in recent.reversed() {
            switch message.payload.content {
            case .error, .status, .sessionClosed, .closeSession, .suggest: continue
            default: break
            }
            let text = Self.text(of: message.payload)
            tokens += (text.utf8.count + 3) / 4
            if tokens > configuration.historyTokens { break }
            kept.append(ChatCompletionMessage(role: message.author == .user ? .user : .assistant, content: text))
        }
        return kept.reversed()
    }

    /// What the model reads for a payload: its text, a postback's label, a location's coordinates, an
    /// attachment's type and URL, or else the payload's JSON.
    static func text(of payload: MessagePayload) -> String {
        switch payload.content {
        case .text(let text): return text.text
        case .textStream(let stream): return stream.aggregateText ?? stream.text
        case .postback(let postback):
            return postback.text ?? postback.postback.stringValue ?? postback.postback.jsonString()
        case .location(let location):
            return "[location: \(location.latitude), \(location.longitude)\(location.title.map { ", \($0)" } ?? "")]"
        case .attachment(let attachment): return "[\(attachment.type.rawValue): \(attachment.url)]"
        default: return payload.jsonString()
        }
    }

    /// The sentence a user reads for a failure; the details are logged, not shown.
    static func userMessage(for code: ParleyError.Code) -> String {
        switch code {
        case .llmStreamCut: "The answer was cut off."
        case .llmTimeout: "The assistant took too long to answer."
        case .llmRateLimited: "The assistant is busy. Please try again in a moment."
        case .llmTokenLimit: "The answer was too long and was cut off."
        case .llmDailyLimit: "This conversation has reached its limit for today. Please come back tomorrow."
        default: "The assistant cannot answer right now."
        }
    }

    private static func errorMessage(in body: [UInt8]) -> String? {
        guard let json = try? JSONValue(parsing: body) else { return nil }
        let message =
            json["error"]?["message"]?.stringValue ?? json["error"]?.stringValue ?? json["message"]?.stringValue
        return message.map { String($0.prefix(300)) }
    }
}
