// Mirrors the iOS 18 SDK (Xcode 16) SwiftUI framework: property wrappers and the environment. Transcribed from
// developer.apple.com/documentation/swiftui: State, State/wrappedValue ({ get nonmutating set }), Binding,
// Binding/init(get:set:) (`@isolated(any) @Sendable` closures), Bindable (iOS 17), Environment, EnvironmentValues,
// EnvironmentKey, EnvironmentValues/colorScheme, …/scenePhase, …/dismiss, DismissAction, ScaledMetric,
// DynamicProperty, ColorScheme, ScenePhase, View/environment(_:_:). Interface only: bodies trap, nothing here runs.
public import Observation

/// An interface for a stored variable that updates an external property of a view.
@available(iOS 13.0, *)
public protocol DynamicProperty {}

/// A property wrapper type that can read and write a value managed by SwiftUI.
@available(iOS 13.0, *)
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    /// Creates a state property that stores an initial wrapped value.
    public init(wrappedValue value: Value) { fatalError() }
    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) { fatalError() }
    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    /// A binding to the state value.
    public var projectedValue: Binding<Value> { fatalError() }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates a state property without an initial value.
    public init() { fatalError() }
}

extension State: Sendable where Value: Sendable {}

/// A property wrapper type that can read and write a value owned by a source of truth.
@available(iOS 13.0, *)
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    /// Creates a binding with closures that read and write the binding value.
    @preconcurrency public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) { fatalError() }
    /// Creates a binding from the value of another binding.
    public init(projectedValue: Binding<Value>) { fatalError() }
    /// Creates a binding with an immutable value.
    public static func constant(_ value: Value) -> Binding<Value> { fatalError() }
    /// The underlying value referenced by the binding variable.
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> { fatalError() }
    /// Returns a binding to the resulting value of a given key path.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

extension Binding: Sendable where Value: Sendable {}

extension Binding: Identifiable where Value: Identifiable {
    public var id: Value.ID { fatalError() }
}

/// A property wrapper type that supports creating bindings to the mutable properties of observable objects.
@available(iOS 17.0, *)
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
    /// The wrapped object.
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
    /// Creates a bindable object from an observable object.
    public init(wrappedValue: Value) where Value: AnyObject, Value: Observable { fatalError() }
    /// The bindable wrapper for the object that creates bindings to its properties using dynamic member lookup.
    public var projectedValue: Bindable<Value> { fatalError() }
    /// Returns a binding to the value of a given key path.
    public subscript<Subject>(
        dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>
    ) -> Binding<Subject> where Value: AnyObject { fatalError() }
}

extension Bindable where Value: AnyObject, Value: Observable {
    /// Creates a bindable object from an observable object.
    public init(_ wrappedValue: Value) { fatalError() }
}

/// A property wrapper that reads a value from a view's environment.
@available(iOS 13.0, *)
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    /// Creates an environment property to read the specified key path.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { fatalError() }
    /// The current value of the environment property.
    public var wrappedValue: Value { fatalError() }
}

extension Environment: Sendable where Value: Sendable {}

/// A key for accessing values in the environment.
@available(iOS 13.0, *)
public protocol EnvironmentKey {
    /// The associated type representing the type of the environment key's value.
    associatedtype Value
    /// The default value for the environment key.
    static var defaultValue: Self.Value { get }
}

/// A collection of environment values propagated through a view hierarchy.
@available(iOS 13.0, *)
public struct EnvironmentValues: CustomStringConvertible {
    /// Creates an environment values instance.
    public init() { fatalError() }
    /// Accesses the environment value associated with a custom key.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { fatalError() }
        set { fatalError() }
    }
    public var description: String { fatalError() }
    /// The color scheme of this environment.
    public var colorScheme: ColorScheme {
        get { fatalError() }
        set { fatalError() }
    }
    /// The current phase of the scene.
    public var scenePhase: ScenePhase {
        get { fatalError() }
        set { fatalError() }
    }
    /// An action that dismisses the current presentation.
    @available(iOS 15.0, *)
    public var dismiss: DismissAction { fatalError() }
}

/// An action that dismisses a presentation.
@available(iOS 15.0, *)
@MainActor @preconcurrency public struct DismissAction {
    /// Dismisses the view if it is currently presented.
    @MainActor @preconcurrency public func callAsFunction() { fatalError() }
}

/// The possible color schemes, corresponding to the light and dark appearances.
@available(iOS 13.0, *)
public enum ColorScheme: CaseIterable, Hashable, Sendable {
    /// The color scheme that corresponds to a light appearance.
    case light
    /// The color scheme that corresponds to a dark appearance.
    case dark
}

/// An indication of a scene's operational state.
@available(iOS 14.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
    /// The scene isn't currently visible in the UI.
    case background
    /// The scene is in the foreground but should pause its work.
    case inactive
    /// The scene is in the foreground and interactive.
    case active
}

/// A dynamic property that scales a numeric value.
@available(iOS 14.0, *)
@propertyWrapper public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
    /// Creates the scaled metric with an unscaled value using the default scaling.
    public init(wrappedValue: Value) { fatalError() }
    /// Creates the scaled metric with an unscaled value and a text style to scale relative to.
    public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) { fatalError() }
    /// The value scaled based on the current environment.
    public var wrappedValue: Value { fatalError() }
}

extension View {
    /// Sets the environment value of the specified key path to the given value.
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        self
    }
}
