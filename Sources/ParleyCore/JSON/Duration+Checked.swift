extension Duration {
    /// The longest time a value from outside (a wire field, a file, a flag) may name: one day.
    public static let longestOutsideValue: Duration = .seconds(86_400)

    /// `milliseconds` as a duration, or `nil` when it is not a finite number from 0 to ``longestOutsideValue``.
    ///
    /// For times that come from outside the process: `Int64(1e300)` and `.milliseconds(.infinity)` trap, so a hostile
    /// or broken peer could stop the process with one number.
    public static func milliseconds(checking value: Double) -> Duration? {
        guard value.isFinite, value >= 0, value <= 86_400_000 else { return nil }
        return .milliseconds(Int64(value.rounded()))
    }
}
