// Mirrors the iOS 18 SDK (Xcode 16) SwiftUI framework: the view protocol, the result builder and the primitive types
// Parley's code uses. Transcribed from developer.apple.com/documentation/swiftui: View, View/body, ViewBuilder
// (buildBlock(_:) with a parameter pack, iOS 17), EmptyView, TupleView, AnyView, Group, Never, Optional, App, Scene,
// SceneBuilder, WindowGroup. Interface only: bodies trap or return `self`, nothing here runs.
//
// SwiftUI on iOS makes UIKit's types visible to a file that imports only SwiftUI, and so does this module.
@_exported import UIKit

/// A type that represents part of your app's user interface and provides modifiers that you use to configure views.
@available(iOS 13.0, *)
@MainActor @preconcurrency public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View
    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// Views whose body is `Never` (SwiftUI's primitive views). Not a SwiftUI name: a shorthand of this interface.
@MainActor public protocol _PrimitiveView: View where Body == Never {}
extension _PrimitiveView {
    public var body: Never { fatalError() }
}

/// A custom parameter attribute that constructs views from closures.
@available(iOS 13.0, *)
@resultBuilder public struct ViewBuilder {
    /// Passes a single view written as a child view through unmodified.
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// Builds an empty view from a block containing no statements.
    public static func buildBlock() -> EmptyView { fatalError() }
    /// Passes a single view written as a child view through unmodified.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// Builds a tuple view from a block of views.
    @available(iOS 17.0, *)
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        fatalError()
    }
    /// Produces an optional view for conditional statements in multi-statement closures that's only visible when the
    /// condition evaluates to true.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// Produces content for a conditional statement in a multi-statement closure when the condition is true.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    /// Produces content for a conditional statement in a multi-statement closure when the condition is false.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    /// Processes view content for a conditional compiler-control statement that performs an availability check.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError() }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// A view that doesn't contain any content.
@frozen public struct EmptyView: _PrimitiveView {
    @inlinable nonisolated public init() {}
}

/// A View created from a swift tuple of View values.
@frozen public struct TupleView<T>: _PrimitiveView {
    nonisolated public init(_ value: T) { fatalError() }
}

/// Content that shows one of two views (what `if`/`else` and `switch` in a view builder build).
@frozen public struct _ConditionalContent<TrueContent, FalseContent>: _PrimitiveView
where TrueContent: View, FalseContent: View {}

/// A type-erased view.
@frozen public struct AnyView: _PrimitiveView {
    /// Create an instance that type-erases `view`.
    nonisolated public init<V: View>(_ view: V) { fatalError() }
}

/// A type that collects multiple instances of a content type into a single unit.
@frozen public struct Group<Content> {
    public typealias Body = Never
}
extension Group: View, _PrimitiveView where Content: View {
    /// Creates a group of views.
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
}

// MARK: Apps and scenes

/// A type that represents the structure and behavior of an app.
@available(iOS 14.0, *)
@MainActor @preconcurrency public protocol App {
    /// The type of scene representing the content of the app.
    associatedtype Body: Scene
    /// The content and behavior of the app.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    /// Creates an instance of the app using the body that you define for its content.
    @MainActor @preconcurrency init()
}

extension App {
    /// Initializes and runs the app.
    @MainActor @preconcurrency public static func main() { fatalError() }
}

/// A part of an app's user interface with a life cycle managed by the system.
@available(iOS 14.0, *)
@MainActor @preconcurrency public protocol Scene {
    /// The type of scene that represents the body of this scene.
    associatedtype Body: Scene
    /// The content and behavior of the scene.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// A result builder for composing a collection of scenes into a single composite scene.
@available(iOS 14.0, *)
@resultBuilder public struct SceneBuilder {
    /// Builds an expression within the builder.
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
    /// Passes a single scene written as a child scene through unmodified.
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// A scene that presents a group of identically structured windows.
@available(iOS 14.0, *)
public struct WindowGroup<Content: View>: Scene {
    public typealias Body = Never
    public var body: Never { fatalError() }
    /// Creates a window group.
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
}

// MARK: Hosting

/// A UIKit view controller that manages a SwiftUI view hierarchy.
@available(iOS 13.0, *)
@MainActor @preconcurrency open class UIHostingController<Content: View>: UIViewController {
    /// Creates a hosting controller object that wraps the specified SwiftUI view.
    @MainActor @preconcurrency public init(rootView: Content) { fatalError() }
    /// Creates a hosting controller object from an archive and the specified SwiftUI view.
    @MainActor @preconcurrency public init?(coder aDecoder: NSCoder, rootView: Content) { fatalError() }
    @MainActor @preconcurrency public required dynamic init?(coder aDecoder: NSCoder) { fatalError() }
    /// The root view of the SwiftUI view hierarchy managed by this view controller.
    @MainActor @preconcurrency public var rootView: Content {
        get { fatalError() }
        set { fatalError() }
    }
}

/// A wrapper for a UIKit view that you use to integrate that view into your SwiftUI view hierarchy.
@available(iOS 13.0, *)
@MainActor @preconcurrency public protocol UIViewRepresentable: View where Body == Never {
    /// The type of view to present.
    associatedtype UIViewType: UIView
    /// A type to coordinate with the view.
    associatedtype Coordinator = Void
    /// Creates the view object and configures its initial state.
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
    /// Updates the state of the specified view with new information from SwiftUI.
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
    /// Creates the custom instance that you use to communicate changes from your view to other parts of your SwiftUI
    /// interface.
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
    typealias Context = UIViewRepresentableContext<Self>
}

extension UIViewRepresentable where Coordinator == Void {
    public func makeCoordinator() {}
}

extension UIViewRepresentable {
    public var body: Never { fatalError() }
}

/// Contextual information about the state of the system that you use to create and update your UIKit view.
@available(iOS 13.0, *)
@MainActor @preconcurrency public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {
    /// The view's associated coordinator.
    public var coordinator: Representable.Coordinator { fatalError() }
    /// The current environment of the view.
    public var environment: EnvironmentValues { fatalError() }
}

/// A view that represents a UIKit view controller.
@available(iOS 13.0, *)
@MainActor @preconcurrency public protocol UIViewControllerRepresentable: View where Body == Never {
    /// The type of view controller to present.
    associatedtype UIViewControllerType: UIViewController
    /// A type to coordinate with the view controller.
    associatedtype Coordinator = Void
    /// Creates the view controller object and configures its initial state.
    @MainActor @preconcurrency func makeUIViewController(context: Self.Context) -> Self.UIViewControllerType
    /// Updates the state of the specified view controller with new information from SwiftUI.
    @MainActor @preconcurrency func updateUIViewController(
        _ uiViewController: Self.UIViewControllerType, context: Self.Context)
    /// Creates the custom instance that you use to communicate changes from your view controller to other parts of
    /// your SwiftUI interface.
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
    typealias Context = UIViewControllerRepresentableContext<Self>
}

extension UIViewControllerRepresentable where Coordinator == Void {
    public func makeCoordinator() {}
}

extension UIViewControllerRepresentable {
    public var body: Never { fatalError() }
}

/// Contextual information about the state of the system that you use to create and update your UIKit view
/// controller.
@available(iOS 13.0, *)
@MainActor @preconcurrency public struct UIViewControllerRepresentableContext<
    Representable: UIViewControllerRepresentable
> {
    /// The view's associated coordinator.
    public var coordinator: Representable.Coordinator { fatalError() }
    /// The current environment of the view.
    public var environment: EnvironmentValues { fatalError() }
}

// MARK: Modifiers of your own (developer.apple.com/documentation/swiftui/viewmodifier, …/view/modifier(_:),
// …/modifiedcontent)

/// A modifier that you apply to a view or another view modifier, producing a different version of the original value.
@available(iOS 13.0, *)
@MainActor @preconcurrency public protocol ViewModifier {
    /// The type of view representing the body.
    associatedtype Body: View
    /// Gets the current body of the caller.
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
    /// The content view type passed to `body()`.
    typealias Content = _ViewModifier_Content<Self>
}

/// The content a view modifier's `body(content:)` receives.
public struct _ViewModifier_Content<Modifier: ViewModifier>: _PrimitiveView {}

/// A value with a modifier applied to it.
@frozen public struct ModifiedContent<Content, Modifier> {
    public typealias Body = Never
}

extension ModifiedContent: View, _PrimitiveView where Content: View, Modifier: ViewModifier {}

extension View {
    /// Applies a modifier to a view and returns a new view.
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError() }
}
