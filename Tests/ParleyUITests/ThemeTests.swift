import ParleyUI
import Testing

@Suite struct ThemeTests {
    /// Oracle's documented defaults (iOS SDK, "Colors"), colour by colour.
    @Test func theLightPaletteIsOraclesDefaults() {
        let light = Theme().light
        let expected: [(RGBA, String)] = [
            (light.actionButton, "#0077C2"), (light.actionLabelText, "#FFFFFF"), (light.botMessage, "#BBDEFB"),
            (light.botText, "#000000"), (light.cardBackground, "#BBDEFB"), (light.cardDescriptionText, "#000000"),
            (light.cardTitleText, "#000000"), (light.chatBackground, "#FAFAFA"), (light.footer, "#004C8C"),
            (light.footerIcons, "#004C8C"), (light.headerIcons, "#FFFFFF"), (light.headerText, "#FFFFFF"),
            (light.inputField, "#FFFFFF"), (light.inputFieldText, "#000000"), (light.timestamp, "#AAAAAA"),
            (light.userMessage, "#E0E0E0"), (light.userText, "#000000"), (light.navigationBar, "#004C8C"),
        ]
        for (colour, hex) in expected { #expect(colour.hex == hex) }
    }

    @Test func theStyleChoosesThePalette() {
        var theme = Theme()
        #expect(theme.style == .default)
        #expect(theme.palette(for: .light) == .light)
        #expect(theme.palette(for: .dark) == .dark)
        #expect(Theme.Palette.dark.navigationBar.hex == "#201E1C", "Oracle's REDWOOD_DARK navigation bar")
        theme.style = .redwoodDark
        #expect(theme.palette(for: .light) == .dark)
        theme.light.actionButton = RGBA(red: 1, green: 0, blue: 0)
        theme.style = .default
        #expect(theme.palette(for: .light).actionButton.hex == "#FF0000")
    }

    @Test func coloursFromText() {
        #expect(RGBA(hex: "#0077C2") == RGBA(red: 0, green: 0x77 / 255, blue: 0xC2 / 255))
        #expect(RGBA(hex: "fff") == .white)
        #expect(RGBA(hex: "#00000080")?.alpha == 128.0 / 255)
        #expect(RGBA(hex: "#00000080")?.hex == "#00000080")
        #expect(RGBA(hex: "#12345") == nil)
        #expect(RGBA(hex: "#GGGGGG") == nil)
        #expect(RGBA(css: "rgb(255, 0, 0)")?.hex == "#FF0000")
        #expect(RGBA(css: "rgba(0, 0, 255, 0.5)")?.alpha == 0.5)
        #expect(RGBA(css: " Red ")?.hex == "#FF0000")
        #expect(RGBA(css: "rgb(1, 2)") == nil)
        #expect(RGBA(css: "nonsense") == nil)
        // A server sends agent colours: numbers that are not finite are refused, never a crash when written.
        #expect(RGBA(css: "rgb(nan, 0, 0)") == nil)
        #expect(RGBA(css: "rgba(0, 0, 0, inf)") == nil)
        #expect(RGBA(css: "rgb(1e300, -1e300, 0)")?.hex == "#FF0000")
        #expect(RGBA(red: .nan, green: .infinity, blue: 0, alpha: .nan).hex == "#00FF0000")
        #expect(RGBA(red: 2, green: -1, blue: 0.5).red == 1)
    }
}
