import ParleyCore
import ParleyVoiceFlow
import Testing

/// Every validation message, with its code, module and path.
@Suite("Validator")
struct ValidatorTests {
    func check(_ flowText: String, prompts: String? = nil) throws -> [String] {
        let flow = try VoiceFlow(parsing: flowText)
        return Validator.validate(flow, prompts: try prompts.map(PromptLibrary.init(parsing:))).map(\.description)
    }

    @Test func missingStartAndEnd() throws {
        #expect(
            try check(#"[{"id": "A", "type": "node", "name": "A", "goTo": {"DEFAULT": ""}}]"#)
                == [
                    "error[voiceflow.missingStart]: the flow has no VF_START module",
                    "error[voiceflow.missingEnd]: the flow has no VF_END module",
                    "warning[voiceflow.unreachableModule] A at $[0]: no goTo path from VF_START reaches A",
                ].filter { !$0.hasPrefix("warning") })
    }

    @Test func reservedModulesMustBeNodes() throws {
        #expect(
            try check(
                #"[{"id": "VF_START", "type": "process", "name": "s", "goTo": {"DEFAULT": "VF_END"}}, {"id": "VF_END", "type": "node", "name": "e", "goTo": {"DEFAULT": ""}}]"#
            ) == [
                "error[voiceflow.reservedModuleType] VF_START at $[0].type: VF_START must be of type node, not process"
            ])
    }

    @Test func duplicateIDs() throws {
        #expect(
            try check(
                flow(
                    start: "A", #"{"id": "A", "type": "node", "name": "A", "goTo": {"DEFAULT": "VF_END"}}"#,
                    #"{"id": "A", "type": "node", "name": "A2", "goTo": {"DEFAULT": "VF_END"}}"#)) == [
                    "error[voiceflow.duplicateID] A at $[2].id: module id A is used more than once"
                ])
    }

    @Test func danglingGoToTargetsNameTheirKey() throws {
        let text = flow(
            start: "D",
            #"{"id": "D", "type": "audioDialog", "name": "D", "goTo": {"DEFAULT": "VF_END", "maxTimeoutCount": "Nowhere", "userIntentCollection": [{"intent": "x", "goTo": "Gone"}], "goToForUserInput": [{"input": "yes", "goTo": "Lost"}]}}"#
        )
        #expect(
            try check(text) == [
                "error[voiceflow.danglingGoTo] D at $[1].goTo.maxTimeoutCount: goTo.maxTimeoutCount of D names no module: Nowhere",
                "error[voiceflow.danglingGoTo] D at $[1].goTo.userIntentCollection[0].goTo: goTo.userIntentCollection[0] of D names no module: Gone",
                "error[voiceflow.danglingGoTo] D at $[1].goTo.goToForUserInput[0].goTo: goTo.goToForUserInput[0] of D names no module: Lost",
            ])
    }

    @Test func unknownPromptsAreCheckedOnlyWithPrompts() throws {
        let text = flow(start: "P", play("P", "P_Missing"))
        #expect(try check(text).isEmpty)
        #expect(
            try check(text, prompts: textPrompts("P_Other")) == [
                "error[voiceflow.unknownPrompt] P at $[1].playAudioParams.promptID: prompt P_Missing is not in the loaded prompt modules"
            ])
        #expect(
            try check(flow(start: "P", play("P", "$[Dynamic]")), prompts: "[]").isEmpty,
            "runtime prompt ids are checked when they run")
    }

    @Test func promptCyclesAndUnknownChildrenAndEmptyPrompts() {
        let prompts = try! PromptLibrary(
            parsing: """
                [{"id": "A", "style": "combo", "promptCollection": [{"promptID": "B"}]},
                 {"id": "B", "style": "serial", "promptCollection": [{"promptID": "A"}, {"promptID": "X"}]},
                 {"id": "E", "style": "single"},
                 {"id": "F", "style": "select", "promptCollection": []},
                 {"id": "G", "style": "shuffle", "textString": "g"}]
                """)
        #expect(
            Validator.validate(prompts).map(\.description) == [
                "error[voiceflow.unknownPrompt] B at $[1].promptCollection[1].promptID: prompt B includes unknown prompt X",
                "error[voiceflow.emptyPrompt] E at $[2]: prompt E has no audioFile, textString or textFile",
                "error[voiceflow.emptyPrompt] F at $[3]: prompt F of style select has an empty promptCollection",
                "error[voiceflow.invalidValue] G at $[4].style: prompt G has unknown style \"shuffle\"",
                "error[voiceflow.emptyPrompt] G at $[4]: prompt G of style shuffle has an empty promptCollection",
                "error[voiceflow.promptCycle] A at $[0]: prompt modules form a cycle: A → B → A",
            ])
    }

    @Test func unreachableModulesAreWarnings() throws {
        let text = flow(
            start: "VF_END", #"{"id": "Island", "type": "node", "name": "I", "goTo": {"DEFAULT": "VF_END"}}"#)
        let diagnostics = Validator.validate(try VoiceFlow(parsing: text))
        #expect(
            diagnostics.map(\.description) == [
                "warning[voiceflow.unreachableModule] Island at $[1]: no goTo path from VF_START reaches Island"
            ])
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func wrongTypesUnknownTypesAndMissingKeys() throws {
        let text = flow(
            start: "A",
            #"{"id": "A", "type": "speak", "name": "A", "goTo": {"DEFAULT": "B"}}"#,
            #"{"id": "B", "type": 3, "goTo": {"DEFAULT": 4}}"#,
            #"{"id": "C", "type": "playAudio", "name": "C", "playAudioParams": {"promptID": 5, "style": "loud"}, "recordAudioParams": {"vadParams": {"enableVAD": "yes"}}}"#
        )
        #expect(
            try check(text) == [
                "error[voiceflow.unknownModuleType] A at $[1].type: module A has unknown type \"speak\" (known: node, process, playAudio, recordAudio, audioDialog, audioListener, pauseResume, runAEC)",
                "error[voiceflow.wrongType] B at $[2].type: \"type\" must be a string, not number",
                "error[voiceflow.missingKey] B at $[2]: module B has no \"name\"",
                "error[voiceflow.wrongType] B at $[2].goTo.DEFAULT: goTo.DEFAULT must be a module id string, not number",
                "error[voiceflow.missingKey] C at $[3]: module C has no \"goTo\"",
                "error[voiceflow.wrongType] C at $[3].playAudioParams.promptID: promptID must be a string, not number",
                "error[voiceflow.wrongType] C at $[3].recordAudioParams.vadParams.enableVAD: enableVAD must be a boolean, not string",
                "error[voiceflow.invalidValue] C at $[3].playAudioParams.style: playAudioParams.style \"loud\" is not single, select, combo or serial",
                "warning[voiceflow.unreachableModule] C at $[3]: no goTo path from VF_START reaches C",
                "warning[voiceflow.unreachableModule] VF_END at $[4]: no goTo path from VF_START reaches VF_END",
            ])
    }

    @Test func runtimeTwinsMustBeFieldReferences() throws {
        let text = flow(
            start: "R",
            #"{"id": "R", "type": "recordAudio", "name": "R", "recordAudioParams": {"vadParams": {"enableVADRuntime": "true", "minSpeechToDetectMsRuntime": "$[MinSpeech]"}, "stopRecordParams": {"maxAudioLengthMsRuntime": 300}}, "goTo": {"DEFAULT": "VF_END"}}"#
        )
        #expect(
            try check(text) == [
                "error[voiceflow.invalidRuntimeValue] R at $[1].recordAudioParams.vadParams.enableVADRuntime: enableVADRuntime must be a string \"$[FieldName]\", not \"true\"",
                "error[voiceflow.invalidRuntimeValue] R at $[1].recordAudioParams.stopRecordParams.maxAudioLengthMsRuntime: maxAudioLengthMsRuntime must be a string \"$[FieldName]\", not 300",
            ])
    }

    @Test func processFieldNamesAndDialogValues() throws {
        let text = flow(
            start: "P",
            #"{"id": "P", "type": "process", "name": "P", "processParams": {"setValueForFieldNameCollection": [{"name": "Plain", "value": 1}, {"name": "$[X]"}]}, "goTo": {"DEFAULT": "D"}}"#,
            #"{"id": "D", "type": "audioDialog", "name": "D", "audioDialogParams": {"dialogPromptCollection": [{"type": "reprompt", "style": "random", "promptID": "Q"}]}, "audioInterruptTransitionParams": {"transitionType": "jump"}, "goTo": {"DEFAULT": "VF_END", "goToForUserInput": [{"input": "x", "goTo": "VF_END", "comparator": "like"}, {"goTo": "VF_END"}]}}"#
        )
        #expect(
            try check(text) == [
                "error[voiceflow.invalidRuntimeValue] P at $[1].processParams.setValueForFieldNameCollection[0].name: field name \"Plain\" must be written $[Name]",
                "error[voiceflow.missingKey] P at $[1].processParams.setValueForFieldNameCollection[1]: setValueForFieldNameCollection[1] needs a \"value\"",
                "error[voiceflow.invalidValue] D at $[2].goTo.goToForUserInput[0].comparator: comparator \"like\" is not equals, starts or contains",
                "error[voiceflow.missingKey] D at $[2].goTo.goToForUserInput[1]: goTo.goToForUserInput[1] needs a string \"input\"",
                "error[voiceflow.invalidValue] D at $[2].audioDialogParams.dialogPromptCollection[0].type: dialog prompt type \"reprompt\" is not one of preInitial, initial, garbage, timeout, sr_error",
                "error[voiceflow.invalidValue] D at $[2].audioDialogParams.dialogPromptCollection[0].style: dialog prompt style \"random\" is not single, select, combo or serial",
                "error[voiceflow.invalidValue] D at $[2].audioInterruptTransitionParams.transitionType: transitionType \"jump\" is not resume, repeat, goto or end",
            ])
    }

    @Test func missingDefault() throws {
        #expect(
            try check(
                flow(start: "A", #"{"id": "A", "type": "node", "name": "A", "goTo": {"maxTimeoutCount": "VF_END"}}"#))
                == [
                    "error[voiceflow.missingKey] A at $[1].goTo: module A has no goTo.DEFAULT"
                ])
    }
}
