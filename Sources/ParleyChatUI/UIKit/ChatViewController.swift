#if canImport(UIKit) && canImport(SwiftUI)
    public import UIKit
    public import ParleyUI
    import Observation
    import SwiftUI

    /// ``ChatView`` for UIKit apps: a view controller to push, present or embed, as Oracle's `BotsViewController`
    /// is.
    ///
    /// ```swift
    /// let client = ChatClient(configuration: .init(url: serverURL, channelId: "demo"))
    /// let chat = ChatViewController(model: ChatViewModel(client: client))
    /// navigationController?.pushViewController(chat, animated: true)
    /// ```
    ///
    /// The screen is ChatView in a `UIHostingController` child; the model holds everything it shows, so UIKit code
    /// that wants to know more (the rows, the status) reads ``model`` with `withObservationTracking`. Not compiled in
    /// CI: see `docs/ios.md`.
    @MainActor
    public final class ChatViewController: UIViewController {
        /// The screen's model.
        public let model: ChatViewModel

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

        private let opensLinks: Bool

        public override func viewDidLoad() {
            super.viewDidLoad()
            let host = UIHostingController(rootView: ChatView(model: model, opensLinks: opensLinks))
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
            title = model.header.title
            observeTitle()
        }

        /// Keeps the navigation item's title in step with the model's header (the hosted view's `navigationTitle`
        /// does not reach a UIKit navigation bar).
        private func observeTitle() {
            withObservationTracking {
                title = model.header.title
            } onChange: { [weak self] in
                Task { @MainActor in self?.observeTitle() }
            }
        }
    }
#endif
