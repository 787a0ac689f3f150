import Foundation
public import ParleySpeech

extension VoicePreference {
    /// The voice to read aloud with, by Oracle's fallback order for `speechSynthesisVoicePreferences`: the first
    /// preference whose language-locale and voice name both match a voice; else the default voice of the first
    /// preferred language-locale the engine has (a voice marked `default`, else its first voice of that language);
    /// else `nil`, the engine's default voice and language.
    /// - Returns: The voice; `nil` for the engine's default voice and language.
    public static func choose(_ preferences: [VoicePreference], from voices: [SynthesisVoice]) -> SynthesisVoice? {
        func sameLanguage(_ voice: SynthesisVoice, _ preference: VoicePreference) -> Bool {
            let wanted = preference.language.replacingOccurrences(of: "_", with: "-").lowercased()
            return voice.language.replacingOccurrences(of: "_", with: "-").lowercased() == wanted
        }
        for preference in preferences {
            guard let name = preference.name?.lowercased() else { continue }
            if let voice = voices.first(where: {
                sameLanguage($0, preference) && ($0.name.lowercased() == name || $0.identifier.lowercased() == name)
            }) {
                return voice
            }
        }
        for preference in preferences {
            let candidates = voices.filter { sameLanguage($0, preference) }
            if let voice = candidates.first(where: { $0.quality == "default" }) ?? candidates.first { return voice }
        }
        return nil
    }
}
