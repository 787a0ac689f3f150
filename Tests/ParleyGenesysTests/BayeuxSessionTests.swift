import ParleyGenesys
import Testing

/// The Bayeux session state machine, without sockets or clocks.
@Suite("Bayeux session")
struct BayeuxSessionTests {
    typealias Action = BayeuxSession.Action

    static func sends(_ actions: [Action]) -> [BayeuxSession.Request] {
        actions.compactMap { if case .send(let request) = $0 { request } else { nil } }
    }

    static func timers(_ actions: [Action]) -> [(id: Int, delay: Duration)] {
        actions.compactMap { if case .startTimer(let id, let delay) = $0 { (id, delay) } else { nil } }
    }

    static func reply(_ text: String) -> [BayeuxMessage] {
        try! BayeuxMessage.batch(decoding: Array(text.utf8))
    }

    /// A session handshaken as `c1`, subscribed to `/_genesys`, with its first connect outstanding.
    static func handshaken() -> (BayeuxSession, connect: BayeuxSession.Request) {
        var session = BayeuxSession()
        _ = session.handle(.subscribe(.genesys))
        let handshake = sends(session.handle(.start))[0]
        let actions = session.handle(
            .replied(
                handshake,
                reply(
                    #"[{"channel":"/meta/handshake","successful":true,"clientId":"c1","version":"1.0","supportedConnectionTypes":["long-polling"],"advice":{"reconnect":"retry","interval":0,"timeout":30000}}]"#
                )))
        let connect = sends(actions).first { $0.kind == .connect }!
        return (session, connect)
    }

    @Test func startSendsAHandshakeAlone() {
        var session = BayeuxSession()
        let actions = session.handle(.start)
        #expect(actions.first == .stateChanged(.handshaking))
        let requests = Self.sends(actions)
        #expect(requests.count == 1)
        #expect(requests[0].kind == .handshake)
        let handshake = requests[0].messages[0]
        #expect(handshake.channel == .handshake)
        #expect(handshake.object["version"] == "1.0")
        #expect(handshake.object["supportedConnectionTypes"] == ["long-polling"])
        #expect(handshake.clientId == nil)
        #expect(handshake.id == "1")
        #expect(session.state == .handshaking)
        // Starting again while handshaking does nothing.
        #expect(session.handle(.start).isEmpty)
    }

    @Test func handshakeSuccessSubscribesAndConnects() {
        var session = BayeuxSession()
        _ = session.handle(.subscribe(.genesys))
        let handshake = Self.sends(session.handle(.start))[0]
        let actions = session.handle(
            .replied(
                handshake,
                Self.reply(
                    #"[{"channel":"/meta/handshake","successful":true,"clientId":"c1","advice":{"interval":0}}]"#)))
        #expect(actions.contains(.handshook(clientId: "c1")))
        #expect(actions.contains(.stateChanged(.connecting)))
        let requests = Self.sends(actions)
        #expect(requests.map(\.kind) == [.control, .connect])
        #expect(requests[0].messages.map(\.channel) == [.subscribe])
        #expect(requests[0].messages[0].subscription == "/_genesys")
        #expect(requests[0].messages[0].clientId == "c1")
        #expect(requests[1].messages[0].object["connectionType"] == "long-polling")
        #expect(requests[1].messages[0].clientId == "c1")
        #expect(session.connectOutstanding)
        #expect(session.clientId == "c1")
    }

    @Test func connectSuccessDeliversEventsAndPollsAgain() {
        var (session, connect) = Self.handshaken()
        let actions = session.handle(
            .replied(
                connect,
                Self.reply(
                    #"[{"channel":"/meta/connect","successful":true,"advice":{"reconnect":"retry","interval":0}},{"channel":"/_genesys","data":{"n":1}},{"channel":"/_genesys","data":{"n":2}}]"#
                )))
        let delivered = actions.compactMap { if case .deliver(let message) = $0 { message.data } else { nil } }
        #expect(delivered == [["n": 1], ["n": 2]])
        #expect(actions.contains(.stateChanged(.connected)))
        #expect(Self.sends(actions).map(\.kind) == [.connect])
        #expect(session.state == .connected)
    }

    @Test func adviceIntervalDelaysTheNextConnect() {
        var (session, connect) = Self.handshaken()
        let actions = session.handle(
            .replied(
                connect, Self.reply(#"[{"channel":"/meta/connect","successful":true,"advice":{"interval":2500}}]"#)))
        #expect(Self.sends(actions).isEmpty)
        let timers = Self.timers(actions)
        #expect(timers.map(\.delay) == [.milliseconds(2500)])
        #expect(!session.connectOutstanding)
        // A stale timer id is ignored; the right one connects.
        #expect(session.handle(.timerFired(timers[0].id + 100)).isEmpty)
        #expect(Self.sends(session.handle(.timerFired(timers[0].id))).map(\.kind) == [.connect])
        // Newer advice keeps members it does not repeat.
        #expect(session.advice.interval == .milliseconds(2500))
        #expect(session.advice.timeout == .seconds(30))
    }

    @Test(arguments: [
        // Faye's answer.
        #"[{"channel":"/meta/connect","successful":false,"error":"401:c1:Unknown client","advice":{"reconnect":"handshake"}}]"#,
        // Old CometD.
        #"[{"channel":"/meta/connect","successful":false,"error":"402::Unknown client","advice":{"interval":0,"reconnect":"handshake"}}]"#,
        // Modern CometD.
        #"[{"channel":"/meta/connect","successful":false,"error":"402::session_unknown"}]"#,
        // Any text at all, with the code alone.
        #"[{"channel":"/meta/connect","successful":false,"error":"402::Quelque chose d'autre"}]"#,
    ])
    func unknownClientRehandshakesAndResubscribes(_ answer: String) {
        var (session, connect) = Self.handshaken()
        let generation = session.generation
        let actions = session.handle(.replied(connect, Self.reply(answer)))
        #expect(actions.contains(.stateChanged(.handshaking)))
        let requests = Self.sends(actions)
        #expect(requests.map(\.kind) == [.handshake])
        #expect(session.clientId == nil)
        #expect(session.generation > generation)
        // The new handshake succeeds: the subscription is sent again, under the new client id.
        let again = session.handle(
            .replied(requests[0], Self.reply(#"[{"channel":"/meta/handshake","successful":true,"clientId":"c2"}]"#)))
        #expect(again.contains(.handshook(clientId: "c2")))
        let control = Self.sends(again).first { $0.kind == .control }
        #expect(control?.messages.map(\.subscription) == ["/_genesys"])
        #expect(control?.messages.map(\.clientId) == ["c2"])
        // A late reply to the old connect changes nothing.
        #expect(
            session.handle(.replied(connect, Self.reply(#"[{"channel":"/meta/connect","successful":true}]"#))).isEmpty)
    }

    @Test func unknownClientOnSubscribeRehandshakes() {
        var (session, _) = Self.handshaken()
        let subscribe = Self.sends(session.handle(.subscribe("/other")))[0]
        let actions = session.handle(
            .replied(
                subscribe,
                Self.reply(
                    #"[{"channel":"/meta/subscribe","successful":false,"error":"402::Unknown client","subscription":"/other"}]"#
                )))
        #expect(Self.sends(actions).map(\.kind) == [.handshake])
    }

    @Test func refusedSubscriptionIsReported() {
        var (session, _) = Self.handshaken()
        let subscribe = Self.sends(session.handle(.subscribe("/meta/nope")))[0]
        let actions = session.handle(
            .replied(
                subscribe,
                Self.reply(
                    #"[{"channel":"/meta/subscribe","successful":false,"error":"403:/meta/nope:Subscription denied","subscription":"/meta/nope"}]"#
                )))
        let refused = actions.compactMap { if case .refused(_, let error) = $0 { error.code } else { nil } }
        #expect(refused == [.bayeuxUnsuccessful])
        #expect(Self.sends(actions).isEmpty)
    }

    @Test func confirmedSubscriptionIsReported() {
        var session = BayeuxSession()
        _ = session.handle(.start)
        var (handshaken, _) = Self.handshaken()
        let subscribe = Self.sends(handshaken.handle(.subscribe("/x")))[0]
        let actions = handshaken.handle(
            .replied(subscribe, Self.reply(#"[{"channel":"/meta/subscribe","successful":true,"subscription":"/x"}]"#)))
        #expect(actions == [.subscribed("/x")])
        // Unsubscribing sends the unsubscribe and forgets the channel for later handshakes.
        let unsubscribe = Self.sends(handshaken.handle(.unsubscribe("/x")))
        #expect(unsubscribe[0].messages[0].channel == .unsubscribe)
        #expect(handshaken.subscriptions == [.genesys])
    }

    @Test func retryAdviceOnFailureBacksOff() {
        var (session, connect) = Self.handshaken()
        var actions = session.handle(
            .replied(connect, Self.reply(#"[{"channel":"/meta/connect","successful":false,"error":"500::busy"}]"#)))
        #expect(Self.sends(actions).isEmpty)
        #expect(Self.timers(actions).map(\.delay) == [.seconds(1)])
        var timer = Self.timers(actions)[0].id
        // Network failures grow the back-off by a second each time.
        for expected in 2...4 {
            let request = Self.sends(session.handle(.timerFired(timer)))[0]
            #expect(request.kind == .connect)
            actions = session.handle(.failed(request, reason: "refused"))
            #expect(Self.timers(actions).map(\.delay) == [.seconds(expected)])
            timer = Self.timers(actions)[0].id
        }
        // A success resets it.
        let request = Self.sends(session.handle(.timerFired(timer)))[0]
        _ = session.handle(.replied(request, Self.reply(#"[{"channel":"/meta/connect","successful":true}]"#)))
        #expect(session.backoff == .zero)
    }

    @Test func backoffIsCapped() {
        var session = BayeuxSession(configuration: .init(backoffIncrement: .seconds(40), maxBackoff: .seconds(60)))
        var request = Self.sends(session.handle(.start))[0]
        var delays: [Duration] = []
        for _ in 0..<3 {
            let actions = session.handle(.failed(request, reason: "down"))
            let timer = Self.timers(actions)[0]
            delays.append(timer.delay)
            request = Self.sends(session.handle(.timerFired(timer.id)))[0]
            #expect(request.kind == .handshake)
        }
        #expect(delays == [.seconds(40), .seconds(60), .seconds(60)])
    }

    @Test func noneAdviceStops() {
        var (session, connect) = Self.handshaken()
        let actions = session.handle(
            .replied(
                connect,
                Self.reply(
                    #"[{"channel":"/meta/connect","successful":false,"error":"500::gone","advice":{"reconnect":"none"}}]"#
                )))
        #expect(Self.sends(actions).isEmpty)
        #expect(actions.contains(.stateChanged(.disconnected)))
        #expect(actions.contains { if case .stopped(let error) = $0 { error.code == .bayeuxRefused } else { false } })
        #expect(session.state == .disconnected)
    }

    @Test func refusedHandshakeWithNoneStops() {
        var session = BayeuxSession()
        let handshake = Self.sends(session.handle(.start))[0]
        let actions = session.handle(
            .replied(
                handshake,
                Self.reply(
                    #"[{"channel":"/meta/handshake","successful":false,"error":"403::denied","advice":{"reconnect":"none"}}]"#
                )))
        #expect(actions.contains { if case .stopped = $0 { true } else { false } })
        #expect(session.state == .disconnected)
    }

    @Test func refusedHandshakeWithoutAdviceRetriesAfterInterval() {
        var session = BayeuxSession()
        let handshake = Self.sends(session.handle(.start))[0]
        let actions = session.handle(
            .replied(
                handshake,
                Self.reply(
                    #"[{"channel":"/meta/handshake","successful":false,"error":"500::x","advice":{"interval":5000}}]"#))
        )
        #expect(Self.timers(actions).map(\.delay) == [.seconds(5)])
        let retry = Self.sends(session.handle(.timerFired(Self.timers(actions)[0].id)))
        #expect(retry.map(\.kind) == [.handshake])
    }

    @Test func handshakeAdviceOnASuccessfulConnectIsHonoured() {
        var (session, connect) = Self.handshaken()
        let actions = session.handle(
            .replied(
                connect,
                Self.reply(
                    #"[{"channel":"/meta/connect","successful":true,"advice":{"reconnect":"handshake","interval":0}}]"#)
            ))
        #expect(Self.sends(actions).last?.kind == .handshake)
    }

    @Test func publishBeforeHandshakeWaits() {
        var session = BayeuxSession()
        #expect(session.handle(.publish("/chat", ["text": "hi"])).isEmpty)
        let handshake = Self.sends(session.handle(.start))[0]
        let actions = session.handle(
            .replied(handshake, Self.reply(#"[{"channel":"/meta/handshake","successful":true,"clientId":"c9"}]"#)))
        let control = Self.sends(actions).first { $0.kind == .control }
        #expect(control?.messages.map(\.channel) == ["/chat"])
        #expect(control?.messages.first?.clientId == "c9")
        #expect(control?.messages.first?.data == ["text": "hi"])
    }

    @Test func disconnectCarriesExtAndIgnoresLateReplies() {
        var (session, connect) = Self.handshaken()
        let actions = session.handle(.disconnect(ext: ["transcriptPosition": "4"]))
        let requests = Self.sends(actions)
        #expect(requests.map(\.kind) == [.disconnect])
        let message = requests[0].messages[0]
        #expect(message.channel == .disconnect)
        #expect(message.clientId == "c1")
        #expect(message.ext == ["transcriptPosition": "4"])
        #expect(actions.last == .stateChanged(.disconnected))
        #expect(
            session.handle(.replied(connect, Self.reply(#"[{"channel":"/meta/connect","successful":true}]"#))).isEmpty)
        #expect(session.handle(.failed(connect, reason: "cancelled")).isEmpty)
        #expect(session.handle(.disconnect(ext: nil)).isEmpty)
        // Starting again is a new handshake.
        #expect(Self.sends(session.handle(.start)).map(\.kind) == [.handshake])
    }

    @Test func failedControlRequestIsSentAgainAfterTheNextConnect() {
        var (session, connect) = Self.handshaken()
        let publish = Self.sends(session.handle(.publish("/chat", "x")))[0]
        #expect(session.handle(.failed(publish, reason: "reset")).isEmpty)
        let actions = session.handle(.replied(connect, Self.reply(#"[{"channel":"/meta/connect","successful":true}]"#)))
        let control = Self.sends(actions).first { $0.kind == .control }
        #expect(control?.messages.map(\.channel) == ["/chat"])
    }

    @Test func messageIdsIncrease() {
        var (session, connect) = Self.handshaken()
        let next = Self.sends(
            session.handle(.replied(connect, Self.reply(#"[{"channel":"/meta/connect","successful":true}]"#))))[0]
        let ids = [connect, next].compactMap { $0.messages[0].id }.compactMap(Int.init)
        #expect(ids.count == 2)
        #expect(ids[1] > ids[0])
    }

    @Test func trackedPublishIsConfirmedOrRefusedByItsId() {
        var (session, _) = Self.handshaken()
        let publish = Self.sends(session.handle(.publishTracked("/service/chatV2/s", ["operation": "x"], id: "p1")))[0]
        #expect(publish.messages.map(\.id) == ["p1"])
        let taken = session.handle(
            .replied(publish, Self.reply(#"[{"channel":"/service/chatV2/s","successful":true,"id":"p1"}]"#)))
        #expect(taken.compactMap { if case .published(let reply) = $0 { reply.id } else { nil } } == ["p1"])
        let again = Self.sends(session.handle(.publishTracked("/service/chatV2/s", "y", id: "p2")))[0]
        let refused = session.handle(
            .replied(
                again, Self.reply(#"[{"channel":"/service/chatV2/s","successful":false,"error":"403::no","id":"p2"}]"#))
        )
        #expect(refused.compactMap { if case .refused(let reply, _) = $0 { reply.id } else { nil } } == ["p2"])
    }

    @Test func publishLostWithTheSessionIsSentAgainAfterTheHandshake() {
        var (session, _) = Self.handshaken()
        let publish = Self.sends(session.handle(.publishTracked("/service/chatV2/s", "x", id: "p7")))[0]
        let lost = session.handle(
            .replied(
                publish,
                Self.reply(
                    #"[{"channel":"/service/chatV2/s","successful":false,"error":"402::Unknown client","id":"p7"}]"#)
            ))
        let handshake = Self.sends(lost).first { $0.kind == .handshake }
        guard let handshake else {
            Issue.record("no handshake after a lost session: \(lost)")
            return
        }
        let actions = session.handle(
            .replied(handshake, Self.reply(#"[{"channel":"/meta/handshake","successful":true,"clientId":"c2"}]"#)))
        let control = Self.sends(actions).first { $0.kind == .control }
        #expect(control?.messages.filter { !$0.isMeta }.map(\.id) == ["p7"])
        #expect(control?.messages.filter { !$0.isMeta }.first?.clientId == "c2")
    }
}
