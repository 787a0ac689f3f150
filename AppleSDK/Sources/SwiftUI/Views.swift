// Mirrors the iOS 18 SDK (Xcode 16) SwiftUI framework: the views Parley's code builds. Transcribed from
// developer.apple.com/documentation/swiftui: VStack, HStack, LazyVStack, LazyHStack, ScrollView, ScrollViewReader,
// ScrollViewProxy/scrollTo(_:anchor:), ForEach, Text, LocalizedStringKey, Image, Label, Button, ButtonRole, Menu,
// Toggle, Picker, TextField (init(_:text:axis:), iOS 16), Spacer, ProgressView, AsyncImage, Link, NavigationStack,
// NavigationPath, Color, ShapeStyle, Shape, Circle, Capsule, RoundedRectangle, Font, Alignment, HorizontalAlignment,
// VerticalAlignment, UnitPoint, Edge, Axis, Animation, withAnimation(_:_:). Interface only: nothing here runs.
public import Foundation

// MARK: Stacks and lists

/// A view that arranges its subviews in a vertical line.
@frozen public struct VStack<Content: View>: _PrimitiveView {
    /// Creates an instance with the given spacing and horizontal alignment.
    nonisolated public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) { fatalError() }
}

/// A view that arranges its subviews in a horizontal line.
@frozen public struct HStack<Content: View>: _PrimitiveView {
    /// Creates a horizontal stack with the given spacing and vertical alignment.
    nonisolated public init(
        alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) { fatalError() }
}

/// A view that arranges its children in a line that grows vertically, creating items only as needed.
@available(iOS 14.0, *)
public struct LazyVStack<Content: View>: _PrimitiveView {
    /// Creates a lazy vertical stack view with the given spacing, vertical alignment, pinning behavior, and content.
    nonisolated public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
        pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content
    ) { fatalError() }
}

/// A view that arranges its children in a line that grows horizontally, creating items only as needed.
@available(iOS 14.0, *)
public struct LazyHStack<Content: View>: _PrimitiveView {
    /// Creates a lazy horizontal stack view with the given spacing, vertical alignment, pinning behavior, and content.
    nonisolated public init(
        alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
        pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content
    ) { fatalError() }
}

/// A set of view types that may be pinned to the bounds of a scroll view.
@available(iOS 14.0, *)
@frozen public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// A scrollable view.
public struct ScrollView<Content: View>: _PrimitiveView {
    /// Creates a new instance that's scrollable in the direction of the given axis and can show indicators while
    /// scrolling.
    nonisolated public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content)
    { fatalError() }
}

/// A view that provides programmatic scrolling, by working with a proxy to scroll to known child views.
@available(iOS 14.0, *)
@frozen public struct ScrollViewReader<Content: View>: _PrimitiveView {
    /// Creates an instance that can perform programmatic scrolling of its child scroll views.
    nonisolated public init(@ViewBuilder content: @escaping (ScrollViewProxy) -> Content) { fatalError() }
}

/// A proxy value that supports programmatic scrolling of the scrollable views within a view hierarchy.
@available(iOS 14.0, *)
public struct ScrollViewProxy {
    /// Scans all scroll views contained by the proxy for the first with a child view with identifier `id`, and then
    /// scrolls to that view.
    public func scrollTo<ID: Hashable>(_ id: ID, anchor: UnitPoint? = nil) { fatalError() }
}

/// A structure that computes views on demand from an underlying collection of identified data.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public typealias Body = Never
}

extension ForEach: View, _PrimitiveView where Content: View {
    /// Creates an instance that uniquely identifies and creates views across updates based on the identity of the
    /// underlying data.
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where ID == Data.Element.ID, Data.Element: Identifiable { fatalError() }
    /// Creates an instance that uniquely identifies and creates views across updates based on the provided key path
    /// to the underlying data's identifier.
    nonisolated public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    { fatalError() }
}

// MARK: Text and images

/// A view that displays one or more lines of read-only text.
@frozen public struct Text: _PrimitiveView, Equatable, Sendable {
    /// Creates a text view that displays a stored string without localization.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ content: S) { fatalError() }
    /// Creates a text view that displays localized content identified by a key.
    nonisolated public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) { fatalError() }
    /// Creates a text view that displays a string literal without localization.
    nonisolated public init(verbatim content: String) { fatalError() }
    nonisolated public static func == (a: Text, b: Text) -> Bool { fatalError() }
}

/// The key used to look up an entry in a strings file or strings dictionary file.
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    /// Creates a localized string key from the given string value.
    public init(_ value: String) { fatalError() }
    public init(stringLiteral value: String) { fatalError() }
    public static func == (a: LocalizedStringKey, b: LocalizedStringKey) -> Bool { fatalError() }
}

/// A view that displays an image.
@frozen public struct Image: _PrimitiveView, Equatable, Sendable {
    /// Creates a system symbol image.
    nonisolated public init(systemName: String) { fatalError() }
    /// Creates a labeled image that you can use as content for controls.
    nonisolated public init(_ name: String, bundle: Bundle? = nil) { fatalError() }
    /// Creates a SwiftUI image from a UIKit image instance.
    nonisolated public init(uiImage: UIImage) { fatalError() }
    /// Sets the mode by which SwiftUI resizes an image to fit its space.
    nonisolated public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch)
        -> Image
    { fatalError() }
    nonisolated public static func == (a: Image, b: Image) -> Bool { fatalError() }

    /// The modes that SwiftUI uses to resize an image to fit within its containing view.
    public enum ResizingMode: Sendable {
        case tile
        case stretch
    }

    /// A scale to apply to vector images relative to text.
    public enum Scale: Sendable {
        case small
        case medium
        case large
    }
}

/// The inset distances for the sides of a rectangle.
@frozen public struct EdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
}

/// A standard label for user interface items, consisting of an icon with a title.
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    /// Creates a label with a custom title and icon.
    nonisolated public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) { fatalError() }
}

extension Label where Title == Text, Icon == Image {
    /// Creates a label with a system icon image and a title generated from a string.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        fatalError()
    }
}

// MARK: Controls

/// A control that initiates an action.
public struct Button<Label: View>: _PrimitiveView {
    /// Creates a button that displays a custom label.
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        fatalError()
    }
    /// Creates a button with a specified role that displays a custom label.
    @available(iOS 15.0, *)
    @preconcurrency nonisolated public init(
        role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label
    ) { fatalError() }
}

extension Button where Label == Text {
    /// Creates a button that generates its label from a string.
    @_disfavoredOverload @preconcurrency nonisolated public init<S: StringProtocol>(
        _ title: S, action: @escaping @MainActor () -> Void
    ) { fatalError() }
    /// Creates a button with a specified role that generates its label from a string.
    @available(iOS 15.0, *)
    @_disfavoredOverload @preconcurrency nonisolated public init<S: StringProtocol>(
        _ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void
    ) { fatalError() }
}

/// A value that describes the purpose of a button.
@available(iOS 15.0, *)
public struct ButtonRole: Equatable, Sendable {
    /// A role that indicates a destructive button.
    public static let destructive = ButtonRole()
    /// A role that indicates a button that cancels an operation.
    public static let cancel = ButtonRole()
    private init() {}
}

/// A control for presenting a menu of actions.
@available(iOS 14.0, *)
public struct Menu<Label: View, Content: View>: _PrimitiveView {
    /// Creates a menu with a custom label.
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) { fatalError() }
}

/// A control that toggles between on and off states.
public struct Toggle<Label: View>: _PrimitiveView {
    /// Creates a toggle that displays a custom label.
    nonisolated public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) { fatalError() }
}

extension Toggle where Label == Text {
    /// Creates a toggle that generates its label from a string.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) { fatalError() }
}

/// A control for selecting from a set of mutually exclusive values.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: _PrimitiveView {
    /// Creates a picker that displays a custom label.
    nonisolated public init(
        selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label
    ) { fatalError() }
}

extension Picker where Label == Text {
    /// Creates a picker that generates its label from a string.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(
        _ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content
    ) { fatalError() }
}

/// A control that displays an editable text interface.
public struct TextField<Label: View>: _PrimitiveView {}

extension TextField where Label == Text {
    /// Creates a text field with a text label generated from a title string.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) { fatalError() }
    /// Creates a text field with a preferred axis and a text label generated from a title string.
    @available(iOS 16.0, *)
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>, axis: Axis) {
        fatalError()
    }
}

/// A flexible space that expands along the major axis of its containing stack layout.
@frozen public struct Spacer: _PrimitiveView {
    /// The minimum length this spacer can be shrunk to, along the axis or axes of expansion.
    public var minLength: CGFloat?
    @inlinable nonisolated public init(minLength: CGFloat? = nil) { self.minLength = minLength }
}

/// A view that shows the progress toward completion of a task.
@available(iOS 14.0, *)
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// Creates a progress view for showing indeterminate progress, without a label.
    nonisolated public init() { fatalError() }
    /// Creates a progress view for showing determinate progress.
    nonisolated public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) { fatalError() }
}

/// A view that asynchronously loads and displays an image.
@available(iOS 15.0, *)
public struct AsyncImage<Content: View>: _PrimitiveView {
    /// Loads and displays a modifiable image from the specified URL using a custom placeholder until the image loads.
    nonisolated public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> { fatalError() }
}

/// A control for navigating to a URL.
@available(iOS 14.0, *)
public struct Link<Label: View>: _PrimitiveView {}

extension Link where Label == Text {
    /// Creates a control, consisting of a URL and a title string, used to navigate to a URL.
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, destination: URL) { fatalError() }
}

/// A view that displays a root view and enables you to present additional views over the root view.
@available(iOS 16.0, *)
@MainActor @preconcurrency public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

extension NavigationStack where Data == NavigationPath {
    /// Creates a navigation stack that manages its own navigation state.
    @MainActor @preconcurrency public init(@ViewBuilder root: () -> Root) { fatalError() }
}

/// A type-erased list of data representing the content of a navigation stack.
@available(iOS 16.0, *)
public struct NavigationPath: Equatable {
    public init() {}
}

// MARK: Colors, shapes, fonts

/// A type that converts to a shape style, a color or pattern to use when rendering a shape.
@available(iOS 13.0, *)
public protocol ShapeStyle: Sendable {}

/// A representation of a color that adapts to a given context.
@frozen public struct Color: _PrimitiveView, ShapeStyle, Hashable, CustomStringConvertible {
    /// Creates a constant color from red, green, and blue component values.
    nonisolated public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1)
    { fatalError() }
    /// Creates a color from a UIKit color.
    nonisolated public init(uiColor: UIColor) { fatalError() }
    nonisolated public var description: String { fatalError() }

    /// A profile that specifies how to interpret a color value for display.
    public enum RGBColorSpace: Sendable, Hashable {
        case sRGB
        case sRGBLinear
        case displayP3
    }

    /// A context-dependent red color suitable for use in UI elements.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// A clear color suitable for use in UI elements.
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// A color that reflects the accent color of the system or app.
    public static var accentColor: Color { fatalError() }
}

extension ShapeStyle where Self == Color {
    /// A context-dependent red color suitable for use in UI elements.
    public static var red: Color { fatalError() }
    /// A clear color suitable for use in UI elements.
    public static var clear: Color { fatalError() }
}

/// A shape style that maps to one of the numbered content styles.
@available(iOS 15.0, *)
public struct HierarchicalShapeStyle: ShapeStyle {}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// A shape style that maps to the second level of the current content style.
    public static var secondary: HierarchicalShapeStyle { fatalError() }
}

/// A 2D shape that you can use when drawing a view.
@available(iOS 13.0, *)
public protocol Shape: Sendable, View {}

extension Shape {
    /// Fills this shape with a color or gradient.
    nonisolated public func fill<S: ShapeStyle>(_ content: S) -> some View { self }
}

/// A circle centered on the frame of the view containing it.
@frozen public struct Circle: Shape, _PrimitiveView {
    @inlinable nonisolated public init() {}
}

/// A capsule shape aligned inside the frame of the view containing it.
@frozen public struct Capsule: Shape, _PrimitiveView {
    @inlinable nonisolated public init() {}
}

/// A rectangular shape with rounded corners, aligned inside the frame of the view containing it.
@frozen public struct RoundedRectangle: Shape, _PrimitiveView {
    /// Creates a new rounded rectangle shape.
    nonisolated public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { fatalError() }
}

/// Defines the shape of a rounded rectangle's corners.
public enum RoundedCornerStyle: Equatable, Hashable, Sendable {
    case circular
    case continuous
}

/// An environment-dependent font.
@frozen public struct Font: Hashable, Sendable {
    /// A font with the large title text style.
    public static let largeTitle = Font()
    /// A font with the title text style.
    public static let title = Font()
    /// A font for third level hierarchical headings.
    public static let title3 = Font()
    /// A font with the headline text style.
    public static let headline = Font()
    /// A font with the subheadline text style.
    public static let subheadline = Font()
    /// A font with the body text style.
    public static let body = Font()
    /// A font with the callout text style.
    public static let callout = Font()
    /// A font with the footnote text style.
    public static let footnote = Font()
    /// A font with the caption text style.
    public static let caption = Font()
    /// Create a font with the alternate caption text style.
    public static let caption2 = Font()
    private init() {}

    /// Sets the weight of the font.
    public func weight(_ weight: Font.Weight) -> Font { fatalError() }
    /// Adds italics to the font.
    public func italic() -> Font { fatalError() }
    /// Returns a fixed-width font from the same family as the base font.
    @available(iOS 15.0, *)
    public func monospaced() -> Font { fatalError() }
    /// Adds bold styling to the font.
    public func bold() -> Font { fatalError() }

    /// A weight to use for fonts.
    @frozen public struct Weight: Hashable, Sendable {
        public static let regular = Weight()
        public static let medium = Weight()
        public static let semibold = Weight()
        public static let bold = Weight()
        private init() {}
    }

    /// A dynamic text style to use for fonts.
    public enum TextStyle: CaseIterable, Hashable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }
}

// MARK: Geometry

/// An alignment in both axes.
@frozen public struct Alignment: Equatable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
}

/// An alignment position along the horizontal axis.
@frozen public struct HorizontalAlignment: Equatable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
    private init() {}
}

/// An alignment position along the vertical axis.
@frozen public struct VerticalAlignment: Equatable {
    public static let top = VerticalAlignment()
    public static let center = VerticalAlignment()
    public static let bottom = VerticalAlignment()
    public static let firstTextBaseline = VerticalAlignment()
    public static let lastTextBaseline = VerticalAlignment()
    private init() {}
}

/// A normalized 2D point in a view's coordinate space.
@frozen public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
}

/// An enumeration to indicate one edge of a rectangle.
@frozen public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    /// An efficient set of edges.
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1)
        public static let leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4)
        public static let trailing = Set(rawValue: 8)
        public static let all = Set(rawValue: 15)
        public static let horizontal = Set(rawValue: 10)
        public static let vertical = Set(rawValue: 5)
    }
}

/// The horizontal or vertical dimension in a 2D coordinate system.
@frozen public enum Axis: Int8, CaseIterable, Sendable {
    case horizontal
    case vertical

    /// An efficient set of axes.
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

/// The way a view changes over time to create a smooth visual transition from one state to another.
@frozen public struct Animation: Equatable, Sendable {
    /// A default animation instance.
    public static let `default` = Animation()
    private init() {}
}

/// Returns the result of recomputing the view's body with the provided animation.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    fatalError()
}
