/// How buttons are laid out, per kind of action (Oracle's `BotsProperties.actionsLayout`). Default: horizontal for
/// every kind, as Oracle documents.
public struct ActionsLayout: Sendable, Hashable {
    /// A row or a column.
    public enum Direction: Sendable, Hashable {
        /// Side by side, wrapping.
        case horizontal
        /// One under the other.
        case vertical
    }

    /// A message's own `actions`.
    public var local: Direction
    /// A message's `globalActions`.
    public var global: Direction
    /// A card's actions.
    public var card: Direction
    /// An edit form's actions.
    public var form: Direction

    /// A layout; every kind is horizontal unless given.
    public init(
        local: Direction = .horizontal, global: Direction = .horizontal, card: Direction = .horizontal,
        form: Direction = .horizontal
    ) {
        self.local = local
        self.global = global
        self.card = card
        self.form = form
    }
}
