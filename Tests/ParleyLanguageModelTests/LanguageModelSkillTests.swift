import Foundation
import ParleyLanguageModel
import ParleySkills
import Testing

@Suite(.timeLimit(.minutes(1))) struct LanguageModelSkillTests {
    func skill(
        _ url: String, environment: [String: String] = [:], limits: EndpointLimits = EndpointLimits(),
        _ change: (inout LanguageModelConfiguration) -> Void = { _ in }
    ) throws -> LanguageModelSkill {
        var configuration = LanguageModelConfiguration(url: url, model: "tiny")
        change(&configuration)
        return try LanguageModelSkill(configuration: configuration, environment: environment, limits: limits)
    }

    @Test func piecesArriveAsTheEndpointSendsThem() async throws {
        let gate = Gate()
        let endpoint = EndpointDouble([
            .stream([Chunk.text("Hel"), .wait(gate), Chunk.text("lo!"), Chunk.finish(), Chunk.done])
        ])
        try await endpoint.run { url in
            let skill = try skill(url)
            var events = skill.stream(.message(.text("hi")), in: .test()).makeAsyncIterator()
            // The first piece is here while the endpoint still holds the rest back.
            #expect(try await events.next() == .text("Hel"))
            gate.open()
            #expect(try await events.next() == .text("lo!"))
            #expect(try await events.next() == .response(SkillResponse(messages: [.text("Hello!")])))
            #expect(try await events.next() == nil)
        }
    }

    @Test func theRequestCarriesInstructionsHistoryInputToolsAndTheKey() async throws {
        let endpoint = EndpointDouble([Chunk.answer("Sure.")])
        try await endpoint.run { url in
            let skill = try skill(url, environment: ["TEST_KEY": "sk-secret"]) {
                $0.apiKeyEnvironment = "TEST_KEY"
                $0.instructions = "Be brief."
                $0.history = 2
                $0.temperature = 0.5
                $0.tools = [LanguageModelTool(name: "orderStatus", description: "Where an order is", webhook: url)]
            }
            let history = [
                HistoryMessage(author: .user, payload: .text("first"), sequence: 1),
                HistoryMessage(author: .skill, payload: .text("one"), sequence: 2),
                HistoryMessage(author: .user, payload: .postback(["size": "large"], text: "Large"), sequence: 3),
            ]
            let (pieces, response) = try await collect(
                skill.stream(.message(.text("and now?")), in: .test(history: history)))
            #expect(pieces == ["Sure."])
            #expect(response?.messages == [.text("Sure.")])
            #expect(!"\(response as Any)".contains("sk-secret"))
        }
        let requests = await endpoint.requests
        #expect(requests.count == 1)
        #expect(requests.first?.authorization == "Bearer sk-secret")
        let body = try #require(requests.first?.body)
        #expect(body["model"] == "tiny")
        #expect(body["stream"] == true)
        #expect(body["max_tokens"] == 512)
        #expect(body["temperature"] == 0.5)
        let messages = body["messages"]?.arrayValue ?? []
        #expect(messages.map { $0["role"]?.stringValue ?? "" } == ["system", "assistant", "user", "user"])
        #expect(messages.map { $0["content"]?.stringValue ?? "" } == ["Be brief.", "one", "Large", "and now?"])
        let tools = body["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue }
        #expect(tools == ["offerChoices", "handOffToAgent", "orderStatus"])
    }

    @Test func historyIsBoundedByTokensNewestKept() async throws {
        let endpoint = EndpointDouble([Chunk.answer("ok")])
        try await endpoint.run { url in
            let skill = try skill(url) { $0.historyTokens = 5 }
            let history = [
                HistoryMessage(author: .user, payload: .text(String(repeating: "old ", count: 10)), sequence: 1),
                HistoryMessage(author: .skill, payload: .text("new words"), sequence: 2),
            ]
            _ = try await collect(skill.stream(.message(.text("hi")), in: .test(history: history)))
        }
        let messages = await endpoint.requests.first?.body["messages"]?.arrayValue ?? []
        #expect(messages.map { $0["content"]?.stringValue ?? "" } == ["new words", "hi"])
    }

    @Test func offeredChoicesBecomePostbackActionsOnTheAnswer() async throws {
        let endpoint = EndpointDouble([
            .stream([
                Chunk.text("Which size?"),
                Chunk.tool(index: 0, id: "c1", name: "offerChoices", arguments: #"{"choices": ["Sm"#),
                Chunk.tool(index: 0, arguments: #"all", "Large"]}"#), Chunk.finish("tool_calls"), Chunk.done,
            ])
        ])
        try await endpoint.run { url in
            let (pieces, response) = try await collect(try skill(url).stream(.message(.text("pizza")), in: .test()))
            #expect(pieces == ["Which size?"])
            #expect(
                response?.messages
                    == [.text("Which size?", actions: [.postback("Small", "Small"), .postback("Large", "Large")])])
            #expect(response?.handOff == false)
        }
        #expect(await endpoint.requests.count == 1)
    }

    @Test func handingOffIsTheResponsesHandOff() async throws {
        let endpoint = EndpointDouble([
            .stream([
                Chunk.text("I'll get you a person."),
                Chunk.tool(index: 0, id: "h", name: "handOffToAgent", arguments: #"{"reason": "asked"}"#),
                Chunk.finish("tool_calls"), Chunk.done,
            ])
        ])
        try await endpoint.run { url in
            let (_, response) = try await collect(try skill(url).stream(.message(.text("a human please")), in: .test()))
            #expect(response?.messages == [.text("I'll get you a person.")])
            #expect(response?.handOff == true)
        }
    }

    @Test func anOperatorToolIsCalledWithValidArgumentsAndItsAnswerFedBack() async throws {
        let endpoint = EndpointDouble([
            .stream([
                Chunk.tool(index: 0, id: "t1", name: "orderStatus", arguments: #"{"order": "A-7"}"#),
                Chunk.finish("tool_calls"), Chunk.done,
            ]),
            Chunk.answer("It has ", "shipped."),
        ])
        try await endpoint.run { url in
            let tool = LanguageModelTool(
                name: "orderStatus",
                parameters: ["type": "object", "properties": ["order": ["type": "string"]], "required": ["order"]],
                webhook: url.replacingOccurrences(of: "/v1", with: "/tools/orderStatus"))
            let (pieces, response) = try await collect(
                try skill(url) { $0.tools = [tool] }.stream(.message(.text("where is A-7?")), in: .test()))
            #expect(pieces == ["It has ", "shipped."])
            #expect(response?.messages == [.text("It has shipped.")])
        }
        let calls = await endpoint.toolCalls
        #expect(calls.map(\.name) == ["orderStatus"])
        #expect(calls.first?.body["arguments"] == ["order": "A-7"])
        #expect(calls.first?.body["userId"] == "ada")
        let second = await endpoint.requests.last?.body["messages"]?.arrayValue ?? []
        #expect(second.suffix(2).map { $0["role"]?.stringValue ?? "" } == ["assistant", "tool"])
        #expect(second.last?["tool_call_id"] == "t1")
        #expect(second.last?["content"] == #"{"status": "shipped"}"#)
    }

    @Test func argumentsNotMatchingTheSchemaNeverReachTheWebhook() async throws {
        let endpoint = EndpointDouble([
            .stream([
                Chunk.tool(index: 0, id: "t1", name: "orderStatus", arguments: #"{"order": 7}"#),
                Chunk.finish("tool_calls"), Chunk.done,
            ]),
            Chunk.answer("Which order?"),
        ])
        try await endpoint.run { url in
            let tool = LanguageModelTool(
                name: "orderStatus",
                parameters: ["type": "object", "properties": ["order": ["type": "string"]], "required": ["order"]],
                webhook: url.replacingOccurrences(of: "/v1", with: "/tools/orderStatus"))
            let (_, response) = try await collect(
                try skill(url) { $0.tools = [tool] }.stream(.message(.text("status?")), in: .test()))
            #expect(response?.messages == [.text("Which order?")])
        }
        #expect(await endpoint.toolCalls.isEmpty)
        let fedBack = await endpoint.requests.last?.body["messages"]?.arrayValue?.last?["content"]?.stringValue
        #expect(fedBack?.contains("invalid arguments: $.order is string") == false)
        #expect(fedBack?.contains("$.order is number, not string") == true)
    }

    @Test func toolStepsAreBounded() async throws {
        let call = EndpointDouble.Reply.stream([
            Chunk.tool(index: 0, id: "t", name: "nothing", arguments: "{}"), Chunk.finish("tool_calls"), Chunk.done,
        ])
        let endpoint = EndpointDouble([call, call, call])
        try await endpoint.run { url in
            let (_, response) = try await collect(
                try skill(url) { $0.maxToolSteps = 2 }.stream(.message(.text("loop")), in: .test()))
            #expect(response?.messages.map(\.errorCode) == ["llm.toolSteps"])
        }
        #expect(await endpoint.requests.count == 3)
    }

    @Test(arguments: [
        (EndpointDouble.Reply.status(401, body: #"{"error": {"message": "bad key"}}"#), "llm.rejected" as String?),
        (.status(404), "llm.rejected"),
        (.status(500), "llm.failed"),
        (.status(503, body: "<html>down</html>"), "llm.failed"),
        (.status(429, headers: ["Retry-After": "120"]), "llm.rateLimited"),
        (.stream([.raw("data: {nope\n\n")]), "llm.malformedStream"),
        (.stream([.data(["error": ["message": "overloaded"]])]), "llm.failed"),
        (.stream([Chunk.finish(), .cut]), nil),
    ])
    func failuresAreCodedAnswers(reply: EndpointDouble.Reply, code: String?) async throws {
        let endpoint = EndpointDouble([reply])
        try await endpoint.run { url in
            let (pieces, response) = try await collect(try skill(url).stream(.message(.text("hi")), in: .test()))
            #expect(pieces.isEmpty)
            #expect(response?.messages.map(\.errorCode) == (code.map { [$0] } ?? []))
        }
    }

    @Test func aStreamCutMidWayKeepsWhatCameMarkedAsCut() async throws {
        let endpoint = EndpointDouble([.stream([Chunk.text("Half an"), .cut])])
        try await endpoint.run { url in
            let (pieces, response) = try await collect(try skill(url).stream(.message(.text("hi")), in: .test()))
            #expect(pieces == ["Half an"])
            #expect(response?.messages.first == .text("Half an"))
            #expect(response?.messages.map(\.errorCode) == [nil, "llm.streamCut"])
        }
    }

    @Test func anEndpointThatIsDownIsUnreachable() async throws {
        let (_, response) = try await collect(
            try skill("http://127.0.0.1:9/v1").stream(.message(.text("hi")), in: .test()))
        #expect(response?.messages.map(\.errorCode) == ["llm.unreachable"])
        #expect(response?.messages.first?.text == "The assistant cannot answer right now.")
    }

    @Test func a429WithAShortRetryAfterIsWaitedOutOnce() async throws {
        let endpoint = EndpointDouble([.status(429, headers: ["Retry-After": "0"]), Chunk.answer("Now.")])
        try await endpoint.run { url in
            let (_, response) = try await collect(try skill(url).stream(.message(.text("hi")), in: .test()))
            #expect(response?.messages == [.text("Now.")])
        }
        #expect(await endpoint.requests.count == 2)
    }

    @Test func aTurnPastItsTimeoutAnswersWithWhatCameAndATimeout() async throws {
        let clock = VirtualClock()
        let gate = Gate()
        let endpoint = EndpointDouble([.stream([Chunk.text("Slow"), .wait(gate), Chunk.text("er"), Chunk.finish()])])
        try await endpoint.run { url in
            let skill = try skill(url) { $0.timeoutSeconds = 30 }
            var events = skill.stream(.message(.text("hi")), in: .test(clock: clock)).makeAsyncIterator()
            #expect(try await events.next() == .text("Slow"))
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(30))
            let last = try await events.next()
            guard case .response(let response) = last else {
                Issue.record("expected the response, got \(String(describing: last))")
                return
            }
            #expect(response.messages.first == .text("Slow"))
            #expect(response.messages.map(\.errorCode) == [nil, "llm.timeout"])
            gate.open()
        }
    }

    @Test func cancellingTheStreamClosesTheRequest() async throws {
        let endpoint = EndpointDouble([.stream([Chunk.text("Start"), .untilDisconnected])])
        try await endpoint.run { url in
            let skill = try skill(url)
            let (started, didStart) = AsyncStream.makeStream(of: SkillStreamEvent.self)
            let task = Task {
                var events = skill.stream(.message(.text("hi")), in: .test()).makeAsyncIterator()
                if let first = try await events.next() { didStart.yield(first) }
                var rest: [SkillStreamEvent] = []
                while let event = try await events.next() { rest.append(event) }
                return rest
            }
            var disconnections = endpoint.disconnections.makeAsyncIterator()
            // The first piece was read: cancel, and the endpoint sees its client go; the stream ends with no answer.
            var firsts = started.makeAsyncIterator()
            #expect(await firsts.next() == .text("Start"))
            task.cancel()
            #expect(await disconnections.next() != nil)
            #expect(try await task.value == [])
        }
    }

    @Test func requestsToOneEndpointAreLimited() async throws {
        let gate = Gate()
        let endpoint = EndpointDouble([
            .stream([Chunk.text("A"), .wait(gate), Chunk.finish(), Chunk.done]), Chunk.answer("B"),
        ])
        try await endpoint.run { url in
            let limits = EndpointLimits()
            let first = try skill(url, limits: limits) { $0.maxConcurrentRequests = 1 }
            let second = try skill(url, limits: limits) { $0.maxConcurrentRequests = 1 }
            var a = first.stream(.message(.text("a")), in: .test()).makeAsyncIterator()
            #expect(try await a.next() == .text("A"))
            let b = Task { try await collect(second.stream(.message(.text("b")), in: .test())) }
            gate.open()
            while try await a.next() != nil {}
            #expect(try await b.value.response?.messages == [.text("B")])
        }
        #expect(await endpoint.maximumActive == 1)
        #expect(await endpoint.requests.count == 2)
    }

    @Test func aProfileUpdateGetsNoAnswerAndNoRequest() async throws {
        let endpoint = EndpointDouble([])
        try await endpoint.run { url in
            let (pieces, response) = try await collect(try skill(url).stream(.profile(Profile()), in: .test()))
            #expect(pieces.isEmpty)
            #expect(response?.messages == [])
        }
        #expect(await endpoint.requests.isEmpty)
    }
}

extension MessagePayload {
    /// The code of an `error` payload.
    var errorCode: String? {
        if case .error(let error) = content { return error.errorCode?.rawValue }
        return nil
    }
}
