import ParleyCore
import Testing

/// The frames of Parley's reliability extension (docs/protocol.md §13) read and write as documented.
@Suite("Reliability frames")
struct ReliabilityFrameTests {
    @Test func helloWelcomeAndAcknowledgementsRoundTrip() throws {
        let hello = try StateFrame(decoding: #"{"state":{"type":"parley","version":1,"resumeAfter":41}}"#)
        #expect(ParleyHello(hello) == ParleyHello(resumeAfter: 41))
        #expect(ParleyHello(resumeAfter: 41).stateFrame == hello)
        #expect(ParleyHello(StateFrame.ping) == nil)
        #expect(ParleyHello().stateFrame.jsonString() == #"{"state":{"type":"parley","version":1}}"#)

        let welcome = try StateFrame(
            decoding:
                #"{"state":{"type":"parley","version":1,"capabilities":["ack","sequence","resume","future"],"lastSequence":57,"maxFrameSize":1048576}}"#
        )
        let read = try #require(ParleyWelcome(welcome))
        #expect(read.capabilities == [.acknowledgements, .sequence, .resume, "future"])
        #expect(read.lastSequence == 57)
        #expect(read.maxFrameSize == 1_048_576)
        #expect(read.stateFrame == welcome)
        #expect(ParleyWelcome(hello) == nil, "a client's hello has no capabilities")

        let ack = try StateFrame(
            decoding: #"{"state":{"type":"ack","clientMessageId":"m1","sequence":42,"duplicate":true}}"#)
        #expect(Acknowledgement(ack) == Acknowledgement(clientMessageId: "m1", sequence: 42, duplicate: true))
        #expect(Acknowledgement(ack)?.stateFrame == ack)
        let refusal = Acknowledgement(
            clientMessageId: "m2", error: ParleyError(.missingField, "missing required field \"text\""))
        #expect(Acknowledgement(refusal.stateFrame)?.error?.code == .missingField)
        #expect(Acknowledgement(refusal.stateFrame)?.sequence == nil)
    }

    @Test func idsAndSequenceNumbersLiveOnTheEnvelopes() throws {
        var user = UserMessage(payload: .text("hi"), userId: "ann")
        user.clientMessageId = "m1"
        #expect(
            user.jsonString()
                == #"{"messagePayload":{"type":"text","text":"hi"},"userId":"ann","clientMessageId":"m1"}"#)
        #expect(try UserMessage(decoding: user.jsonString()).clientMessageId == "m1")
        user.clientMessageId = nil
        #expect(user.extra.isEmpty)

        var skill = try SkillMessage(
            decoding: #"{"messagePayload":{"type":"text","text":"yo"},"source":"BOT","sequence":7}"#)
        #expect(skill.sequence == 7)
        skill.sequence = 8
        #expect(skill.jsonString() == #"{"messagePayload":{"type":"text","text":"yo"},"source":"BOT","sequence":8}"#)

        var update = ProfileUpdate(profile: Profile(givenName: "Ann"))
        update.clientMessageId = "p1"
        #expect(try ProfileUpdate(decoding: update.jsonString()).clientMessageId == "p1")
    }
}
