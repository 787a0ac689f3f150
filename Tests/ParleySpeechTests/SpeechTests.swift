import Foundation
import ParleyCore
import Testing

@testable import ParleySpeech

@Suite("Speech engines")
struct SpeechTests {
    @Test func aliasesReplaceWholeWordsOnly() throws {
        var pronunciations = Pronunciations()
        try pronunciations.loadAliases(
            from: "# places\nQatar: Kah-Tar\nDes Moines : De-moyn\n\n#Versailles: Ver-sigh\n")
        #expect(pronunciations.aliases == ["Qatar": "Kah-Tar", "Des Moines": "De-moyn"])
        #expect(pronunciations.apply(to: "Qatar, Qatari and Des Moines.") == "Kah-Tar, Qatari and De-moyn.")
        pronunciations.aliases["Versailles "] = " Ver-sigh"
        #expect(pronunciations.apply(to: "Versailles") == "Ver-sigh", "the seed's padded keys are trimmed")
    }

    @Test func aLineWithoutAColonIsAnError() {
        #expect(throws: ParleyError(.badPronunciationLine, "line 2 has no colon: Maui Mow-ee")) {
            try Pronunciations.parse("Qatar: Kah-Tar\nMaui Mow-ee\n")
        }
    }

    @Test func phonemesBecomeSSMLForEspeak() {
        let request = SynthesisRequest(
            text: "Hello Xavier & co", pronunciations: Pronunciations(phonemes: ["Xavier": "ˈzeɪ.vi.ər"]))
        #expect(
            EspeakSynthesizer.text(for: request)
                == "<speak>Hello <phoneme alphabet=\"ipa\" ph=\"ˈzeɪ.vi.ər\">Xavier</phoneme> &amp; co</speak>")
        #expect(EspeakSynthesizer.text(for: SynthesisRequest(text: "plain")) == "plain")
    }

    @Test func theVoiceTableParses() {
        let table = """
            Pty Language       Age/Gender VoiceName          File                 Other Languages
             5  af              --/M      Afrikaans          gmw/af
             2  en-us           --/F      English_(America)  gmw/en-US            (en 3)
            """
        #expect(
            EspeakSynthesizer.parseVoices(table) == [
                SynthesisVoice(
                    engine: "espeak-ng", identifier: "gmw/af", name: "Afrikaans", language: "af", gender: "male"),
                SynthesisVoice(
                    engine: "espeak-ng", identifier: "gmw/en-US", name: "English_(America)", language: "en-us",
                    gender: "female"),
            ])
    }

    @Test func espeakListsEnglishVoices() async throws {
        let voices = try await EspeakSynthesizer().voices()
        #expect(voices.contains { $0.language == "en-us" })
    }

    @Test func phrasesBecomeAJSGFGrammar() {
        #expect(PocketsphinxRecognizer.normalize("Turn OFF the lights!") == "turn off the lights")
        #expect(
            PocketsphinxRecognizer.grammar(for: ["yes", "no"])
                == "#JSGF V1.0;\ngrammar parley;\npublic <phrase> = yes | no;\n")
    }

    @Test func espeakSpeaksAndSoxConvertsAndPocketsphinxRecognises() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-st-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("yes.wav")
        try await EspeakSynthesizer().synthesize(SynthesisRequest(text: "play some music"), to: wav)
        let converted = folder.appendingPathComponent("16k.wav")
        try await SoxConverter().convert(wav, to: converted)
        let duration = try await SoxConverter().duration(of: converted)
        #expect(duration > .milliseconds(500) && duration < .seconds(5))
        let heard = try await PocketsphinxRecognizer().recognize(
            RecognitionRequest(taskID: "t", audioFile: converted, phrases: ["play some music", "go to sleep"]))
        #expect(heard == .hypothesis("play some music"))
    }

    @Test func missingProgramsAndFilesAreTypedErrors() async {
        do {
            try await EspeakSynthesizer(program: "no-such-espeak").synthesize(
                SynthesisRequest(text: "x"), to: URL(fileURLWithPath: "/tmp/x.wav"))
            Issue.record("should fail")
        } catch {
            #expect(error.code == .speechEngineUnavailable)
        }
        do {
            try await SilentPlayer().play(.file(URL(fileURLWithPath: "/nonexistent.wav")))
            Issue.record("should fail")
        } catch {
            #expect(error.code == .audioFileMissing)
        }
        do {
            _ = try await PocketsphinxRecognizer().recognize(RecognitionRequest(taskID: "t"))
            Issue.record("should fail")
        } catch {
            #expect(error.code == .speechEngineUnavailable)
        }
    }

    @Test func theQueuedSourceHandsOutFilesInOrderThenRunsOut() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-q-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.wav")
        try Data("A".utf8).write(to: a)
        let source = QueuedAudioSource(files: [a])
        let target = folder.appendingPathComponent("take.wav")
        let result = try await source.record(RecordingRequest(file: target))
        #expect(result == RecordingResult(file: target, stopReason: "endOfSpeech"))
        #expect(try Data(contentsOf: target) == Data("A".utf8))
        await #expect(throws: ParleyError(.noMoreAudio, "the audio queue is empty")) {
            try await source.record(RecordingRequest(file: target))
        }
    }
}
