#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// The speech popup over the composer while the user speaks (``ChatViewModel/speech``): `odais_speech_start`,
    /// the partial text as it is heard, a level bar for the voice visualiser, CANCEL (`odais_speech_cancel`) and
    /// SEND (`odais_speech_send`). The model decides when it shows and what it says.
    struct SpeechPanel: View {
        let model: ChatViewModel
        @Environment(\.chatPalette) private var palette

        var body: some View {
            let speech = model.speech
            VStack(alignment: .leading, spacing: 8) {
                Text(speech.listeningLabel)
                    .font(.headline)
                Text(speech.text)
                    .font(.body)
                    .frame(maxWidth: .infinity, alignment: .leading)
                    .accessibilityAddTraits(.updatesFrequently)
                ProgressView(value: speech.levelFraction)
                    .accessibilityHidden(true)
                HStack {
                    Button(speech.cancelLabel, role: .cancel) {
                        Task { await model.cancelSpeech() }
                    }
                    Spacer()
                    Button(speech.sendLabel) {
                        model.stopSpeech()
                    }
                    .buttonStyle(.borderedProminent)
                }
            }
            .foregroundStyle(Color(palette.inputFieldText))
            .padding(12)
            .background(Color(palette.inputField), in: RoundedRectangle(cornerRadius: 12))
            .padding(.horizontal, 8)
        }
    }
#endif
