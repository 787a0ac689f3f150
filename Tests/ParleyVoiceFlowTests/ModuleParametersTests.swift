import ParleyCore
import ParleyVoiceFlow
import Testing

/// Modules decoded into typed parameters once: the seed's module, lenient values, runtime twins, unknown keys.
@Suite("Typed module parameters")
struct ModuleParametersTests {
    @Test func theSeedAudioListenerModuleDecodesIntoTypedParameters() throws {
        let flow = try VoiceFlow(parsing: "[" + (try Fixture.text("seed-audiolistener-module.json")) + "]")
        let module = try #require(flow.modules.first)
        guard case .audioListener(let listener) = module.parameters else {
            Issue.record("an audioListener decodes as one, not \(module.parameters)")
            return
        }
        let fields = RuntimeFields()
        #expect(listener.promptID.value == "P_AIChat_ChatResponseText")
        #expect(listener.promptID.path == JSONPath([.key("audioListenerParams"), .key("promptID")]))
        #expect(listener.recognizeWhilePlay.written == nil)
        #expect(listener.listening.recognize.locale.value == "en-US")
        #expect(listener.listening.recognize.engine.value == "apple")
        #expect(listener.listening.recognize.partialResults.resolve(with: fields) == true)
        #expect(listener.listening.voiceActivity.enabled.resolve(with: fields) == true)
        #expect(try listener.listening.stop.maxPreSpeechSilence.resolve(with: fields) == 8000)
        #expect(try listener.listening.stop.maxPostSpeechSilence.resolve(with: fields) == 1000)
        #expect(try listener.listening.stop.maxSpeechLength.resolve(with: fields) == 0)
        #expect(
            listener.listening.stop.maxPostSpeechSilence.path
                == JSONPath([.key("recordAudioParams"), .key("stopRecordParams"), .key("maxPostSpeechSilenceLengthMs")])
        )
        #expect(module.parameters.listening == listener.listening)
        #expect(module.interruptTransition == nil)
    }

    @Test func eachTypeDecodesWhatItActsOn() throws {
        let flow = try VoiceFlow(
            parsing: """
                [{"id": "P", "type": "process", "processParams": {"setValueForFieldNameCollection": [
                    {"name": "$[A]", "value": 1}, {"name": "B"}, 7]},
                  "audioInterruptTransitionParams": {"transitionType": "resume", "rewindCurrentAudioSegmentMs": 500}},
                 {"id": "A", "type": "playAudio", "playAudioParams": {"style": "select",
                    "promptCollection": [{"promptID": "X"}, "Y", {"other": 1}]}},
                 {"id": "R", "type": "recordAudio", "recordAudioParams": {"id": "take",
                    "recordPlayPromptParams": {"promptID": "Q", "recordPromptNoPlay": true},
                    "stopRecordParams": {"maxRecordLengthMs": 3000}}},
                 {"id": "D", "type": "audioDialog", "audioDialogParams": {"dialogPromptCollection": [
                    {"type": "timeout", "promptID": "T", "recognizeWhilePlay": true}, {"promptID": "I"}, "junk"],
                    "maxRetryCount": {"timeout": 4, "garbageRuntime": "$[G]"}}},
                 {"id": "N", "type": "pauseResume", "playAudioParams": {"promptID": "ignored"}},
                ]
                """)
        let fields = RuntimeFields(["G": "3"])

        guard case .process(let process) = flow["P"]?.parameters else { throw Unexpected("P is not a process") }
        #expect(process.assignments.map(\.field) == ["A", nil, nil])
        #expect(process.assignments.map(\.value) == [1, nil, nil])
        let transition = try #require(flow["P"]?.interruptTransition)
        #expect(transition.transitionType.value == "resume")
        #expect(try transition.rewind.resolve(with: fields) == 500)
        #expect(!transition.isEmpty)

        guard case .playAudio(let choice) = flow["A"]?.parameters else { throw Unexpected("A is not a playAudio") }
        #expect(choice.style.value == "select")
        #expect(choice.promptID.written == nil)
        #expect(choice.collection.map { $0.resolve(with: fields) } == ["X", "Y", nil])
        #expect(
            choice.collection.map(\.path.description) == [
                "$.playAudioParams.promptCollection[0].promptID", "$.playAudioParams.promptCollection[1]",
                "$.playAudioParams.promptCollection[2].promptID",
            ])

        guard case .recordAudio(let record) = flow["R"]?.parameters else { throw Unexpected("R is not a record") }
        #expect(record.fileID.value == "take")
        #expect(record.promptID.value == "Q")
        #expect(record.promptNoPlay.resolve(with: fields) == true)
        #expect(try record.stop.maxRecordLength.resolve(with: fields) == 3000)
        #expect(try record.stop.maxAudioLength.resolve(with: fields) == nil)

        guard case .audioDialog(let dialog) = flow["D"]?.parameters else { throw Unexpected("D is not a dialog") }
        #expect(dialog.prompts.map(\.kind) == ["timeout", "initial"], "the item that is not an object is left out")
        #expect(dialog.prompts.map { $0.recognizeWhilePlay.resolve(with: fields) } == [true, nil])
        #expect(try dialog.maxRetryCount["timeout"]?.resolve(with: fields, in: 0...1_000) == 4)
        #expect(try dialog.maxRetryCount["garbage"]?.resolve(with: fields, in: 0...1_000) == 3)
        #expect(try dialog.maxRetryCount["sr_error"]?.resolve(with: fields, in: 0...1_000) == nil)

        #expect(flow["N"]?.parameters == .empty, "a pauseResume reads nothing, whatever else it carries")
    }

    @Test func wrongTypesAreKeptAsWrittenAndCountAsUnset() throws {
        let flow = try VoiceFlow(
            parsing: """
                [{"id": "L", "type": "audioListener", "audioListenerParams": {"promptID": 5, "recognizeWhilePlay": "yes"},
                  "recordAudioParams": {"stopRecordParams": {"maxPreSpeechSilenceLengthMs": "8000",
                                                             "maxPostSpeechSilenceLengthMs": 2.5}}}]
                """)
        guard case .audioListener(let listener) = flow["L"]?.parameters else { throw Unexpected("L") }
        let fields = RuntimeFields()
        #expect(listener.promptID.written == 5)
        #expect(listener.promptID.value == nil)
        #expect(listener.promptID.resolve(with: fields) == nil)
        #expect(listener.recognizeWhilePlay.written == "yes")
        #expect(listener.recognizeWhilePlay.resolve(with: fields) == nil)
        #expect(try listener.listening.stop.maxPreSpeechSilence.resolve(with: fields) == nil, "text is not a number")
        let error = #expect(throws: ParleyError.self) {
            try listener.listening.stop.maxPostSpeechSilence.resolve(with: fields)
        }
        #expect(error?.code.rawValue == "voiceflow.invalidValue")
        #expect(error?.message == "maxPostSpeechSilenceLengthMs is 2.5, not a whole number from 0 to 86400000")
        #expect(error?.path?.description == "$.recordAudioParams.stopRecordParams.maxPostSpeechSilenceLengthMs")
    }

    @Test func runtimeTwinsOverrideTheStaticValueWhenTheirFieldIsValid() throws {
        let flag = Parameter<Bool>(path: JSONPath([.key("enableVAD")]), written: false, runtime: "$[VAD]")
        #expect(flag.resolve(with: RuntimeFields()) == false, "an unset field leaves the static value")
        #expect(flag.resolve(with: RuntimeFields(["VAD": "TRUE"])) == true)
        #expect(flag.resolve(with: RuntimeFields(["VAD": 1])) == true)
        #expect(flag.resolve(with: RuntimeFields(["VAD": 2])) == false, "2 is not a boolean: the static value")
        let number = Parameter<Int>(path: JSONPath([.key("maxPlayCount")]), written: 2, runtime: "$[Plays]")
        #expect(try number.resolve(with: RuntimeFields(["Plays": " 5 "])) == 5)
        #expect(try number.resolve(with: RuntimeFields(["Plays": "many"])) == 2)
        #expect(throws: ParleyError.self) { try number.resolve(with: RuntimeFields(["Plays": 1e300])) }
        let text = Parameter<String>(path: JSONPath([.key("promptID")]), written: "P_$[Name]")
        #expect(text.resolve(with: RuntimeFields(["Name": "Hi"])) == "P_Hi")
        #expect(Parameter<String>(path: JSONPath(), written: "$[Unset]").resolve(with: RuntimeFields()) == nil)
    }

    @Test func unknownKeysStayInTheModuleAndChangesDecodeAgain() throws {
        let text = """
            [{"id": "A", "type": "playAudio", "name": "A", "x-app": {"colour": "blue"},
              "playAudioParams": {"promptID": "P", "fadeMs": 20}, "goTo": {"DEFAULT": ""}}]
            """
        var flow = try VoiceFlow(parsing: text)
        #expect(JSONValue.array(flow.modules.map { .object($0.json) }) == (try JSONValue(parsingLeniently: text)))
        var module = try #require(flow.modules.first)
        module.json = module.json.removing("playAudioParams")
        module.json.append("playAudioParams", ["promptID": "Q"])
        guard case .playAudio(let choice) = module.parameters else { throw Unexpected("A") }
        #expect(choice.promptID.value == "Q")
        module.type = .node
        #expect(module.parameters == .empty)
        flow.modules[0] = module
        #expect(flow["A"]?.parameters == .empty)
    }

    @Test func promptModulesDecodePlaybackAndTheirSSMLTwin() throws {
        let library = try PromptLibrary(
            parsing: """
                [{"id": "P", "textString": "<speak>hi</speak>", "textIsSSMLRuntime": "$[SSML]",
                  "audioPlaybackParams": {"startPosMs": 250, "loopPlay": true, "maxPlayCountRuntime": "$[N]"}}]
                """)
        let prompt = try #require(library["P"])
        let fields = RuntimeFields(["SSML": "true", "N": 3])
        #expect(prompt.ssml.resolve(with: fields) == true)
        #expect(prompt.ssml.resolve(with: RuntimeFields()) == false)
        let playback = try #require(prompt.playback)
        #expect(try playback.startPosition.resolve(with: fields) == 250)
        #expect(playback.loopPlay.resolve(with: fields) == true)
        #expect(try playback.maxPlayCount.resolve(with: fields) == 3)
    }
}

/// A value of another shape than the test expects.
struct Unexpected: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
