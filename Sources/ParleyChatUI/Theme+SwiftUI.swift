#if canImport(SwiftUI)
    public import SwiftUI
    public import ParleyUI

    extension Color {
        /// The colour of a ParleyUI ``RGBA`` (sRGB components from 0 to 1).
        public init(_ rgba: RGBA) {
            self.init(.sRGB, red: rgba.red, green: rgba.green, blue: rgba.blue, opacity: rgba.alpha)
        }
    }

    extension Theme {
        /// The palette for SwiftUI's colour scheme (``Theme/palette(for:)``).
        public func palette(for scheme: ColorScheme) -> Palette {
            palette(for: scheme == .dark ? Theme.Appearance.dark : Theme.Appearance.light)
        }
    }

    extension EnvironmentValues {
        /// The palette the chat views paint with; ``ChatView`` sets it from the model's theme and the colour scheme.
        public var chatPalette: Theme.Palette {
            get { self[ChatPaletteKey.self] }
            set { self[ChatPaletteKey.self] = newValue }
        }
    }

    /// The environment key of ``SwiftUICore/EnvironmentValues/chatPalette`` (a key rather than SwiftUI's `@Entry`
    /// macro, which needs a compiler plug-in the Linux type-check does not have).
    private struct ChatPaletteKey: EnvironmentKey {
        static let defaultValue: Theme.Palette = Theme().light
    }
#endif
