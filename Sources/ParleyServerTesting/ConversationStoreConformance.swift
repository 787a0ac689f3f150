import Foundation
public import ParleyServer
import Testing

/// The rules every ``ConversationStore`` keeps, as a suite a store's tests run: Parley's own stores (SQLite, in
/// memory, PostgreSQL) run it, and so can a store of your own.
///
/// Give it a way to open a new, empty store (yours where this example has `InMemoryConversationStore()`), and run
/// every check (``Check``) from a Swift Testing test, one test per check so that each reports on its own:
///
/// ```swift
/// import ParleyServerTesting
/// import Testing
///
/// @Test(arguments: ConversationStoreConformance.Check.allCases)
/// func myStoreConforms(check: ConversationStoreConformance.Check) async throws {
///     let conformance = ConversationStoreConformance { body in
///         try await body(InMemoryConversationStore(), nil)  // nil: the data does not outlive the store
///     }
///     try await conformance.run(check)
/// }
/// ```
///
/// A check records what it finds wrong with Swift Testing's `#expect` (each failure in the test that runs it, at the
/// line of this file that checks it), and throws when it cannot go on: run it from a Swift Testing test.
///
/// Each check gets a store of its own, through the ``WithStore`` function given to ``init(withStore:)``, and removes
/// nothing of it: that function cleans up when its body returns. Where a store keeps data across processes, that
/// function also gives a ``Reopen``, which opens another store on the same data: checks use it for what outlives a
/// restart and for two nodes of a cluster at once (two stores answering one input concurrently). The checks use keys
/// of the channels `web` and `shop` and fixed dates around 2026-09.
public struct ConversationStoreConformance: Sendable {
    /// Opens another store on the same data as the store under test and runs the function it is given with it (then
    /// closes that store).
    public typealias Reopen = @Sendable ((any ConversationStore) async throws -> Void) async throws -> Void

    /// Runs the function it is given with a new, empty store, and a ``Reopen`` for its data (nil when the data does
    /// not outlive the store, as the in-memory store's); what the store used is removed after the function returns.
    public typealias WithStore = @Sendable ((any ConversationStore, Reopen?) async throws -> Void) async throws -> Void

    /// One rule of the suite, named for what it checks.
    public enum Check: String, CaseIterable, Sendable {
        case aNewConversationIsEmptyAndKeepsItsIdentity
        case inputsAreNumberedInOrderAndKeptPendingUntilAnswered
        case aRepeatedClientMessageIdStoresNothing
        case unusualTextIsKeptAsItIs
        case anAnswerStoresRepliesAndStateAndMarksItsInputAnswered
        case messagesTheServerSendsOnItsOwnAnswerNoInput
        case anAnsweredInputNeverHidesAnotherPendingInput
        case cursorsReadAfterASequenceOrAnOutboundNumber
        case anInputIsAnsweredOnceWhoeverAnswersIt
        case theAgentsQueueIsKeptWithTheConversation
        case anAnswerForAConversationThatDoesNotExistFails
        case concurrentInputsOfOneConversationGetDistinctConsecutiveNumbers
        case whatIsStoredOutlivesTheStore
        case messagesAreReadInPagesFromEitherCursor
        case aReadOfPendingInputsGivesTheOldestPage
        case idleConversationsAreDeletedWithTheirMessagesAndOthersAreKept
    }

    private let withStore: WithStore

    /// A suite that runs its checks on stores from `withStore`.
    /// - Parameter withStore: Runs a check with a new, empty store (see ``WithStore``).
    public init(withStore: @escaping WithStore) {
        self.withStore = withStore
    }

    /// Runs one check on a new store.
    /// - Throws: What the store throws where the check expects no error, or a failed requirement (`#require`).
    public func run(_ check: Check) async throws {
        try await withStore { store, reopen in
            switch check {
            case .aNewConversationIsEmptyAndKeepsItsIdentity:
                try await aNewConversationIsEmptyAndKeepsItsIdentity(store, reopen)
            case .inputsAreNumberedInOrderAndKeptPendingUntilAnswered:
                try await inputsAreNumberedInOrderAndKeptPendingUntilAnswered(store, reopen)
            case .aRepeatedClientMessageIdStoresNothing: try await aRepeatedClientMessageIdStoresNothing(store, reopen)
            case .unusualTextIsKeptAsItIs: try await unusualTextIsKeptAsItIs(store, reopen)
            case .anAnswerStoresRepliesAndStateAndMarksItsInputAnswered:
                try await anAnswerStoresRepliesAndStateAndMarksItsInputAnswered(store, reopen)
            case .messagesTheServerSendsOnItsOwnAnswerNoInput:
                try await messagesTheServerSendsOnItsOwnAnswerNoInput(store, reopen)
            case .anAnsweredInputNeverHidesAnotherPendingInput:
                try await anAnsweredInputNeverHidesAnotherPendingInput(store, reopen)
            case .cursorsReadAfterASequenceOrAnOutboundNumber:
                try await cursorsReadAfterASequenceOrAnOutboundNumber(store, reopen)
            case .anInputIsAnsweredOnceWhoeverAnswersIt: try await anInputIsAnsweredOnceWhoeverAnswersIt(store, reopen)
            case .theAgentsQueueIsKeptWithTheConversation:
                try await theAgentsQueueIsKeptWithTheConversation(store, reopen)
            case .anAnswerForAConversationThatDoesNotExistFails:
                try await anAnswerForAConversationThatDoesNotExistFails(store, reopen)
            case .concurrentInputsOfOneConversationGetDistinctConsecutiveNumbers:
                try await concurrentInputsOfOneConversationGetDistinctConsecutiveNumbers(store, reopen)
            case .whatIsStoredOutlivesTheStore: try await whatIsStoredOutlivesTheStore(store, reopen)
            case .messagesAreReadInPagesFromEitherCursor:
                try await messagesAreReadInPagesFromEitherCursor(store, reopen)
            case .aReadOfPendingInputsGivesTheOldestPage:
                try await aReadOfPendingInputsGivesTheOldestPage(store, reopen)
            case .idleConversationsAreDeletedWithTheirMessagesAndOthersAreKept:
                try await idleConversationsAreDeletedWithTheirMessagesAndOthersAreKept(store, reopen)
            }
        }
    }

    /// Runs every check, one after the other, each on a new store.
    /// - Throws: The first error a check throws.
    public func runAll() async throws {
        for check in Check.allCases {
            try await run(check)
        }
    }

    static let key = ConversationKey(channelId: "web", userId: "ada")
    static let date = Date(timeIntervalSince1970: 1_790_000_000.5)

    static func text(_ text: String, id: String? = nil) -> InputFrame {
        var message = UserMessage(payload: .text(text), userId: "ada")
        message.clientMessageId = id
        return .message(message)
    }

    static func reply(_ text: String) -> SkillMessage {
        SkillMessage(payload: .text(text), source: .bot, userId: "ada", msgId: "m-\(text)", endOfTurn: true)
    }

    private func aNewConversationIsEmptyAndKeepsItsIdentity(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        let first = try await store.conversation(for: Self.key)
        #expect(first.key == Self.key)
        #expect(first.state == ConversationState())
        #expect(first.unreadableState == nil)
        #expect((first.lastSequence, first.lastOutbound) == (0, 0))
        let again = try await store.conversation(for: Self.key)
        #expect(again.id == first.id)
        let other = try await store.conversation(for: ConversationKey(channelId: "web", userId: "bob"))
        #expect(other.id != first.id)
        #expect(try await store.messages(for: Self.key, after: .sequence(0)).isEmpty)
        #expect(try await store.pending(for: Self.key)?.inputs == [])
        #expect(try await store.pending(for: ConversationKey(channelId: "web", userId: "nobody")) == nil)
    }

    private func inputsAreNumberedInOrderAndKeptPendingUntilAnswered(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        let inputs = [
            Self.text("one", id: "c1"), Self.text("two"),
            .profile(ProfileUpdate(profile: Profile(givenName: "Ada"))),
        ]
        var sequences: [Int] = []
        for input in inputs {
            let received = try await store.receive(input, for: Self.key, at: Self.date)
            #expect(!received.duplicate)
            sequences.append(received.sequence)
        }
        #expect(sequences == [1, 2, 3])
        let pending = try #require(try await store.pending(for: Self.key))
        #expect(pending.inputs.map(\.frame) == inputs.map(StoredMessage.Frame.user))
        #expect(pending.inputs.map(\.pending) == [true, true, true])
        #expect(pending.inputs.map(\.clientMessageId) == ["c1", nil, nil])
        #expect(pending.inputs.allSatisfy { $0.direction == .user && $0.outbound == nil })
        #expect(pending.conversation.lastSequence == 3)
        #expect(try await store.conversationsWithPendingInputs() == [Self.key])
    }

    private func aRepeatedClientMessageIdStoresNothing(_ store: any ConversationStore, _ reopen: Reopen?) async throws {
        let first = try await store.receive(Self.text("hi", id: "same"), for: Self.key, at: Self.date)
        let repeated = try await store.receive(Self.text("hi again", id: "same"), for: Self.key, at: Self.date)
        #expect(first == ReceivedInput(sequence: 1, duplicate: false))
        #expect(repeated == ReceivedInput(sequence: 1, duplicate: true))
        // The same id in another conversation is another input.
        let elsewhere = try await store.receive(
            Self.text("hi", id: "same"), for: ConversationKey(channelId: "web", userId: "bob"), at: Self.date)
        #expect(elsewhere == ReceivedInput(sequence: 1, duplicate: false))
        let messages = try await store.messages(for: Self.key, after: .sequence(0))
        #expect(messages.map(\.frame) == [.user(Self.text("hi", id: "same"))])
    }

    /// Keys, ids and texts are kept as they are: an empty id, text that is not ASCII, a NUL inside JSON text.
    /// (The server refuses a user id with a NUL or another control character before it reaches the store.)
    private func unusualTextIsKeptAsItIs(_ store: any ConversationStore, _ reopen: Reopen?) async throws {
        let key = ConversationKey(channelId: "web", userId: "zoë 🍕")
        let input = Self.text("a\u{0}b — ünïcödé 🍕", id: "")
        #expect(try await store.receive(input, for: key, at: Self.date).sequence == 1)
        #expect(try await store.receive(Self.text("again", id: ""), for: key, at: Self.date).duplicate)
        let pending = try #require(try await store.pending(for: key))
        #expect(pending.inputs.map(\.frame) == [.user(input)])
        #expect(pending.inputs.map(\.clientMessageId) == [""])
        let state = ConversationState(state: "s\u{0}t")
        let replies = try await store.answer(
            1, with: [Self.reply("é\u{0}")], state: state, in: pending.conversation, at: Self.date)
        #expect(try await store.messages(for: key, after: .sequence(1)) == replies)
        #expect(try await store.conversation(for: key).state == state)
    }

    private func anAnswerStoresRepliesAndStateAndMarksItsInputAnswered(
        _ store: any ConversationStore, _ reopen: Reopen?
    ) async throws {
        _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
        _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
        let pending = try #require(try await store.pending(for: Self.key))
        let state = ConversationState(state: "askSize", variables: ["pizza": "cheese"], extra: ["custom": [1, 2]])
        let later = Self.date.addingTimeInterval(5)
        let stored = try await store.answer(
            1, with: [Self.reply("a"), Self.reply("b")], state: state, in: pending.conversation, at: later)
        #expect(stored.map(\.sequence) == [3, 4])
        #expect(stored.map(\.outbound) == [1, 2])
        #expect(stored.map(\.frame) == [.skill(Self.reply("a")), .skill(Self.reply("b"))])
        #expect(stored.allSatisfy { $0.direction == .skill && !$0.pending })

        let after = try #require(try await store.pending(for: Self.key))
        #expect(after.inputs.map(\.sequence) == [2])
        #expect(after.conversation.state == state)
        #expect((after.conversation.lastSequence, after.conversation.lastOutbound) == (4, 2))
        #expect(abs(after.conversation.updatedAt.timeIntervalSince(later)) < 0.001)
        #expect(try await store.conversation(for: Self.key).state == state)

        // The second answer, with no replies, still marks its input answered.
        _ = try await store.answer(2, with: [], state: state, in: after.conversation, at: later)
        #expect(try await store.pending(for: Self.key)?.inputs == [])
        #expect(try await store.conversationsWithPendingInputs() == [])
    }

    private func messagesTheServerSendsOnItsOwnAnswerNoInput(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
        let conversation = try await store.conversation(for: Self.key)
        let stored = try await store.answer(
            nil, with: [Self.reply("agent")], state: conversation.state, in: conversation, at: Self.date)
        #expect(stored.map(\.sequence) == [2])
        #expect(stored.map(\.outbound) == [1])
        #expect(try await store.pending(for: Self.key)?.inputs.map(\.sequence) == [1])
    }

    /// ``ConversationStore/answerInput(_:with:state:in:at:)`` stores as
    /// ``ConversationStore/answer(_:with:state:in:at:)`` does, and says "none pending" only when none is: the server's
    /// turn stops reading on its word.
    private func anAnsweredInputNeverHidesAnotherPendingInput(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
        _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
        let first = try #require(try await store.pending(for: Self.key))
        let answered = try await store.answerInput(
            1, with: [Self.reply("a")], state: first.conversation.state, in: first.conversation, at: Self.date)
        #expect(answered.stored.map(\.sequence) == [3])
        #expect(answered.stored.map(\.outbound) == [1])
        #expect(answered.othersPending)
        let second = try #require(try await store.pending(for: Self.key))
        #expect(second.inputs.map(\.sequence) == [2])
        let last = try await store.answerInput(
            2, with: [Self.reply("b")], state: second.conversation.state, in: second.conversation, at: Self.date)
        #expect(last.stored.map(\.sequence) == [4])
        if !last.othersPending { #expect(try await store.pending(for: Self.key)?.inputs == []) }
        let again = await #expect(throws: ParleyError.self) {
            try await store.answerInput(
                2, with: [Self.reply("c")], state: second.conversation.state, in: second.conversation, at: Self.date)
        }
        #expect(again?.code == .storeInputAnswered)
    }

    private func cursorsReadAfterASequenceOrAnOutboundNumber(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        for round in 1...3 {
            let received = try await store.receive(Self.text("in \(round)"), for: Self.key, at: Self.date)
            let conversation = try await store.conversation(for: Self.key)
            _ = try await store.answer(
                received.sequence, with: [Self.reply("out \(round)")], state: conversation.state, in: conversation,
                at: Self.date)
        }
        let all = try await store.messages(for: Self.key, after: .sequence(0))
        #expect(all.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(all.map(\.direction) == [.user, .skill, .user, .skill, .user, .skill])
        #expect(try await store.messages(for: Self.key, after: .sequence(4)).map(\.sequence) == [5, 6])
        let sent = try await store.messages(for: Self.key, after: .outbound(1))
        #expect(sent.map(\.outbound) == [2, 3])
        #expect(sent.map(\.frame) == [.skill(Self.reply("out 2")), .skill(Self.reply("out 3"))])
        #expect(try await store.messages(for: Self.key, after: .outbound(3)).isEmpty)
        // The wire form of a stored reply carries its outbound number as `sequence`.
        #expect(sent.first?.wireFrame["sequence"] == 2)
    }

    private func anInputIsAnsweredOnceWhoeverAnswersIt(_ store: any ConversationStore, _ reopen: Reopen?) async throws {
        _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
        let conversation = try await store.conversation(for: Self.key)
        _ = try await store.answer(
            1, with: [Self.reply("a")], state: conversation.state, in: conversation, at: Self.date)
        // A second answer to the same input (another node's, in a cluster) stores nothing.
        let error = await #expect(throws: ParleyError.self) {
            try await store.answer(
                1, with: [Self.reply("b")], state: conversation.state, in: conversation, at: Self.date)
        }
        #expect(error?.code == .storeInputAnswered)
        #expect(try await store.messages(for: Self.key, after: .sequence(0)).map(\.sequence) == [1, 2])
        #expect(try await store.conversation(for: Self.key).lastOutbound == 1)

        // Two stores on the same data (two nodes) answering one input at once: exactly one answer is stored.
        guard let reopen else { return }
        _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
        let now = try await store.conversation(for: Self.key)
        @Sendable func answers(_ node: any ConversationStore, _ text: String) async -> Bool {
            (try? await node.answer(3, with: [Self.reply(text)], state: now.state, in: now, at: Self.date)) != nil
        }
        try await reopen { other in
            async let first = answers(store, "x")
            async let second = answers(other, "y")
            #expect(await [first, second].filter { $0 }.count == 1)
        }
        #expect(try await store.messages(for: Self.key, after: .sequence(3)).count == 1)
        #expect(try await store.pending(for: Self.key)?.inputs == [])

        // The other node answers first: this one's answer fails, and its next read has nothing pending.
        _ = try await store.receive(Self.text("three"), for: Self.key, at: Self.date)
        #expect(try await store.pending(for: Self.key)?.inputs.map(\.sequence) == [5])
        let later = try await store.conversation(for: Self.key)
        try await reopen { other in
            _ = try await other.answer(5, with: [Self.reply("z")], state: later.state, in: later, at: Self.date)
        }
        let late = await #expect(throws: ParleyError.self) {
            try await store.answer(5, with: [Self.reply("w")], state: later.state, in: later, at: Self.date)
        }
        #expect(late?.code == .storeInputAnswered)
        #expect(try await store.pending(for: Self.key)?.inputs == [])
    }

    private func theAgentsQueueIsKeptWithTheConversation(_ store: any ConversationStore, _ reopen: Reopen?) async throws
    {
        let bob = ConversationKey(channelId: "web", userId: "bob")
        let ann = AgentSession(name: "Ann", avatarImage: "https://example.com/ann.png")
        #expect(try await store.queueForAgents(Self.key, at: Self.date))
        #expect(try await !store.queueForAgents(Self.key, at: Self.date.addingTimeInterval(9)), "queued once")
        #expect(try await store.queueForAgents(bob, at: Self.date.addingTimeInterval(1)))
        #expect(try await store.agentQueue().map(\.key) == [Self.key, bob], "oldest first")
        #expect(try await store.conversation(for: Self.key).handOff == AgentHandOff(since: Self.date))

        try await store.assign(Self.key, to: ann)
        try await store.assign(Self.key, to: AgentSession(name: "Ann"))  // the same agent again, from a new console
        let taken = await #expect(throws: ParleyError.self) {
            try await store.assign(Self.key, to: AgentSession(name: "Bea"))
        }
        #expect(taken?.code == .agentConversationTaken)
        let missing = await #expect(throws: ParleyError.self) {
            try await store.assign(ConversationKey(channelId: "web", userId: "nobody"), to: ann)
        }
        #expect(missing?.code == .agentNoSuchConversation)
        // The read before each answer sees who has the conversation.
        _ = try await store.receive(Self.text("hello"), for: Self.key, at: Self.date)
        #expect(try await store.pending(for: Self.key)?.conversation.handOff?.agent?.name == "Ann")

        if let reopen {
            try await reopen { other in
                let queue = try await other.agentQueue()
                #expect(queue.first?.handOff.agent?.name == "Ann", "kept across restarts")
            }
        }
        #expect(try await store.unassign(agentNamed: "Ann") == [Self.key])
        #expect(try await store.agentQueue().map(\.handOff.agent) == [nil, nil])
        try await store.assign(Self.key, to: ann)
        let ended = try await store.endHandOff(Self.key)
        #expect(ended?.agent?.name == "Ann")
        #expect(try await store.endHandOff(Self.key) == nil)
        #expect(try await store.pending(for: Self.key)?.conversation.handOff == nil)
        #expect(try await store.agentQueue().map(\.key) == [bob])
    }

    private func anAnswerForAConversationThatDoesNotExistFails(_ store: any ConversationStore, _ reopen: Reopen?)
        async throws
    {
        var ghost = try await store.conversation(for: Self.key)
        ghost.id = 999_999
        ghost.key = ConversationKey(channelId: "web", userId: "ghost")
        await #expect(throws: ParleyError.self) {
            try await store.answer(1, with: [Self.reply("x")], state: ConversationState(), in: ghost, at: Self.date)
        }
    }

    private func concurrentInputsOfOneConversationGetDistinctConsecutiveNumbers(
        _ store: any ConversationStore, _ reopen: Reopen?
    ) async throws {
        let sequences = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<40 {
                group.addTask {
                    try await store.receive(Self.text("\(number)", id: "id\(number)"), for: Self.key, at: Self.date)
                        .sequence
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sequences.sorted() == Array(1...40))
    }

    private func whatIsStoredOutlivesTheStore(_ store: any ConversationStore, _ reopen: Reopen?) async throws {
        guard let reopen else { return }  // the in-memory store keeps nothing across processes
        _ = try await store.receive(Self.text("one", id: "c1"), for: Self.key, at: Self.date)
        _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
        let conversation = try await store.conversation(for: Self.key)
        let state = ConversationState(state: "s", variables: ["v": 1])
        _ = try await store.answer(1, with: [Self.reply("a")], state: state, in: conversation, at: Self.date)
        let before = try await store.messages(for: Self.key, after: .sequence(0))

        try await reopen { reopened in
            #expect(try await reopened.messages(for: Self.key, after: .sequence(0)) == before)
            #expect(try await reopened.conversation(for: Self.key).state == state)
            #expect(try await reopened.pending(for: Self.key)?.inputs.map(\.sequence) == [2])
            #expect(try await reopened.conversationsWithPendingInputs() == [Self.key])
            let repeated = try await reopened.receive(Self.text("one", id: "c1"), for: Self.key, at: Self.date)
            #expect(repeated == ReceivedInput(sequence: 1, duplicate: true))
        }
    }

    private func messagesAreReadInPagesFromEitherCursor(_ store: any ConversationStore, _ reopen: Reopen?) async throws
    {
        for round in 1...3 {
            let received = try await store.receive(Self.text("in \(round)"), for: Self.key, at: Self.date)
            let conversation = try await store.conversation(for: Self.key)
            _ = try await store.answer(
                received.sequence, with: [Self.reply("out \(round)")], state: conversation.state, in: conversation,
                at: Self.date)
        }
        #expect(
            try await store.messages(for: Self.key, after: .sequence(0), limit: 4).map(\.sequence) == [1, 2, 3, 4])
        #expect(try await store.messages(for: Self.key, after: .sequence(4), limit: 4).map(\.sequence) == [5, 6])
        #expect(try await store.messages(for: Self.key, after: .outbound(0), limit: 2).map(\.outbound) == [1, 2])
        #expect(try await store.messages(for: Self.key, after: .outbound(2), limit: 2).map(\.outbound) == [3])
        #expect(try await store.messages(for: Self.key, after: .outbound(0), limit: 0).isEmpty)
        #expect(try await store.messages(for: Self.key, after: .sequence(0)).count == 6, "no limit: all of them")
    }

    private func aReadOfPendingInputsGivesTheOldestPage(_ store: any ConversationStore, _ reopen: Reopen?) async throws
    {
        let count = PendingInputs.limit + 3
        for index in 1...count {
            _ = try await store.receive(Self.text("in \(index)"), for: Self.key, at: Self.date)
        }
        let first = try #require(try await store.pending(for: Self.key))
        #expect(first.inputs.map(\.sequence) == Array(1...PendingInputs.limit))
        _ = try await store.answer(
            1, with: [], state: first.conversation.state, in: first.conversation, at: Self.date)
        let second = try #require(try await store.pending(for: Self.key))
        #expect(second.inputs.map(\.sequence) == Array(2...PendingInputs.limit + 1))
        #expect(second.conversation.lastSequence == count)
        // Answered down to fewer than a page, every input is still there, in order.
        var answered = [1]
        while let pending = try await store.pending(for: Self.key), let input = pending.inputs.first {
            _ = try await store.answer(
                input.sequence, with: [], state: pending.conversation.state, in: pending.conversation,
                at: Self.date)
            answered.append(input.sequence)
        }
        #expect(answered == Array(1...count))
    }

    private func idleConversationsAreDeletedWithTheirMessagesAndOthersAreKept(
        _ store: any ConversationStore, _ reopen: Reopen?
    ) async throws {
        let day: TimeInterval = 86_400
        let old = Self.key
        let fresh = ConversationKey(channelId: "web", userId: "bob")
        let lately = ConversationKey(channelId: "web", userId: "cy")
        let elsewhere = ConversationKey(channelId: "shop", userId: "ada")
        for (key, answered) in [(old, Self.date), (fresh, Self.date + 10 * day), (lately, Self.date)] {
            _ = try await store.receive(Self.text("hi"), for: key, at: Self.date)
            let pending = try #require(try await store.pending(for: key))
            _ = try await store.answer(
                1, with: [Self.reply("hello")], state: ConversationState(), in: pending.conversation, at: answered)
        }
        // An input stored lately keeps a conversation whose last answer is old (it awaits one).
        _ = try await store.receive(Self.text("still there?"), for: lately, at: Self.date + 10 * day)
        // Made just now (on the store's clock), without a message.
        _ = try await store.conversation(for: elsewhere)

        let removed = try await store.removeConversations(idleSince: Self.date + 5 * day)
        #expect(removed == [old])
        #expect(try await store.messages(for: old, after: .sequence(0)).isEmpty)
        let gone = try await store.pending(for: old)
        #expect(gone == nil || gone?.inputs == [])
        let again = try await store.conversation(for: old)
        #expect((again.lastSequence, again.lastOutbound) == (0, 0), "a new conversation starts from nothing")
        #expect(try await store.messages(for: fresh, after: .sequence(0)).count == 2)
        #expect(try await store.messages(for: lately, after: .sequence(0)).count == 3)
        #expect(try await store.pending(for: lately)?.inputs.count == 1)
        #expect(try await store.removeConversations(idleSince: Self.date + 5 * day) == [])
    }
}
