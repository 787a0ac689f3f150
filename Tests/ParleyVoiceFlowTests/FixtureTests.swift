import Foundation
import ParleyCore
import ParleySpeech
import ParleyVoiceFlow
import Testing

/// Every JSON example of the seed (`stvoiceflowrunner.txt`) is a fixture that loads and validates.
@Suite("Seed fixtures")
struct FixtureTests {
    @Test func theShutdownFlowLoadsAndValidatesWithoutPrompts() throws {
        let flow = try VoiceFlow(parsing: try Fixture.text("seed-shutdown-flow.json"))
        #expect(
            flow.modules.map(\.id) == [
                "VF_START", "VA_VFM_Shutdown_Process_LoadPreStart", "VA_VFM_Shutdown_PlayAudio_DefaultShutdown",
                "VA_VFM_Shutdown_Process_TransitionToShutdownMode", "VF_END",
            ])
        #expect(flow.modules.map(\.type) == [.node, .process, .playAudio, .process, .node])
        #expect(
            flow["VA_VFM_Shutdown_Process_LoadPreStart"]?.goTo.defaultTarget == "$[ShutdownModeFlowPlayStartModule]")
        #expect(Validator.validate(flow).isEmpty, "the runtime goTo makes reachability unknowable, so no warnings")
    }

    @Test func theShutdownFlowAgainstTheSeedPromptsReportsTheTwoPromptsTheSeedNeverDefines() throws {
        let flow = try VoiceFlow(parsing: try Fixture.text("seed-shutdown-flow.json"))
        let prompts = try PromptLibrary(parsing: try Fixture.text("seed-prompts.json"))
        let diagnostics = Validator.validate(flow, prompts: prompts)
        #expect(
            diagnostics.map(\.description) == [
                "error[voiceflow.unknownPrompt] VA_VFM_Shutdown_PlayAudio_DefaultShutdown at $[2].playAudioParams.promptCollection[0].promptID: prompt P_TurningOffShuttingDown is not in the loaded prompt modules",
                "error[voiceflow.unknownPrompt] VA_VFM_Shutdown_PlayAudio_DefaultShutdown at $[2].playAudioParams.promptCollection[1].promptID: prompt P_GoodBye is not in the loaded prompt modules",
            ])
    }

    @Test func theSeedPromptsLoadWithStylesCollectionsAndTheIgnoredUnderscoreAudioFile() throws {
        let prompts = try PromptLibrary(parsing: try Fixture.text("seed-prompts.json"))
        #expect(prompts.prompts.map(\.id) == ["P_Okay", "P_Sure", "P_PreShutdown_Moderate", "P_TurningOff"])
        #expect(prompts["P_Okay"]?.audioFile == "Okay.wav")
        #expect(prompts["P_Sure"]?.audioFile == nil, "_audioFile is a note, not an audio file")
        #expect(prompts["P_Sure"]?.textString == "Sure.")
        #expect(prompts["P_PreShutdown_Moderate"]?.style == .select)
        #expect(prompts["P_PreShutdown_Moderate"]?.promptCollection == ["P_Okay", "P_Sure"])
        #expect(Validator.validate(prompts).isEmpty)
    }

    @Test func theSeedAudioToTextMapLoadsWithDefaultLanguage() throws {
        let map = try AudioToTextMap(parsing: try Fixture.text("seed-audio-to-text-map.json"))
        #expect(map.entries.count == 5)
        #expect(
            map["Bonjour.wav"]
                == AudioToTextEntry(audioFile: "Bonjour.wav", textString: "Bonjour.", textLanguage: "fr-FR"))
        #expect(map["HelloHello.wav"]?.textString == "Hello Hello. I am your assistant.")
        #expect(map["Hi.wav"]?.textLanguage == "en-US")
    }

    @Test func theSeedAudioListenerModuleLoadsAndOnlyMissesTheRestOfItsFlow() throws {
        let flow = try VoiceFlow(parsing: "[" + (try Fixture.text("seed-audiolistener-module.json")) + "]")
        let module = try #require(flow.modules.first)
        #expect(module.type == .audioListener)
        #expect(
            module.goTo.userIntents.map(\.intent) == [
                "AudioListenerCommand", "TransitionToSleepMode", "TransitionToShutdownMode",
            ])
        #expect(module.goTo.routes["maxSRErrorCount"] == "VA_VFM_AIChat_PlayAudio_NotAbleToListen")
        let codes = Validator.validate(flow).map(\.code)
        #expect(codes == [.missingStart, .missingEnd] + Array(repeating: .danglingGoTo, count: 7))
        let prompt = try PromptLibrary(parsing: "[" + (try Fixture.text("seed-chat-response-prompt.json")) + "]")
        #expect(prompt["P_AIChat_ChatResponseText"]?.textString == "$[ChatResponseSectionText]")
        #expect(Validator.validate(prompt).isEmpty)
        #expect(Validator.validate(flow, prompts: prompt).filter { $0.code == .unknownPrompt }.isEmpty)
    }

    @Test func theAIChatFlowBuiltAroundTheSeedModuleValidatesClean() throws {
        let flow = try VoiceFlow(parsing: try Fixture.text("ai-chat-flow.json"))
        let prompts = try PromptLibrary(parsing: try Fixture.text("ai-chat-prompts.json"))
        #expect(Validator.validate(flow, prompts: prompts).isEmpty)
    }

    @Test func theSeedSnippetsParse() throws {
        let process = try JSONValue(parsingLeniently: "{" + (try Fixture.text("seed-process-params.json")) + "}")
        let items = try #require(process["processParams"]?["setValueForFieldNameCollection"]?.arrayValue)
        #expect(items.map { $0["name"]?.stringValue } == ["$[AIChat_WhatToChatAbout]", "$[CompletedPlayiText]"])
        #expect(items[1]["value"] == .bool(true))
        let intents = try JSONValue(
            parsingLeniently: "{" + (try Fixture.text("seed-user-intent-collection.json")) + "}")
        let goTo = GoToProbe.goTo(intents)
        #expect(goTo.userIntents.map(\.intent) == ["AIChatSubmitted", "AudioListenerCommand", "TransitionToSleepMode"])
        let session = try JSONValue(parsingLeniently: try Fixture.text("seed-audio-session.json"))
        #expect(session["mode"] == "default")
        #expect(session["categories"]?["allowBluetooth"] == "yes")
    }

    @Test func theSeedAliasAndPhonemeFilesSkipCommentedEntries() throws {
        let aliases = try Pronunciations.parse(try Fixture.text("seed-aliases.txt"))
        #expect(
            aliases == [
                "Qatar": "Kah-Tar", "Des Moines": "De-moyn", "Maui": "Mow-ee", "Charlotte": "Sharlot",
                "Worcester": "Wooster",
            ])
        let phonemes = try Pronunciations.parse(try Fixture.text("seed-phonemes.txt"))
        #expect(phonemes.count == 6)
        #expect(phonemes["Xavier"] == "ˈzeɪ.vi.ər")
        #expect(phonemes["Beijing"] == nil)
    }
}

/// Reads a `goTo` object through a one-module flow.
enum GoToProbe {
    static func goTo(_ json: JSONValue) -> GoTo {
        let module: JSONValue = ["id": "M", "type": "node", "name": "M", "goTo": json]
        return (try? VoiceFlow(json: [module]))?.modules.first?.goTo ?? GoTo()
    }
}

/// The JSON dialect: trailing commas, version 1 keys.
@Suite("Loading")
struct LoadingTests {
    @Test func trailingCommasAreAcceptedAndCommasInStringsKept() throws {
        let value = try JSONValue(parsingLeniently: #"[{"a": "x,]", "b": [1, 2,],}, ]"#)
        #expect(value == [["a": "x,]", "b": [1, 2]]])
    }

    @Test func otherLeniencyStaysAnErrorWithTheOriginalPosition() {
        #expect(throws: ParleyError.self) { try JSONValue(parsingLeniently: "[1,,2]") }
        #expect(throws: ParleyError.self) { try JSONValue(parsingLeniently: "[1 2]") }
        do {
            _ = try JSONValue(parsingLeniently: "[1,\n 2,\n x]")
            Issue.record("should fail")
        } catch {
            #expect(error.code == .malformedJSON)
            #expect(error.message.contains("line 3"), "\(error.message)")
        }
    }

    @Test func versionOneKeysAreRenamedToVersionTwo() throws {
        let flow = try VoiceFlow(
            parsing: """
                [{"id": "R", "type": "recordAudio", "name": "R",
                  "recordAudioParams": {"promptID": "P", "recordFromPrompt": true},
                  "recognizeAudioParams": {"languageCode": "fr-FR", "pocketSphinxSRSessionParams": {"enablePartialResults": true}},
                  "goTo": {"DEFAULT": "", "goToForUserInput": [{"input": "a", "goTo": "", "enablePartialSRHypothesis": true}]}}]
                """)
        let module = try #require(flow.modules.first)
        #expect(
            module.json["recordAudioParams"] == [
                "recordPlayPromptParams": ["promptID": "P", "recordPromptNoPlay": true]
            ])
        #expect(
            module.json["recognizeAudioParams"] == [
                "srLocale": "fr-FR", "srSessionParams": ["enablePartialResults": true],
            ])
        #expect(module.goTo.userInputs.first?.matchesPartialHypotheses == true)
    }

    @Test func structuralErrorsThrowWithPaths() {
        #expect(
            throws: ParleyError(.wrongType, "a voice flow is a JSON array of modules, not object", path: JSONPath())
        ) {
            try VoiceFlow(parsing: "{}")
        }
        #expect(throws: ParleyError(.missingKey, "module 1 has no string \"id\"", path: JSONPath([.index(1)]))) {
            try VoiceFlow(parsing: #"[{"id": "A"}, {"type": "node"}]"#)
        }
        #expect(
            throws: ParleyError(
                .missingKey, "audio-to-text entry 0 has no string \"textString\"", path: JSONPath([.index(0)]))
        ) {
            try AudioToTextMap(parsing: #"[{"audioFile": "a.wav"}]"#)
        }
    }

    @Test func laterPromptListsReplacePromptsWithTheSameID() throws {
        var library = try PromptLibrary(parsing: #"[{"id": "P", "style": "single", "textString": "one"}]"#)
        try library.merge(
            parsing:
                #"[{"id": "P", "style": "single", "textString": "two"}, {"id": "Q", "promptCollection": [{"promptID": "P"}]}]"#
        )
        #expect(library.prompts.map(\.id) == ["P", "Q"])
        #expect(library["P"]?.textString == "two")
        #expect(library["Q"]?.style == .combo, "a collection without style is combo")
    }

    @Test func resourceLocationsPreferTheLanguageFolderAndCreateTheRecordFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-loc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("fr-FR"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("a.json").path, contents: Data())
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("fr-FR/a.json").path, contents: Data())
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("b.json").path, contents: Data())
        var locations = ResourceLocations(
            folders: [.voiceFlow: root, .recordAudio: root.appendingPathComponent("rec")], languageFolder: "fr-FR")
        #expect(locations.find("a.json", in: .voiceFlow) == root.appendingPathComponent("fr-FR/a.json"))
        #expect(locations.find("b.json", in: .voiceFlow) == root.appendingPathComponent("b.json"))
        #expect(locations.find("/nonexistent/c.json", in: .voiceFlow) == nil)
        #expect(
            locations.find(root.appendingPathComponent("b.json").path, in: .playAudio)
                == root.appendingPathComponent("b.json"))
        locations.languageFolder = "de-DE"
        let recording = try locations.recordingURL(for: "take.wav")
        #expect(recording == root.appendingPathComponent("rec/de-DE/take.wav"))
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(
                atPath: root.appendingPathComponent("rec/de-DE").path, isDirectory: &isFolder) && isFolder.boolValue)
    }
}

/// The README's flow graph is the renderer's output for the AI-chat fixture.
@Suite("Graph")
struct GraphTests {
    @Test func theReadmeGraphIsTheRenderedAIChatFlow() throws {
        let readme = try String(
            contentsOf: Fixture.folder.appendingPathComponent("../../../README.md").standardized, encoding: .utf8)
        let flow = try VoiceFlow(parsing: try Fixture.text("ai-chat-flow.json"))
        #expect(readme.contains("```mermaid\n" + FlowGraph.render(flow, format: .mermaid) + "```\n"))
    }

    @Test func dotMarksRuntimeTargetsDashed() throws {
        let flow = try VoiceFlow(parsing: try Fixture.text("seed-shutdown-flow.json"))
        let dot = FlowGraph.render(flow, format: .dot)
        #expect(dot.contains("m5 [label=\"$[ShutdownModeFlowPlayStartModule]\", shape=hexagon];"))
        #expect(dot.contains("m1 -> m5 [style=dashed];"))
        #expect(FlowGraph.edges(of: flow).count == 4, "VF_END's empty target is not drawn")
    }
}
