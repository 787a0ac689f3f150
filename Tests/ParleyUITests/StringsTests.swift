import Foundation
import ParleyUI
import Testing

@Suite struct StringsTests {
    @Test func everyKnownKeyHasATextInEveryBundledLanguage() throws {
        #expect(Strings.bundledLocales == ["en", "es", "fr"])
        let known = Set(StringKey.allKnown.map(\.rawValue))
        #expect(known.count == StringKey.allKnown.count, "a key is listed twice")
        for locale in ["en", "fr", "es"] {
            let table = try #require(Strings.bundledTable(for: locale), "no \(locale) table in the bundle")
            #expect(Set(table.keys) == known, "\(locale): keys differ from StringKey.allKnown")
            #expect(table.values.allSatisfy { !$0.isEmpty }, "\(locale): an empty text")
        }
    }

    /// The English texts are Oracle's (iOS SDK, "Strings"), typos included, so that an app moving from Oracle's SDK
    /// sees what it saw.
    @Test func theEnglishTextsAreTheSeeds() {
        let strings = Strings(locale: "en")
        let seed: [StringKey: String] = [
            .chatTitle: "Ask", .connected: "Connected", .connecting: "Connecting", .disconnected: "Disconnected",
            .typingStatus: "Responding...", .speechError: "Error in voice recognition. Please try again later.",
            .speechRecognitionError: "Speech Recognition Error", .speechSend: "SEND", .speechCancel: "CANCEL",
            .speechStart: "Listening...", .speechPermissionDenied: "Permission_Denied",
            .fileNotSupported: "File type not supported",
            .fileSizeWarning: "You can only attach files of size upto 25MB",
            .galleryPermissionDenied: "You don't have permission to access gallery.",
            .photo: "Photo & Video Library", .files: "Files", .notificationTitle: "OracleChatBot",
            .warning: "Warning", .alert: "Alert", .checkURL: "Please check the url!",
            .failToLoad: "Failed to load the page", .error: "Error", .ok: "Ok", .done: "Done",
            .writeAMessage: "Write a message", .camera: "Camera",
            .speechUnsupportedLocale: "The set speech locale is not supported. Cannot start recording.",
            .accessLabelSkill: "Skill", .accessLabelUser: "User", .accessLabelButtonSend: "Send button",
            .accessLabelButtonSpeak: "Speak button", .accessLabelButtonClear: "Clear messages",
            .accessLabelButtonAudioResponseOff: "Unmute audio response",
            .accessLabelButtonAudioResponseOn: "Mute audio response", .accessLabelPlay: "Play",
            .accessLabelPause: "Pause", .accessLabelButtonAttach: "Upload attachment",
            .accessLabelChatTitle: "Chat title", .accessLabelChatStatus: "Chat status",
            .accessLabelFileAttachment: "file attachment", .accessLabelImageAttachment: "image attacment",
            .accessLabelAudioAttachment: "audio attachment", .accessLabelVideoAttachment: "video attachment",
            .accessLabelLocationMessage: "location message", .accessLabelTextMessage: "text message",
            .accessLabelCardTitle: "card title", .accessLabelCardDescription: "card description",
            .accessLabelHeaderText: "header text", .accessLabelFooterText: "footer text",
        ]
        for (key, text) in seed { #expect(strings[key] == text, "\(key)") }
        #expect(StringKey.allKnown.filter { $0.rawValue.hasPrefix("odais_") }.count == seed.count + 3)
        // The client's default responses are the same texts as its DefaultResponseStrings.
        #expect(strings.defaultResponseStrings == DefaultResponseStrings())
    }

    @Test func frenchAndSpanishTexts() {
        let french = Strings(locale: "fr")
        let spanish = Strings(locale: "es")
        #expect(french[.writeAMessage] == "Écrivez un message")
        #expect(spanish[.writeAMessage] == "Escribe un mensaje")
        #expect(french[.typingStatus] == "Réponse en cours…")
        #expect(spanish[.connected] == "Conectado")
        #expect(french.format(.timeMinutes, 5) == "Il y a 5\u{A0}min")
        #expect(spanish.format(.timeDays, 3) == "Hace 3\u{A0}días")
        #expect(french.defaultResponseStrings.wait.hasPrefix("Je travaille encore"))
    }

    @Test func lookupsFallBackInOrder() {
        var overrides = StringOverrides()
        overrides[.ok] = "Fine"  // every language
        overrides[.ok, locale: "fr"] = "D'accord"  // French
        overrides[.ok, locale: "fr_CA"] = "Correct"  // Canadian French, written with an underscore
        overrides[.done, locale: "FR"] = "Fini"

        // 1. the override for the exact locale, 2. for its language, 3. for every locale
        #expect(Strings(locale: "fr-CA", overrides: overrides)[.ok] == "Correct")
        #expect(Strings(locale: "fr-BE", overrides: overrides)[.ok] == "D'accord")
        #expect(Strings(locale: "fr-CA", overrides: overrides)[.done] == "Fini")
        #expect(Strings(locale: "es", overrides: overrides)[.ok] == "Fine")
        // 4. the bundled table of the locale's language, 5. English, 6. the key
        #expect(Strings(locale: "es-MX", overrides: overrides)[.done] == "Listo")
        #expect(Strings(locale: "de-DE", overrides: overrides)[.done] == "Done")
        #expect(Strings(locale: "fr")[StringKey(rawValue: "app_custom_key")] == "app_custom_key")
        overrides[StringKey(rawValue: "app_custom_key")] = "Custom"
        #expect(Strings(locale: "fr", overrides: overrides)[StringKey(rawValue: "app_custom_key")] == "Custom")
    }

    @Test func anAppLoadsItsOwnStringsFile() throws {
        var overrides = StringOverrides()
        try overrides.load(
            stringsFile: """
                /* The app's French texts */
                "odais_chat_title" = "Pizzéria";   // a comment after an entry
                "odais_ok" = "C'est \\"bon\\"\\n";
                "odais_done" = "Fin \\U00E9";
                """, locale: "fr")
        let strings = Strings(locale: "fr-FR", overrides: overrides)
        #expect(strings[.chatTitle] == "Pizzéria")
        #expect(strings[.ok] == "C'est \"bon\"\n")
        #expect(strings[.done] == "Fin é")
        #expect(Strings(locale: "en", overrides: overrides)[.chatTitle] == "Ask")
    }

    @Test func aBrokenStringsFileSaysWhere() throws {
        #expect((try? StringsFile.parse("\"a\" = \"b\";\n\"c\" = \"d\"\n")) == nil, "no semicolon")
        do {
            _ = try StringsFile.parse("\"a\" = \"b\";\n\n\"c\" \"d\";")
            Issue.record("parsed")
        } catch {
            #expect(error.code == .stringsFileInvalid)
            #expect(error.message == "line 3: expected \"=\"")
        }
        #expect((try? StringsFile.parse("/* not closed")) == nil)
        #expect(try StringsFile.parse("") == [:])
    }
}
