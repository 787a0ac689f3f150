public import ServiceLifecycle

/// Several `parley serve` nodes on one shared store: how they tell each other what changed, and how they agree on
/// which node answers a conversation (`docs/deploy.md`, "Cluster").
///
/// The store holds the truth (every message, numbered by the database); the cluster only carries hints. A node that
/// stores a reply announces the conversation and its newest outbound number; every node with a socket of that
/// conversation reads what its sockets have not had from the store. A hint that is lost (a node that was not
/// listening for a moment, a notification that failed, a hint dropped by a node that fell behind) costs a delay,
/// never a message: ``ClusterEvent/resynchronize`` follows every gap, the next hint of the conversation catches it
/// up, and every node sweeps its conversations (``ChatHub/sweepDeliveries()``) every
/// ``ServerConfiguration/pendingInputSweepInterval``.
///
/// A single server needs no cluster (``ChatHub`` runs without one). `PostgresCluster`, in the ParleyPostgres product,
/// carries hints by `LISTEN`/`NOTIFY` and claims turns with advisory locks.
///
/// A cluster is a `Service`: the application runs it from before the server listens until after the hub has
/// finished answering on a graceful stop.
public protocol Cluster: Service {
    /// What the nodes announce, this node's own announcements included, until the cluster stops.
    var events: AsyncStream<ClusterEvent> { get }
    /// Tells every node about a change.
    func announce(_ event: ClusterEvent) async
    /// Takes the right to answer the conversation's inputs; false while another node has it, or when the right
    /// cannot be taken now (the database unreachable). A node holds it until ``releaseTurns(of:)``, or until it dies.
    func claimTurns(of key: ConversationKey) async -> Bool
    /// Gives back the right taken by ``claimTurns(of:)``.
    func releaseTurns(of key: ConversationKey) async
    /// How many hints this node has dropped since it started, because ``events`` was not read fast enough; the
    /// node's delivery sweep makes up for them, and the metrics count them
    /// (``ServerMetrics/clusterHintsDropped``).
    var droppedHints: Int { get }
}

extension Cluster {
    /// None: a cluster that never drops a hint.
    public var droppedHints: Int { 0 }
}

/// A change one node tells the others about.
public enum ClusterEvent: Sendable, Hashable {
    /// The conversation has messages from the server up to this outbound number (``StoredMessage/outbound``).
    case messages(ConversationKey, outbound: Int)
    /// The user's input `sequence` was stored while an agent has the conversation: for that agent's consoles.
    case userInput(ConversationKey, sequence: Int)
    /// The user's message `sequence` was stored by node `node` (``ChatHub/node``): for the user's sockets on the
    /// other nodes (docs/protocol.md §13.6).
    case userMessage(ConversationKey, sequence: Int, node: String)
    /// A frame for the consoles of the agent with this name (the conversation ended, the user is typing).
    case toAgent(name: String, frame: String)
    /// A frame that is not stored, for the sockets of the conversation (the agent is typing).
    case toUser(ConversationKey, frame: String)
    /// The live agents' queue changed: who waits, who has which conversation. A node reads the whole queue again.
    case agentQueue
    /// The conversation joined, left or changed hands in the live agents' queue: a node reads that conversation
    /// and sends its consoles the change (`docs/agents.md`, "The queue").
    case agentQueueEntry(ConversationKey)
    /// Hints may have been missed (the node was not listening for a while): every node catches up every
    /// conversation it has sockets of, and looks for inputs that no node answers.
    case resynchronize
}

extension ClusterEvent {
    /// The event as JSON, for a cluster that carries text (`{"messages":{"channelId":…,"userId":…,"outbound":3}}`,
    /// `{"resynchronize":{}}`…).
    public var jsonValue: JSONValue {
        func conversation(_ key: ConversationKey, _ members: JSONObject) -> JSONValue {
            var object: JSONObject = ["channelId": .string(key.channelId), "userId": .string(key.userId)]
            for member in members { object[member.key] = member.value }
            return .object(object)
        }
        return switch self {
        case .messages(let key, let outbound):
            ["messages": conversation(key, ["outbound": .number(Double(outbound))])]
        case .userInput(let key, let sequence):
            ["userInput": conversation(key, ["sequence": .number(Double(sequence))])]
        case .userMessage(let key, let sequence, let node):
            ["userMessage": conversation(key, ["sequence": .number(Double(sequence)), "node": .string(node)])]
        case .toAgent(let name, let frame):
            ["toAgent": ["name": .string(name), "frame": .string(frame)]]
        case .toUser(let key, let frame):
            ["toUser": conversation(key, ["frame": .string(frame)])]
        case .agentQueue:
            ["agentQueue": [:]]
        case .agentQueueEntry(let key):
            ["agentQueueEntry": conversation(key, [:])]
        case .resynchronize:
            ["resynchronize": [:]]
        }
    }

    /// Decodes an event; nil for one this version does not know (a newer node's, during a rolling upgrade), which a
    /// node ignores.
    public init?(json: JSONValue) {
        func key(_ value: JSONValue) -> ConversationKey? {
            guard let channelId = value["channelId"]?.stringValue, let userId = value["userId"]?.stringValue else {
                return nil
            }
            return ConversationKey(channelId: channelId, userId: userId)
        }
        if let value = json["messages"], let key = key(value), let outbound = value["outbound"]?.intValue {
            self = .messages(key, outbound: outbound)
        } else if let value = json["userInput"], let key = key(value), let sequence = value["sequence"]?.intValue {
            self = .userInput(key, sequence: sequence)
        } else if let value = json["userMessage"], let key = key(value), let sequence = value["sequence"]?.intValue,
            let node = value["node"]?.stringValue
        {
            self = .userMessage(key, sequence: sequence, node: node)
        } else if let value = json["toAgent"], let name = value["name"]?.stringValue,
            let frame = value["frame"]?.stringValue
        {
            self = .toAgent(name: name, frame: frame)
        } else if let value = json["toUser"], let key = key(value), let frame = value["frame"]?.stringValue {
            self = .toUser(key, frame: frame)
        } else if let value = json["agentQueueEntry"], let key = key(value) {
            self = .agentQueueEntry(key)
        } else if json["agentQueue"] != nil {
            self = .agentQueue
        } else if json["resynchronize"] != nil {
            self = .resynchronize
        } else {
            return nil
        }
    }
}
