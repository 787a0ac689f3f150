import Foundation

/// A colour as red, green, blue and alpha components from 0 to 1: what a view turns into a SwiftUI `Color` or a
/// `UIColor` (`UIColor(red:green:blue:alpha:)`). No UI framework is needed to hold or test one.
///
/// ```swift
/// let blue = RGBA(hex: "#0077C2")      // ParleyUI's default action button colour
/// print(blue?.hex ?? "")               // "#0077C2"
/// ```
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0 to 1.
    public var red: Double
    /// Green, 0 to 1.
    public var green: Double
    /// Blue, 0 to 1.
    public var blue: Double
    /// Opacity, 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A colour from components; each is clamped to 0…1 (a component that is not a number counts as 0).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamped(_ component: Double) -> Double { component.isNaN ? 0 : min(max(component, 0), 1) }
        self.red = clamped(red)
        self.green = clamped(green)
        self.blue = clamped(blue)
        self.alpha = clamped(alpha)
    }

    /// A grey: the same `white` level in every channel (UIKit's `UIColor(white:alpha:)`).
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from CSS-style text: `#RGB`, `#RRGGBB`, `#RRGGBBAA` (the `#` is optional), `rgb(r, g, b)` or
    /// `rgba(r, g, b, a)` with components 0–255 and alpha 0–1, or one of the names ``named``. `nil` for anything
    /// else. The agent colours a server sends (`agentSession.nameTextColor`…) are read with it.
    public init?(css text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = Self.named[trimmed] {
            self = named
        } else if trimmed.hasPrefix("rgb") {
            guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else { return nil }
            let numbers = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                .split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            // `Double` also reads "nan" and "inf": a colour takes finite numbers only.
            guard numbers.count == 3 || numbers.count == 4, numbers.allSatisfy({ $0?.isFinite == true }) else {
                return nil
            }
            let values = numbers.compactMap { $0 }
            self.init(
                red: values[0] / 255, green: values[1] / 255, blue: values[2] / 255,
                alpha: values.count == 4 ? values[3] : 1)
        } else {
            self.init(hex: trimmed)
        }
    }

    /// A colour from `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); `nil` for anything else.
    public init?(hex text: String) {
        var digits = text.trimmingCharacters(in: .whitespaces)
        if digits.hasPrefix("#") { digits.removeFirst() }
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        let hasAlpha = digits.count == 8
        let rgb = hasAlpha ? value >> 8 : value
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: hasAlpha ? Double(value & 0xFF) / 255 : 1)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when the colour is not opaque.
    public var hex: String {
        func byte(_ component: Double) -> String {
            let text = String(Int((component * 255).rounded()), radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    /// The ``hex`` form.
    public var description: String { hex }

    /// White (UIKit's `UIColor.white`).
    public static let white = RGBA(white: 1)
    /// Black (UIKit's `UIColor.black`).
    public static let black = RGBA(white: 0)
    /// Transparent (UIKit's `UIColor.clear`).
    public static let clear = RGBA(white: 0, alpha: 0)
    /// UIKit's `UIColor.lightGray`: a two-thirds white.
    public static let lightGray = RGBA(white: 2.0 / 3.0)
    /// UIKit's `UIColor.darkGray`: a third white.
    public static let darkGray = RGBA(white: 1.0 / 3.0)

    /// The colour names ``init(css:)`` knows: the basic CSS colours and UIKit's greys.
    public static let named: [String: RGBA] = [
        "black": .black, "white": .white, "clear": .clear, "transparent": .clear,
        "red": RGBA(red: 1, green: 0, blue: 0),
        "green": RGBA(red: 0, green: 128.0 / 255, blue: 0), "blue": RGBA(red: 0, green: 0, blue: 1),
        "yellow": RGBA(red: 1, green: 1, blue: 0), "orange": RGBA(red: 1, green: 165.0 / 255, blue: 0),
        "purple": RGBA(red: 128.0 / 255, green: 0, blue: 128.0 / 255), "gray": RGBA(white: 128.0 / 255),
        "grey": RGBA(white: 128.0 / 255), "lightgray": .lightGray, "darkgray": .darkGray,
    ]
}
