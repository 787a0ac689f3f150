#if canImport(UIKit) && canImport(SwiftUI)
    public import UIKit
    public import ParleyUI
    import Observation
    import SwiftUI

    /// ``ChatView`` for UIKit apps: a view controller to push, present or embed, as Oracle's `BotsViewController`
    /// is. The header's controls go in the UIKit navigation bar: the title with the connection status under it
    /// (`showConnectionStatus`) as the navigation item's title view, and the language menu, clear and end buttons as
    /// bar button items (``ChatViewModel/headerButtons``). An app with its own bar takes the same controls as one
    /// view from ``addCustomViewToNavBar()``.
    ///
    /// ```swift
    /// let client = ChatClient(configuration: .init(url: serverURL, channelId: "demo"))
    /// let chat = ChatViewController(model: ChatViewModel(client: client))
    /// navigationController?.pushViewController(chat, animated: true)
    /// ```
    ///
    /// The screen is ChatView in a `UIHostingController` child; the bar follows the model with
    /// `withObservationTracking`.
    @MainActor
    public final class ChatViewController: UIViewController {
        /// The screen's model.
        public let model: ChatViewModel
        private let opensLinks: Bool
        private lazy var titleView = ChatTitleView()

        /// A chat screen for `model`.
        /// - Parameters:
        ///   - model: The model; the screen starts it.
        ///   - opensLinks: Whether external links and `tel:` open with `UIApplication.open`.
        public init(model: ChatViewModel, opensLinks: Bool = true) {
            self.model = model
            self.opensLinks = opensLinks
            super.init(nibName: nil, bundle: nil)
        }

        /// Not available: create it in code with ``init(model:opensLinks:)``.
        public required init?(coder: NSCoder) {
            nil
        }

        /// Hosts ``ChatView`` (without its own header) and puts the header's controls in the navigation bar.
        public override func viewDidLoad() {
            super.viewDidLoad()
            let host = UIHostingController(rootView: ChatView(model: model, opensLinks: opensLinks, showsHeader: false))
            addChild(host)
            host.view.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(host.view)
            NSLayoutConstraint.activate([
                host.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
                host.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
                host.view.topAnchor.constraint(equalTo: view.topAnchor),
                host.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            ])
            host.didMove(toParent: self)
            navigationItem.titleView = titleView
            followHeader()
        }

        /// Oracle's `addCustomViewToNavBar()`: the title, the connection status and the header's buttons in one view,
        /// for an app that draws its own navigation bar (`navigationController?.navigationBar.addSubview(view)`, as
        /// Oracle's guide does, or a title view). It follows the model as long as it lives.
        public func addCustomViewToNavBar() -> UIView {
            ChatNavigationBarView(model: model)
        }

        /// Draws the navigation item from the model, and again after every change of what it read.
        private func followHeader() {
            withObservationTracking {
                title = model.header.title
                titleView.show(header: model.header, banner: model.connectionBanner)
                // The bar lays out right-hand items from the edge inwards: reversed, they read as the model lists them.
                navigationItem.rightBarButtonItems = model.headerButtons.reversed().map { barButtonItem(for: $0) }
            } onChange: { [weak self] in
                Task { @MainActor in self?.followHeader() }
            }
        }

        private func barButtonItem(for button: HeaderButton) -> UIBarButtonItem {
            let model = model
            let item: UIBarButtonItem
            switch button {
            case .language(let menu):
                item = UIBarButtonItem(image: UIImage(systemName: "globe"), menu: HeaderMenus.language(menu, model))
                item.accessibilityLabel = menu.label
            case .clear(let label):
                item = UIBarButtonItem(
                    image: UIImage(systemName: "trash"),
                    primaryAction: UIAction { _ in Task { await model.clear() } })
                item.accessibilityLabel = label
            case .endConversation(let label):
                item = UIBarButtonItem(
                    image: UIImage(systemName: "xmark.circle"),
                    primaryAction: UIAction { _ in model.requestEndConversation() })
                item.accessibilityLabel = label
            }
            return item
        }
    }

    /// The UIKit menus of the header.
    enum HeaderMenus {
        /// The language menu: one action per language, the chosen one checked.
        @MainActor static func language(_ menu: LanguageMenu, _ model: ChatViewModel) -> UIMenu {
            UIMenu(
                title: menu.label,
                children: menu.items.map { item in
                    let tag = item.tag
                    return UIAction(title: item.label, state: item.isSelected ? .on : .off) { _ in
                        Task { await model.pickLanguage(tag) }
                    }
                })
        }
    }

    /// The navigation bar's title: the chat's title over the connection status, in the system's text styles
    /// (Dynamic Type), read by VoiceOver with their `odais_access_*` labels.
    @MainActor
    final class ChatTitleView: UIStackView {
        private let titleLabel = UILabel()
        private let statusLabel = UILabel()

        init() {
            super.init(frame: .zero)
            axis = .vertical
            alignment = .center
            titleLabel.font = UIFont.preferredFont(forTextStyle: .headline)
            titleLabel.adjustsFontForContentSizeCategory = true
            statusLabel.font = UIFont.preferredFont(forTextStyle: .caption1)
            statusLabel.adjustsFontForContentSizeCategory = true
            statusLabel.textColor = .secondaryLabel
            addArrangedSubview(titleLabel)
            addArrangedSubview(statusLabel)
        }

        required init(coder: NSCoder) {
            fatalError("ChatTitleView is made in code")
        }

        /// Shows the header's title and, when the model shows one, the connection status.
        func show(header: Header, banner: ConnectionBanner?) {
            titleLabel.text = header.title
            titleLabel.accessibilityLabel = header.titleAccessibilityLabel
            statusLabel.text = banner?.text
            statusLabel.accessibilityLabel = banner?.accessibilityLabel
            statusLabel.isHidden = banner == nil
        }
    }

    /// ``ChatViewController/addCustomViewToNavBar()``'s view: the title view and the header's buttons in a row.
    @MainActor
    final class ChatNavigationBarView: UIStackView {
        private let model: ChatViewModel
        private let titleView = ChatTitleView()
        private let buttons = UIStackView(arrangedSubviews: [])

        init(model: ChatViewModel) {
            self.model = model
            super.init(frame: .zero)
            axis = .horizontal
            alignment = .center
            spacing = 8
            buttons.axis = .horizontal
            buttons.spacing = 8
            addArrangedSubview(titleView)
            addArrangedSubview(buttons)
            follow()
        }

        required init(coder: NSCoder) {
            fatalError("ChatNavigationBarView is made in code")
        }

        private func follow() {
            withObservationTracking {
                titleView.show(header: model.header, banner: model.connectionBanner)
                let headerButtons = model.headerButtons
                buttons.arrangedSubviewsRemoved()
                for button in headerButtons { buttons.addArrangedSubview(makeButton(button)) }
            } onChange: { [weak self] in
                Task { @MainActor in self?.follow() }
            }
        }

        private func makeButton(_ button: HeaderButton) -> UIButton {
            let model = model
            switch button {
            case .language(let menu):
                let view = UIButton(primaryAction: nil)
                view.setImage(UIImage(systemName: "globe"), for: .normal)
                view.menu = HeaderMenus.language(menu, model)
                view.showsMenuAsPrimaryAction = true
                view.accessibilityLabel = menu.label
                return view
            case .clear(let label):
                let view = UIButton(primaryAction: UIAction { _ in Task { await model.clear() } })
                view.setImage(UIImage(systemName: "trash"), for: .normal)
                view.accessibilityLabel = label
                return view
            case .endConversation(let label):
                let view = UIButton(primaryAction: UIAction { _ in model.requestEndConversation() })
                view.setImage(UIImage(systemName: "xmark.circle"), for: .normal)
                view.accessibilityLabel = label
                return view
            }
        }
    }

    extension UIStackView {
        /// Removes every arranged subview from the stack and from the view hierarchy.
        fileprivate func arrangedSubviewsRemoved() {
            for view in arrangedSubviews {
                removeArrangedSubview(view)
                view.removeFromSuperview()
            }
        }
    }
#endif
