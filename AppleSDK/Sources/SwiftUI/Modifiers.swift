// Mirrors the iOS 18 SDK (Xcode 16) SwiftUI framework: the view modifiers Parley's code calls, each `nonisolated` as
// the SDK declares it. Transcribed from developer.apple.com/documentation/swiftui/view: padding(_:_:), padding(_:),
// frame(width:height:alignment:), frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:),
// background(_:in:fillStyle:), background(_:ignoresSafeAreaEdges:), background(alignment:content:),
// overlay(alignment:content:), foregroundStyle(_:), font(_:), imageScale(_:), scaledToFill(), scaledToFit(),
// clipShape(_:style:), clipped(antialiased:), opacity(_:), disabled(_:), id(_:), tag(_:), tint(_:), lineLimit(_:),
// controlSize(_:), buttonStyle(_:), onTapGesture(count:perform:), onSubmit(of:_:), onAppear(perform:),
// onDisappear(perform:), onChange(of:initial:_:), task(priority:_:), task(id:priority:_:) (the action also
// `@_inheritActorContext` as in SwiftUI's .swiftinterface, so it runs on the view's main actor), alert(_:isPresented:
// actions:message:), sheet(item:onDismiss:content:), sheet(isPresented:onDismiss:content:),
// fullScreenCover(isPresented:onDismiss:content:), presentationDetents(_:), fileImporter(isPresented:
// allowedContentTypes:onCompletion:), navigationTitle(_:), toolbar(content:), accessibilityLabel(_:),
// accessibilityValue(_:), accessibilityHint(_:), accessibilityHidden(_:), accessibilityAddTraits(_:),
// accessibilityElement(children:); ToolbarContent, ToolbarContentBuilder, ToolbarItem, ToolbarItemGroup,
// ToolbarItemPlacement, PresentationDetent, AccessibilityTraits, AccessibilityChildBehavior, ControlSize,
// PrimitiveButtonStyle, BorderedProminentButtonStyle, SubmitTriggers, FillStyle. Interface only: nothing runs.
public import Foundation
public import UniformTypeIdentifiers

extension View {
    // MARK: Layout

    /// Adds an equal padding amount to specific edges of this view.
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { self }
    /// Adds a specific padding amount to each edge of this view.
    nonisolated public func padding(_ length: CGFloat) -> some View { self }
    /// Positions this view within an invisible frame with the specified size.
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> some View
    { self }
    /// Positions this view within an invisible frame having the specified size constraints.
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { self }
    /// Scales this view to fill its parent.
    nonisolated public func scaledToFill() -> some View { self }
    /// Scales this view to fit its parent.
    nonisolated public func scaledToFit() -> some View { self }
    /// Binds a view's identity to the given proxy value.
    nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { self }
    /// Sets the unique tag value of this view.
    nonisolated public func tag<V: Hashable>(_ tag: V) -> some View { self }

    // MARK: Drawing

    /// Sets the view's background to an insettable shape filled with a style.
    nonisolated public func background<S: ShapeStyle, T: Shape>(
        _ style: S, in shape: T, fillStyle: FillStyle = FillStyle()
    ) -> some View { self }
    /// Sets the view's background to a style.
    nonisolated public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all)
        -> some View
    { self }
    /// Layers the views that you specify behind this view.
    nonisolated public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V)
        -> some View
    { self }
    /// Layers the views that you specify in front of this view.
    nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View
    { self }
    /// Sets a view's foreground elements to use a given style.
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    /// Sets the tint color within this view.
    nonisolated public func tint(_ tint: Color?) -> some View { self }
    /// Sets the default font for text in this view.
    nonisolated public func font(_ font: Font?) -> some View { self }
    /// Scales images within the view according to one of the relative sizes available including small, medium,
    /// and large images sizes.
    nonisolated public func imageScale(_ scale: Image.Scale) -> some View { self }
    /// Sets the maximum number of lines that text can occupy in this view.
    nonisolated public func lineLimit(_ number: Int?) -> some View { self }
    /// Sets to a closed range the number of lines that text can occupy in this view.
    @available(iOS 16.0, *)
    nonisolated public func lineLimit(_ limit: ClosedRange<Int>) -> some View { self }
    /// Sets a clipping shape for this view.
    nonisolated public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View { self }
    /// Clips this view to its bounding rectangular frame.
    nonisolated public func clipped(antialiased: Bool = false) -> some View { self }
    /// Sets the transparency of this view.
    nonisolated public func opacity(_ opacity: Double) -> some View { self }

    // MARK: Controls

    /// Adds a condition that controls whether users can interact with this view.
    nonisolated public func disabled(_ disabled: Bool) -> some View { self }
    /// Sets the size for controls within this view.
    @available(iOS 15.0, *)
    nonisolated public func controlSize(_ controlSize: ControlSize) -> some View { self }
    /// Sets the style for buttons within this view to a button style with a custom appearance and standard
    /// interaction behavior.
    nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }

    // MARK: Events

    /// Adds an action to perform when this view recognizes a tap gesture.
    nonisolated public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View { self }
    /// Adds an action to perform when the user submits a value to this view.
    @available(iOS 15.0, *)
    nonisolated public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View {
        self
    }
    /// Adds an action to perform before this view appears.
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
    /// Adds an action to perform after this view disappears.
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }
    /// Adds a modifier for this view that fires an action when a specific value changes.
    @available(iOS 17.0, *)
    nonisolated public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View { self }
    /// Adds a modifier for this view that fires an action when a specific value changes.
    @available(iOS 17.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void)
        -> some View
    { self }
    /// Adds an asynchronous task to perform before this view appears.
    @available(iOS 15.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }
    /// Adds a task to perform before this view appears or when a specified value changes.
    @available(iOS 15.0, *)
    nonisolated public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }

    // MARK: Presentation

    /// Presents an alert with a message when a given condition is true, using a string variable as a title.
    @available(iOS 15.0, *)
    nonisolated public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> some View { self }
    /// Presents a sheet using the given item as a data source for the sheet's content.
    nonisolated public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { self }
    /// Presents a sheet when a binding to a Boolean value that you provide is true.
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { self }
    /// Presents a modal view that covers as much of the screen as possible when binding to a Boolean value you
    /// provide is true.
    @available(iOS 14.0, *)
    nonisolated public func fullScreenCover<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { self }
    /// Sets the available detents for the enclosing sheet.
    @available(iOS 16.0, *)
    nonisolated public func presentationDetents(_ detents: Set<PresentationDetent>) -> some View { self }
    /// Presents a system interface for allowing the user to import an existing file.
    @available(iOS 14.0, *)
    nonisolated public func fileImporter(
        isPresented: Binding<Bool>, allowedContentTypes: [UTType],
        onCompletion: @escaping (_ result: Result<URL, any Error>) -> Void
    ) -> some View { self }

    // MARK: Navigation

    /// Configures the view's title for purposes of navigation, using a string.
    @_disfavoredOverload nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { self }
    /// Populates the toolbar or navigation bar with the specified items.
    @available(iOS 14.0, *)
    nonisolated public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content)
        -> some View
    { self }

    // MARK: Accessibility

    /// Adds a label to the view that describes its contents.
    @_disfavoredOverload nonisolated public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View {
        self
    }
    /// Adds a label to the view that describes its contents.
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { self }
    /// Adds a textual description of the value that the view contains.
    @_disfavoredOverload nonisolated public func accessibilityValue<S: StringProtocol>(_ value: S) -> some View {
        self
    }
    /// Communicates to the user what happens after performing the view's action.
    @_disfavoredOverload nonisolated public func accessibilityHint<S: StringProtocol>(_ hint: S) -> some View { self }
    /// Specifies whether to hide this view from system accessibility features.
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    /// Adds the given traits to the view.
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { self }
    /// Creates a new accessibility element, or modifies the AccessibilityChildBehavior of the existing accessibility
    /// element.
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { self }
}

/// A style for rasterizing vector shapes.
@frozen public struct FillStyle: Equatable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// The size classes, like regular or small, that you can apply to controls within a view.
@available(iOS 15.0, *)
public enum ControlSize: CaseIterable, Hashable, Sendable {
    case mini, small, regular, large, extraLarge
}

/// A type that specifies the appearance and interaction of all buttons within a view hierarchy.
public protocol PrimitiveButtonStyle {}

/// A button style that applies standard border prominent artwork based on the button's context.
@available(iOS 15.0, *)
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    /// A button style that applies standard border prominent artwork based on the button's context.
    public static var borderedProminent: BorderedProminentButtonStyle { fatalError() }
}

/// A type that defines various triggers that result in the firing of a submission action.
@available(iOS 15.0, *)
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Defines triggers originating from text input controls like TextField and SecureField.
    public static let text = SubmitTriggers(rawValue: 1)
}

/// A type that represents a height where a sheet naturally rests.
@available(iOS 16.0, *)
public struct PresentationDetent: Hashable, Sendable {
    /// The system detent for a sheet that's approximately half the height of the screen.
    public static let medium = PresentationDetent()
    /// The system detent for a sheet at full height.
    public static let large = PresentationDetent()
    private init() {}
}

/// A set of accessibility traits that describe how an element behaves.
@available(iOS 14.0, *)
public struct AccessibilityTraits: SetAlgebra, Sendable {
    public typealias Element = AccessibilityTraits
    public typealias ArrayLiteralElement = AccessibilityTraits
    public init() { fatalError() }
    public func contains(_ member: AccessibilityTraits) -> Bool { fatalError() }
    public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    public mutating func insert(_ newMember: AccessibilityTraits) -> (inserted: Bool, memberAfterInsert: AccessibilityTraits)
    { fatalError() }
    public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
    public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
    public mutating func formUnion(_ other: AccessibilityTraits) { fatalError() }
    public mutating func formIntersection(_ other: AccessibilityTraits) { fatalError() }
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) { fatalError() }
    public static func == (lhs: AccessibilityTraits, rhs: AccessibilityTraits) -> Bool { fatalError() }

    /// The accessibility element is a button.
    public static var isButton: AccessibilityTraits { fatalError() }
    /// The accessibility element is a header that divides content into sections, like the title of a navigation bar.
    public static var isHeader: AccessibilityTraits { fatalError() }
    /// The accessibility element is a link.
    public static var isLink: AccessibilityTraits { fatalError() }
    /// The accessibility element is an image.
    public static var isImage: AccessibilityTraits { fatalError() }
    /// The accessibility element frequently updates its label or value.
    public static var updatesFrequently: AccessibilityTraits { fatalError() }
}

/// Defines the behavior for the child elements of the new parent element.
@available(iOS 14.0, *)
public struct AccessibilityChildBehavior: Hashable, Sendable {
    /// Child accessibility elements become hidden.
    public static let ignore = AccessibilityChildBehavior()
    /// Any child accessibility elements become children of the new accessibility element.
    public static let contain = AccessibilityChildBehavior()
    /// Combine any child accessibility element's properties for the new accessibility element.
    public static let combine = AccessibilityChildBehavior()
    private init() {}
}

// MARK: Toolbars

/// Conforming types represent items that can be placed in various locations in a toolbar.
@available(iOS 14.0, *)
@MainActor @preconcurrency public protocol ToolbarContent {
    /// The type of content representing the body of this toolbar content.
    associatedtype Body: ToolbarContent
    /// The composition of content that comprise the toolbar content.
    @ToolbarContentBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: ToolbarContent {}

/// Constructs a toolbar item set from multi-expression closures.
@available(iOS 14.0, *)
@resultBuilder public struct ToolbarContentBuilder {
    /// Builds an expression within the builder.
    public static func buildExpression<Content: ToolbarContent>(_ content: Content) -> Content { content }
    /// Passes a single toolbar item through unmodified.
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

/// A model that represents an item which can be placed in the toolbar or navigation bar.
@available(iOS 14.0, *)
public struct ToolbarItem<ID, Content: View>: ToolbarContent {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension ToolbarItem where ID == () {
    /// Creates a toolbar item with the specified placement and content.
    nonisolated public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        fatalError()
    }
}

/// A model that represents a group of toolbar items which can be placed in the toolbar or navigation bar.
@available(iOS 14.0, *)
public struct ToolbarItemGroup<Content: View>: ToolbarContent {
    public typealias Body = Never
    public var body: Never { fatalError() }
    /// Creates a toolbar item group with a specified placement and content.
    nonisolated public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        fatalError()
    }
}

/// A structure that defines the placement of a toolbar item.
@available(iOS 14.0, *)
public struct ToolbarItemPlacement {
    /// The system places the item automatically, depending on many factors including the platform, size class, or
    /// presence of other items.
    public static var automatic: ToolbarItemPlacement { fatalError() }
    /// The item represents a primary action.
    public static var primaryAction: ToolbarItemPlacement { fatalError() }
    /// The item is placed in the trailing edge of the top bar.
    @available(iOS 17.0, *)
    public static var topBarTrailing: ToolbarItemPlacement { fatalError() }
    /// The item is placed in the leading edge of the top bar.
    @available(iOS 17.0, *)
    public static var topBarLeading: ToolbarItemPlacement { fatalError() }
    private init() {}
}
