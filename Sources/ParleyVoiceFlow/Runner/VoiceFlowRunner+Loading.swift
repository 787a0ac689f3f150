public import Foundation
public import ParleyCore
public import ParleySpeech

// What a runner loads before it runs: the flow, prompt modules, the audio-to-text map, resource folders, the
// delegate, and speech-synthesis aliases, phonemes and voices.
extension VoiceFlowRunner {
    // MARK: Loading

    /// Loads a voice flow from JSON text, replacing the loaded one.
    /// - Throws: ``ParleyError`` when it does not parse, or the ``Validator`` finds errors (warnings pass).
    public func loadVoiceFlow(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in
            let flow = try VoiceFlow(parsing: json)
            if let error = Validator.validate(flow).first(where: { $0.severity == .error }) { throw error.error }
            self.flow = flow
        }
    }

    /// Loads a voice-flow file (a relative name is resolved in the `FC_VOICEFLOW` folder, language folder first).
    public func loadVoiceFlow(file: String) throws(ParleyError) {
        try loadVoiceFlow(json: try readResource(file, .voiceFlow))
    }

    /// Loads audio prompt modules from JSON text; they are added to those loaded before (same id: replaced).
    public func loadPrompts(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in
            var library = prompts
            try library.merge(parsing: json)
            if let error = Validator.validate(library).first(where: { $0.severity == .error }) { throw error.error }
            prompts = library
        }
    }

    /// Loads an audio prompt module file (resolved in the `FC_VOICEFLOW` folder).
    public func loadPrompts(file: String) throws(ParleyError) {
        try loadPrompts(json: try readResource(file, .voiceFlow))
    }

    /// Loads an Audio-to-Text map from JSON text, adding to the loaded entries.
    public func loadAudioToTextMap(json: String) throws(ParleyError) {
        try record { () throws(ParleyError) in try audioToText.merge(parsing: json) }
    }

    /// Loads an Audio-to-Text map file (resolved in the `FC_VOICEFLOW` folder).
    public func loadAudioToTextMap(file: String) throws(ParleyError) {
        try loadAudioToTextMap(json: try readResource(file, .voiceFlow))
    }

    /// Validates the loaded flow against the loaded prompt modules.
    public func validate() -> [Diagnostic] {
        guard let flow else { return [] }
        return Validator.validate(flow, prompts: prompts)
    }

    /// Sets the folder of a file category (`setMediaResourceLocation`). For
    /// ``ResourceLocations/FileCategory/recordAudio``
    /// the folder is created.
    public func setResourceLocation(_ folder: URL, for category: ResourceLocations.FileCategory) throws(ParleyError) {
        if category == .recordAudio {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw recorded(ParleyError(.fileNotFound, "cannot create \(folder.path)", underlying: error))
            }
        }
        locations.folders[category] = folder
    }

    /// Sets the language folder (default `en-US`).
    public func setLanguageFolder(_ name: String) {
        locations.languageFolder = name
    }

    /// The resource locations.
    public var resourceLocations: ResourceLocations { locations }

    /// Sets (or clears) the delegate.
    public func setDelegate(_ delegate: (any VoiceFlowDelegate)?) {
        self.delegate = delegate
    }

    // MARK: Speech synthesis

    /// Adds speech-synthesis aliases.
    public func loadAliases(_ aliases: [String: String]) {
        pronunciations.aliases.merge(aliases) { _, new in new }
    }

    /// Adds the aliases of a `word: alias` file (`#` lines ignored; resolved in `FC_SPEECH_SYNTHESIS`).
    public func loadAliases(file: String) throws(ParleyError) {
        let text = try readResource(file, .speechSynthesis)
        try record { () throws(ParleyError) in try pronunciations.loadAliases(from: text) }
    }

    /// Adds IPA phonemes.
    public func loadPhonemes(_ phonemes: [String: String]) {
        pronunciations.phonemes.merge(phonemes) { _, new in new }
    }

    /// Adds the phonemes of a `word: ipa` file (`#` lines ignored; resolved in `FC_SPEECH_SYNTHESIS`).
    public func loadPhonemes(file: String) throws(ParleyError) {
        let text = try readResource(file, .speechSynthesis)
        try record { () throws(ParleyError) in try pronunciations.loadPhonemes(from: text) }
    }

    /// The loaded aliases and phonemes.
    public var loadedPronunciations: Pronunciations { pronunciations }

    /// The synthesizer's voices (`getSSVoices`); empty without a synthesizer.
    public func voices() async throws(ParleyError) -> [SynthesisVoice] {
        guard let synthesizer else { return [] }
        return try await synthesizer.voices()
    }

    /// Selects the voice text is spoken with, by identifier.
    public func selectVoice(_ identifier: String) {
        selectedVoices[synthesizer?.engine ?? ""] = identifier
    }

    /// The selected voice (`getSelectedSSVoice`), or `nil` when none was selected or it is not in the list.
    public func selectedVoice() async throws(ParleyError) -> SynthesisVoice? {
        guard let identifier = selectedVoices[synthesizer?.engine ?? ""] else { return nil }
        return try await voices().first { $0.identifier == identifier }
    }
}
