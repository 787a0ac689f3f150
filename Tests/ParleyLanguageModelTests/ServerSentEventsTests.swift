import ParleyLanguageModel
import Testing

@Suite struct ServerSentEventsTests {
    let body = ": comment\r\ndata: {\"a\":1}\r\n\r\nevent: x\ndata: one\ndata:two\n\ndata: [DONE]\n\n"

    @Test func eventsAreTheSameWhateverTheBytesAreSplitInto() throws {
        let bytes = Array(body.utf8)
        var whole = ServerSentEvents()
        let expected = try whole.feed(bytes)
        #expect(expected == [#"{"a":1}"#, "one\ntwo", "[DONE]"])
        for split in 1..<bytes.count {
            var decoder = ServerSentEvents()
            let events = try decoder.feed(bytes[..<split]) + decoder.feed(bytes[split...])
            #expect(events == expected, "split at \(split)")
        }
    }

    @Test func aLastEventWithoutBlankLineIsFinished() throws {
        var decoder = ServerSentEvents()
        #expect(try decoder.feed(Array("data: tail".utf8)).isEmpty)
        #expect(try decoder.finish() == "tail")
        #expect(try decoder.finish() == nil)
    }

    @Test func aLineTooLongIsAMalformedStream() throws {
        var decoder = ServerSentEvents(maximumLineLength: 8)
        let error = #expect(throws: ParleyError.self) { try decoder.feed(Array("data: 0123456789".utf8)) }
        #expect(error?.code == .llmMalformedStream)
    }
}

@Suite struct ChatCompletionAccumulatorTests {
    @Test func toolCallsAreAssembledByIndexFromTheirPieces() throws {
        var completion = ChatCompletionAccumulator()
        let chunks = [
            #"{"choices":[{"index":0,"delta":{"role":"assistant","content":"Let me look."}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"handOff","arguments":""}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"order","arguments":"{\"id\""}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": 7}"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            #"{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5}}"#,
            "[DONE]",
        ]
        let pieces = try chunks.map { try completion.apply($0) }
        #expect(pieces == ["Let me look.", "", "", "", "", "", ""])
        #expect(completion.toolCalls.map(\.id) == ["a", "b"])
        #expect(completion.toolCalls.map(\.name) == ["order", "handOff"])
        #expect(completion.toolCalls[0].arguments == #"{"id": 7}"#)
        #expect(completion.finishReason == "tool_calls")
        #expect(completion.usage == TokenUsage(prompt: 12, completion: 5))
        #expect(completion.done)
    }

    @Test func notJSONIsMalformedAndAnErrorObjectIsAFailure() throws {
        var completion = ChatCompletionAccumulator()
        #expect(throws: ParleyError.self) { try completion.apply("{nope") }
        let malformed = #expect(throws: ParleyError.self) { try completion.apply("{nope") }
        #expect(malformed?.code == .llmMalformedStream)
        let failed = #expect(throws: ParleyError.self) {
            try completion.apply(#"{"error": {"message": "model not loaded"}}"#)
        }
        #expect(failed?.code == .llmFailed)
    }
}
