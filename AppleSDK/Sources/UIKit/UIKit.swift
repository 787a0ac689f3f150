// Mirrors the iOS 18 SDK (Xcode 16) UIKit framework: the classes, members and isolation Parley's code uses, as
// developer.apple.com/documentation/uikit declares them (UIResponder, UIView, UIViewController,
// UINavigationController, UINavigationItem, UIBarButtonItem, UIControl, UIButton, UIAction, UIActionHandler, UIMenu,
// UIMenuElement, UILabel, UIStackView, UIFont, UIColor, UIImage, UIApplication/open(_:options:completionHandler:),
// NSLayoutConstraint, NSLayoutAnchor, UIImagePickerController, UIImagePickerControllerDelegate,
// UINavigationControllerDelegate, UIAccessibility). Every UIKit class here is `@MainActor`, as in the SDK; UIKit
// re-exports Foundation. Interface only: bodies trap, nothing here runs.
@_exported import DarwinFoundation
@_exported import Foundation
import UniformTypeIdentifiers

// MARK: Responders and views

/// An abstract interface for responding to and handling events.
@available(iOS 2.0, *)
@MainActor open class UIResponder: NSObject {
    public override init() { fatalError() }
}

/// An object that manages the content for a rectangular area on the screen.
@available(iOS 2.0, *)
@MainActor open class UIView: UIResponder {
    /// Creates a view with the specified frame rectangle.
    public init(frame: CGRect) { fatalError() }
    /// Creates a view from data in an unarchiver.
    public required init?(coder: NSCoder) { fatalError() }
    /// Creates a view with a zero frame (NSObject's `init()`, which UIView answers with `init(frame: .zero)`).
    public override convenience init() { fatalError() }
    /// Whether the view's autoresizing mask is translated into Auto Layout constraints.
    open var translatesAutoresizingMaskIntoConstraints: Bool { get { fatalError() } set { fatalError() } }
    /// The view's background color.
    open var backgroundColor: UIColor? { get { fatalError() } set { fatalError() } }
    /// The view's tint color.
    open var tintColor: UIColor! { get { fatalError() } set { fatalError() } }
    /// Whether the view is hidden.
    open var isHidden: Bool { get { fatalError() } set { fatalError() } }
    /// The frame rectangle.
    open var frame: CGRect { get { fatalError() } set { fatalError() } }
    /// Adds a view to the end of the receiver's list of subviews.
    open func addSubview(_ view: UIView) { fatalError() }
    /// Unlinks the view from its superview and its window.
    open func removeFromSuperview() { fatalError() }
    /// The view's superview.
    open var superview: UIView? { fatalError() }
    /// A layout anchor representing the leading edge of the view's frame.
    open var leadingAnchor: NSLayoutXAxisAnchor { fatalError() }
    /// A layout anchor representing the trailing edge of the view's frame.
    open var trailingAnchor: NSLayoutXAxisAnchor { fatalError() }
    /// A layout anchor representing the top edge of the view's frame.
    open var topAnchor: NSLayoutYAxisAnchor { fatalError() }
    /// A layout anchor representing the bottom edge of the view's frame.
    open var bottomAnchor: NSLayoutYAxisAnchor { fatalError() }
}

// UIAccessibility: an informal protocol on NSObject in the SDK.
extension NSObject {
    /// A localized string that succinctly identifies the accessibility element.
    @MainActor @preconcurrency public var accessibilityLabel: String? {
        get { fatalError() }
        set { fatalError() }
    }
    /// A Boolean value that indicates whether the element is an accessibility element that an assistive app can
    /// access.
    @MainActor @preconcurrency public var isAccessibilityElement: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

/// A view that displays one or more lines of informational text.
@available(iOS 2.0, *)
@MainActor open class UILabel: UIView {
    public override init(frame: CGRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    /// The text that the label displays.
    open var text: String? { get { fatalError() } set { fatalError() } }
    /// The font of the text.
    open var font: UIFont! { get { fatalError() } set { fatalError() } }
    /// The color of the text.
    open var textColor: UIColor! { get { fatalError() } set { fatalError() } }
    /// The technique for aligning the text.
    open var textAlignment: NSTextAlignment { get { fatalError() } set { fatalError() } }
    /// The maximum number of lines for rendering text.
    open var numberOfLines: Int { get { fatalError() } set { fatalError() } }
    /// Whether the object automatically updates its font when the device's content size category changes.
    open var adjustsFontForContentSizeCategory: Bool { get { fatalError() } set { fatalError() } }
}

/// Constants that specify text alignment.
public enum NSTextAlignment: Int, @unchecked Sendable {
    case left = 0
    case center = 1
    case right = 2
    case justified = 3
    case natural = 4
}

/// A streamlined interface for laying out a collection of views in either a column or a row.
@available(iOS 9.0, *)
@MainActor open class UIStackView: UIView {
    /// Returns a new stack view object that manages the provided views.
    public init(arrangedSubviews views: [UIView]) { fatalError() }
    public override init(frame: CGRect) { fatalError() }
    public required init(coder: NSCoder) { fatalError() }
    /// The axis along which the arranged views lay out.
    open var axis: NSLayoutConstraint.Axis { get { fatalError() } set { fatalError() } }
    /// The distance in points between the adjacent edges of the stack view's arranged views.
    open var spacing: CGFloat { get { fatalError() } set { fatalError() } }
    /// The alignment of the arranged subviews perpendicular to the stack view's axis.
    open var alignment: UIStackView.Alignment { get { fatalError() } set { fatalError() } }
    /// The list of views arranged by the stack view.
    open var arrangedSubviews: [UIView] { fatalError() }
    /// Adds a view to the end of the arrangedSubviews array.
    open func addArrangedSubview(_ view: UIView) { fatalError() }
    /// Removes the provided view from the stack's array of arranged subviews.
    open func removeArrangedSubview(_ view: UIView) { fatalError() }

    /// The layout of arranged views perpendicular to the stack view's axis.
    public enum Alignment: Int, @unchecked Sendable {
        case fill = 0
        case leading = 1
        case firstBaseline = 2
        case center = 3
        case trailing = 4
        case lastBaseline = 5
    }
}

/// The base class for controls, which are visual elements that convey a specific action or intention in response to
/// user interactions.
@available(iOS 2.0, *)
@MainActor open class UIControl: UIView {
    /// Whether the control is in the enabled state.
    open var isEnabled: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

/// A control that executes your custom code in response to user interactions.
@available(iOS 2.0, *)
@MainActor open class UIButton: UIControl {
    /// Creates a new button with the specified frame, registers the primary action event, and sets the title and
    /// image to the action's title and image.
    @available(iOS 14.0, *)
    public convenience init(frame: CGRect, primaryAction: UIAction?) { fatalError() }
    /// Creates a new button of the specified type, registers the primary action event, and sets the title and image
    /// to the action's title and image.
    @available(iOS 14.0, *)
    public convenience init(type buttonType: UIButton.ButtonType = .system, primaryAction: UIAction?) { fatalError() }
    public override init(frame: CGRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    /// The menu the button displays.
    @available(iOS 14.0, *)
    open var menu: UIMenu? {
        get { fatalError() }
        set { fatalError() }
    }
    /// A Boolean value that determines whether the menu is the button's primary action.
    @available(iOS 14.0, *)
    open var showsMenuAsPrimaryAction: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// Sets the image to use for the specified state.
    open func setImage(_ image: UIImage?, for state: UIControl.State) { fatalError() }

    /// Specifies the style of a button.
    public enum ButtonType: Int, @unchecked Sendable {
        case custom = 0
        case system = 1
    }
}

extension UIControl {
    /// Constants describing the state of a control.
    public struct State: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The normal, or default, state of a control where the control is enabled but neither selected nor
        /// highlighted.
        public static var normal: UIControl.State { fatalError() }
    }
}

// MARK: Layout

/// The relationship between two user interface objects that must be satisfied by the constraint-based layout system.
@available(iOS 6.0, *)
@MainActor open class NSLayoutConstraint: NSObject {
    /// Activates each constraint in the specified array.
    open class func activate(_ constraints: [NSLayoutConstraint]) { fatalError() }
    /// The active state of the constraint.
    open var isActive: Bool { get { fatalError() } set { fatalError() } }

    /// Keys that specify a horizontal or vertical layout constraint between objects.
    public enum Axis: Int, @unchecked Sendable {
        case horizontal = 0
        case vertical = 1
    }
}

/// A factory class for creating layout constraint objects using a fluent API.
@available(iOS 9.0, *)
@MainActor open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    /// Returns a constraint that defines one item's attribute as equal to another.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { fatalError() }
    /// Returns a constraint that defines one item's attribute as equal to another item's attribute plus a constant
    /// offset.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        fatalError()
    }
}

/// A factory class for creating horizontal layout constraint objects using a fluent API.
@available(iOS 9.0, *)
@MainActor open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

/// A factory class for creating vertical layout constraint objects using a fluent API.
@available(iOS 9.0, *)
@MainActor open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

// MARK: View controllers

/// An object that manages a view hierarchy for your UIKit app.
@available(iOS 2.0, *)
@MainActor open class UIViewController: UIResponder {
    /// Creates a view controller with the nib file in the specified bundle.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    /// Creates a view controller with data in an unarchiver.
    public required init?(coder: NSCoder) { fatalError() }
    /// The view that the controller manages.
    open var view: UIView! { get { fatalError() } set { fatalError() } }
    /// A localized string that represents the view this controller manages.
    open var title: String? { get { fatalError() } set { fatalError() } }
    /// The navigation item used to represent the view controller in a parent's navigation bar.
    open var navigationItem: UINavigationItem { fatalError() }
    /// The nearest ancestor in the view controller hierarchy that is a navigation controller.
    open var navigationController: UINavigationController? { fatalError() }
    /// Called after the controller's view is loaded into memory.
    open func viewDidLoad() { fatalError() }
    /// Notifies the view controller that its view is about to be added to a view hierarchy.
    open func viewWillAppear(_ animated: Bool) { fatalError() }
    /// Adds the specified view controller as a child of the current view controller.
    open func addChild(_ childController: UIViewController) { fatalError() }
    /// Called after the view controller is added or removed from a container view controller.
    open func didMove(toParent parent: UIViewController?) { fatalError() }
    /// Presents a view controller modally.
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) { fatalError() }
    /// Dismisses the view controller that was presented modally by the view controller.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError() }
}

/// A container view controller that defines a stack-based scheme for navigating hierarchical content.
@available(iOS 2.0, *)
@MainActor open class UINavigationController: UIViewController {
    /// Pushes a view controller onto the receiver's stack and updates the display.
    open func pushViewController(_ viewController: UIViewController, animated: Bool) { fatalError() }
    /// The navigation bar managed by the navigation controller.
    open var navigationBar: UINavigationBar { fatalError() }
}

/// The methods that a navigation controller delegate implements.
@MainActor public protocol UINavigationControllerDelegate: NSObjectProtocol {}

/// Navigational controls that display in a bar along the top of the screen.
@available(iOS 2.0, *)
@MainActor open class UINavigationBar: UIView {}

/// The items that a navigation bar displays when the associated view controller is visible.
@available(iOS 2.0, *)
@MainActor open class UINavigationItem: NSObject {
    /// The navigation item's title that displays in the navigation bar.
    open var title: String? { get { fatalError() } set { fatalError() } }
    /// A custom view that displays in the center of the navigation bar when the receiver is the top item.
    open var titleView: UIView? { get { fatalError() } set { fatalError() } }
    /// An array of custom bar button items to display on the right (or trailing) side of the navigation bar.
    open var rightBarButtonItems: [UIBarButtonItem]? { get { fatalError() } set { fatalError() } }
    /// An array of custom bar button items to display on the left (or leading) side of the navigation bar.
    open var leftBarButtonItems: [UIBarButtonItem]? { get { fatalError() } set { fatalError() } }
}

/// A button specialized for placement in a toolbar or tab bar, or in the navigation bar.
@available(iOS 2.0, *)
@MainActor open class UIBarItem: NSObject {
    /// Whether the item is enabled.
    open var isEnabled: Bool { get { fatalError() } set { fatalError() } }
    /// The title displayed on the item.
    open var title: String? { get { fatalError() } set { fatalError() } }
    /// The image used to represent the item.
    open var image: UIImage? { get { fatalError() } set { fatalError() } }
}

/// A specialized button for placement in a toolbar or tab bar, or in the navigation bar.
@available(iOS 2.0, *)
@MainActor open class UIBarButtonItem: UIBarItem {
    /// Creates a new item with the specified title, image, primary action, and menu.
    @available(iOS 14.0, *)
    public convenience init(
        title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil
    ) { fatalError() }
    /// Creates an item using the specified custom view.
    public convenience init(customView: UIView) { fatalError() }
    /// The menu for the button.
    @available(iOS 14.0, *)
    open var menu: UIMenu? { get { fatalError() } set { fatalError() } }
    /// A custom view representing the item.
    open var customView: UIView? { get { fatalError() } set { fatalError() } }
}

// MARK: Menus and actions

/// A type that defines the closure for an action handler.
public typealias UIActionHandler = (UIAction) -> Void

/// An object that represents a menu element.
@available(iOS 13.0, *)
@MainActor open class UIMenuElement: NSObject {
    /// Constants that indicate the state of an action- or command-based menu element.
    public enum State: Int, @unchecked Sendable {
        case off = 0
        case on = 1
        case mixed = 2
    }

    /// Attributes that determine the style of the menu element.
    public struct Attributes: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// An attribute indicating the disabled style.
        public static var disabled: UIMenuElement.Attributes { fatalError() }
        /// An attribute indicating the destructive style.
        public static var destructive: UIMenuElement.Attributes { fatalError() }
    }
}

/// A menu element that performs its action in a closure.
@available(iOS 13.0, *)
@MainActor open class UIAction: UIMenuElement {
    /// Creates an action with the specified title, image, identifier, discoverability title, attributes, state,
    /// and handler.
    public convenience init(
        title: String = "", image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
        discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
        state: UIMenuElement.State = .off, handler: @escaping UIActionHandler
    ) { fatalError() }
    /// The action's title.
    open var title: String { get { fatalError() } set { fatalError() } }

    /// A type that uniquely identifies an action.
    public struct Identifier: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String { get { fatalError() } set { fatalError() } }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }
}

/// A container for grouping related menu elements in an app menu or contextual menu.
@available(iOS 13.0, *)
@MainActor open class UIMenu: UIMenuElement {
    /// Creates a new menu with the specified values.
    public convenience init(
        title: String = "", image: UIImage? = nil, identifier: UIMenu.Identifier? = nil,
        options: UIMenu.Options = [], children: [UIMenuElement] = []
    ) { fatalError() }

    /// A type that uniquely identifies a menu.
    public struct Identifier: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String { get { fatalError() } set { fatalError() } }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// Options for configuring a menu's appearance.
    public struct Options: OptionSet, @unchecked Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// An option indicating the menu displays inline with its parent menu.
        public static var displayInline: UIMenu.Options { fatalError() }
        /// An option indicating the menu allows a single selected item.
        @available(iOS 15.0, *)
        public static var singleSelection: UIMenu.Options { fatalError() }
    }
}

// MARK: Fonts, colors, images

/// An object that provides access to the font's characteristics.
@available(iOS 2.0, *)
open class UIFont: NSObject, @unchecked Sendable {
    /// Returns an instance of the system font for the specified text style, scaled for the user's selected content
    /// size category.
    open class func preferredFont(forTextStyle style: UIFont.TextStyle) -> UIFont { fatalError() }

    /// Constants that describe the preferred styles for fonts.
    public struct TextStyle: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String { get { fatalError() } set { fatalError() } }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The font for headings.
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        /// The font for body text.
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        /// The font for footnotes.
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        /// The font for standard captions.
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        /// The font for alternate captions.
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")
    }
}

/// An object that stores color data and sometimes opacity.
@available(iOS 2.0, *)
open class UIColor: NSObject, @unchecked Sendable {
    /// Creates a color object using the specified opacity and RGB component values.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { fatalError() }
    /// The color for text labels that contain primary content.
    open class var label: UIColor { fatalError() }
    /// The color for text labels that contain secondary content.
    open class var secondaryLabel: UIColor { fatalError() }
}

/// An object that manages image data in your app.
@available(iOS 2.0, *)
open class UIImage: NSObject, @unchecked Sendable {
    /// Creates an image object that contains a system symbol image.
    @available(iOS 13.0, *)
    public convenience init?(systemName name: String) { fatalError() }
    /// Creates an image object from the specified named asset.
    public convenience init?(named name: String) { fatalError() }
    /// Initializes and returns the image object with the specified data.
    public convenience init?(data: Data) { fatalError() }
    /// Returns a data object that contains the image in JPEG format.
    public func jpegData(compressionQuality: CGFloat) -> Data? { fatalError() }
}

// MARK: Application

/// The centralized point of control and coordination for apps running in iOS.
@available(iOS 2.0, *)
@MainActor open class UIApplication: UIResponder {
    /// The singleton app instance.
    open class var shared: UIApplication { fatalError() }
    /// Attempts to asynchronously open the resource at the specified URL.
    @available(iOS 10.0, *)
    open func open(
        _ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) { fatalError() }

    /// Keys that you use in the options dictionary when opening a URL.
    public struct OpenExternalURLOptionsKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String { get { fatalError() } set { fatalError() } }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }
}

// MARK: Image picker (the camera)

/// A view controller that manages the system interfaces for taking pictures, recording movies, and choosing items
/// from the user's media library.
@available(iOS 2.0, *)
@MainActor open class UIImagePickerController: UINavigationController {
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public convenience init() { fatalError() }
    /// Returns whether the device supports picking media using the specified source type.
    open class func isSourceTypeAvailable(_ sourceType: UIImagePickerController.SourceType) -> Bool { fatalError() }
    /// The type of picker interface to display.
    open var sourceType: UIImagePickerController.SourceType { get { fatalError() } set { fatalError() } }
    /// An array indicating the media types to access by the media picker controller.
    open var mediaTypes: [String] { get { fatalError() } set { fatalError() } }
    /// The image picker's delegate object.
    open var delegate: (any UIImagePickerControllerDelegate & UINavigationControllerDelegate)? {
        get { fatalError() }
        set { fatalError() }
    }

    /// The source to use when picking an image or when determining available media types.
    public enum SourceType: Int, @unchecked Sendable {
        case photoLibrary = 0
        case camera = 1
        case savedPhotosAlbum = 2
    }

    /// Keys you use to retrieve information from the editing information dictionary.
    public struct InfoKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String { get { fatalError() } set { fatalError() } }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// Specifies the original, uncropped image selected by the user.
        public static let originalImage = InfoKey(rawValue: "UIImagePickerControllerOriginalImage")
        /// Specifies the filesystem URL for the movie.
        public static let mediaURL = InfoKey(rawValue: "UIImagePickerControllerMediaURL")
        /// Specifies the media type selected by the user.
        public static let mediaType = InfoKey(rawValue: "UIImagePickerControllerMediaType")
    }
}

/// A set of methods that your delegate object must implement to interact with the image picker interface.
@MainActor public protocol UIImagePickerControllerDelegate: NSObjectProtocol {
    /// Tells the delegate that the user picked a still image or movie.
    func imagePickerController(
        _ picker: UIImagePickerController, didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any])
    /// Tells the delegate that the user canceled the pick operation.
    func imagePickerControllerDidCancel(_ picker: UIImagePickerController)
}

extension UIImagePickerControllerDelegate {
    public func imagePickerController(
        _ picker: UIImagePickerController, didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
    ) {}
    public func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {}
}
