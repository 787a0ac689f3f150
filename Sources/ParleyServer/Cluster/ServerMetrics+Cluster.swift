import CoreMetrics

extension ServerMetrics {
    /// Counter: the cluster hints a node dropped because it could not keep up with them (its buffer of hints not
    /// yet acted on was full). A dropped hint costs a delay, never a message: the node's delivery sweep
    /// (``ServerConfiguration/pendingInputSweepInterval``) sends its sockets what they lack.
    public static let clusterHintsDropped = "parley_cluster_hints_dropped_total"
    /// Counter: the conversations whose sockets a node's delivery sweep found lacking messages (a hint lost or
    /// dropped).
    public static let clusterSweepCatchUps = "parley_cluster_sweep_catch_ups_total"

    /// `count` cluster hints were dropped.
    func clusterHintsDropped(_ count: Int) {
        guard count > 0 else { return }
        Counter(label: Self.clusterHintsDropped, factory: factory).increment(by: count)
    }

    /// A delivery sweep found `count` conversations whose sockets lacked messages.
    func clusterSweepCaughtUp(_ count: Int) {
        guard count > 0 else { return }
        Counter(label: Self.clusterSweepCatchUps, factory: factory).increment(by: count)
    }
}
