/// A large value kept out of line, so that the type holding it stays small to move: decoding moves each message
/// through several calls, and a rarely present member such as `footerForm` (hundreds of bytes inline) would be
/// copied every time. Setting a new value allocates a new box; the box is never mutated, so copies share it safely.
struct Indirect<Value: Sendable & Hashable>: Sendable, Hashable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    var value: Value { box.value }

    static func == (lhs: Indirect, rhs: Indirect) -> Bool {
        lhs.box === rhs.box || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
