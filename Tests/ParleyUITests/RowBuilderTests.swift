import Foundation
import ParleyUI
import Testing

/// Transcript → rows without a server: dates, zones and locales chosen by the test.
@Suite struct RowBuilderTests {
    let hour = 3600.0

    @Test func relativeTimeBuckets() {
        let cases: [(Double, RelativeTime, String)] = [
            (0, .justNow, "Just now"), (9.9, .justNow, "Just now"), (10, .moments, "A few moments ago"),
            (59, .moments, "A few moments ago"), (60, .minutes(1), "1 min ago"), (119, .minutes(1), "1 min ago"),
            (3599, .minutes(59), "59 min ago"), (3600, .hours(1), "1 hr ago"), (86399, .hours(23), "23 hr ago"),
            (86400, .days(1), "1 day ago"), (29 * 86400, .days(29), "29 days ago"),
            (30 * 86400, .months(1), "1 month ago"), (364 * 86400, .months(12), "12 months ago"),
            (365 * 86400, .years(1), "1 year ago"), (800 * 86400, .years(2), "2 years ago"), (-5, .justNow, "Just now"),
        ]
        for (elapsed, bucket, english) in cases {
            #expect(RelativeTime(elapsed: elapsed) == bucket, "\(elapsed) s")
            #expect(bucket.text(Strings(locale: "en")) == english)
        }
        #expect(RelativeTime.minutes(3).text(Strings(locale: "fr")) == "Il y a 3\u{A0}min")
        #expect(RelativeTime.years(1).text(Strings(locale: "es")) == "Hace 1\u{A0}año")
        let changes: [(Double, Double)] = [
            (0, 10), (10, 60), (61, 120), (3600, 7200), (90000, 172_800), (31 * 86400, 60 * 86400),
            (361 * 86400, 365 * 86400), (400 * 86400, 730 * 86400),
        ]
        for (elapsed, next) in changes { #expect(RelativeTime.nextChange(after: elapsed) == next, "\(elapsed) s") }
    }

    @Test func absoluteTimestampsOnEveryMessageNoDayHeaders() {
        let messages = [
            Make.user("hello", at: referenceDate), Make.skill(.text("hi"), at: referenceDate + 60),
            Make.user("menu", at: referenceDate + 2 * hour),
        ]
        let builder = RowBuilder(timeZone: utc, now: referenceDate + 3 * hour)
        let rows = builder.rows(for: messages)
        #expect(rows.count == 3)
        #expect(
            rows.compactMap(\.message).map(\.timestamp) == [
                "November 14, 2023 22:13", "November 14, 2023 22:14", "November 15, 2023 00:13",
            ])
        var french = builder
        french.strings = Strings(locale: "fr")
        french.timestampFormat = "d MMMM yyyy HH:mm"
        #expect(french.rows(for: messages).first?.message?.timestamp == "14 novembre 2023 22:13")
        var off = builder
        off.enableTimestamp = false
        #expect(off.rows(for: messages).allSatisfy { $0.message?.timestamp == nil })
        #expect(off.timeUntilNextChange(for: messages) == nil)
    }

    @Test func relativeTimestampsOnTheLatestOnlyWithDayHeaders() {
        let messages = [
            Make.user("hello", at: referenceDate), Make.skill(.text("hi"), at: referenceDate + 60),
            Make.user("menu", at: referenceDate + 2 * hour),
            Make.skill(.text("here"), at: referenceDate + 2 * hour + 5),
        ]
        var builder = RowBuilder(timestampMode: .relative, timeZone: utc, now: referenceDate + 2 * hour + 125)
        var rows = builder.rows(for: messages)
        #expect(rows.map(\.id).filter { $0.hasPrefix("day-") } == ["day-2023-11-14", "day-2023-11-15"])
        #expect(rows.count == 6)
        if case .dayHeader(let header) = rows[0] { #expect(header.text == "November 14, 2023 22:13") }
        if case .dayHeader(let header) = rows[3] { #expect(header.text == "November 15, 2023 00:13") }
        #expect(rows.compactMap(\.message).map(\.timestamp) == [nil, nil, nil, "2 min ago"])
        #expect(builder.timeUntilNextChange(for: messages) == .seconds(60))

        // Another time zone moves the second day's messages back to the first day: one header.
        builder.timeZone = TimeZone(identifier: "America/New_York") ?? utc
        rows = builder.rows(for: messages)
        #expect(rows.map(\.id).filter { $0.hasPrefix("day-") } == ["day-2023-11-14"])
        builder.dayHeaderFormat = "EEEE d MMMM"
        builder.strings = Strings(locale: "es")
        if case .dayHeader(let header) = builder.rows(for: messages)[0] {
            #expect(header.text == "martes 14 noviembre")
        }
        builder.now = referenceDate + 2 * hour + 5 + 3
        #expect(builder.rows(for: messages).last?.message?.timestamp == "Ahora mismo")
        #expect(builder.timeUntilNextChange(for: messages) == .seconds(7))
    }

    @Test func consecutiveMessagesFromOneSenderAreGrouped() {
        let messages = [
            Make.skill(.text("a"), at: referenceDate), Make.skill(.text("b"), at: referenceDate + 1),
            Make.skill(.text("c"), at: referenceDate + 2), Make.user("d", at: referenceDate + 3),
            Make.agent("e", name: "Ava", at: referenceDate + 4), Make.agent("f", name: "Ava", at: referenceDate + 5),
            Make.agent("g", name: "Bob", at: referenceDate + 6),
        ]
        let builder = RowBuilder(botAvatar: "bot.png", personAvatar: "me.png", now: referenceDate)
        let rows = builder.rows(for: messages).compactMap(\.message)
        #expect(rows.map(\.groupPosition) == [.first, .middle, .last, .single, .first, .last, .single])
        #expect(rows.map(\.sender) == [.skill, .skill, .skill, .user, .agent, .agent, .agent])
        #expect(
            rows.map(\.avatar) == [
                .image("bot.png"), nil, nil, .image("me.png"), .initials("A", text: nil, background: nil), nil,
                .initials("B", text: nil, background: nil),
            ])
        #expect(rows.map(\.senderName) == [nil, nil, nil, nil, "Ava", nil, "Bob"])
    }

    @Test func pastActionsAreDisabledAsTheModeSays() {
        let actions = [
            Action(.postback(["size": "small"]), label: "Small"), Action(.url("https://example.com"), label: "Web"),
        ]
        let messages = [
            Make.skill(MessagePayload(.text(.init("Size?")), actions: actions), at: referenceDate, id: "asked"),
            Make.user("small", at: referenceDate + 1),
            Make.skill(MessagePayload(.text(.init("Crust?")), actions: actions), at: referenceDate + 2, id: "latest"),
        ]
        func enabled(_ mode: DisablePastActions) -> [[Bool]] {
            RowBuilder(disablePastActions: mode, now: referenceDate).rows(for: messages).compactMap(\.message)
                .filter { $0.sender == .skill }.map { $0.actions.map(\.isEnabled) }
        }
        #expect(enabled(.all) == [[false, false], [true, true]])
        #expect(enabled(.postback) == [[false, true], [true, true]])
        #expect(enabled(.none) == [[true, true], [true, true]])

        // An auto-submitted form field does not answer the form: it is still being filled in.
        let partial = MessagePayload(
            .formSubmission(.init(submittedFields: ["rating": "good"], partialSubmitField: "rating")))
        let form = MessagePayload(
            .editForm(.init(title: "Rate us")), actions: [Action(.submitForm(postback: nil), label: "Send")])
        let filling = [
            Make.skill(form, at: referenceDate, id: "form"),
            ChatMessage(date: referenceDate + 1, envelope: .user(UserMessage(payload: partial)), delivery: .sent),
        ]
        let rows = RowBuilder(now: referenceDate).rows(for: filling).compactMap(\.message)
        #expect(rows.count == 1, "the submission itself is not shown")
        guard case .editForm(let content) = rows.first?.content else {
            Issue.record("no form")
            return
        }
        #expect(content.isEnabled)
        #expect(content.actions.map(\.isEnabled) == [true])
        #expect(
            RowBuilder(now: referenceDate).rows(for: filling + [Make.user("done", at: referenceDate + 2)])
                .first?.message?.content != rows.first?.content, "a text answers it")
    }

    @Test func whatShowsAndWhatVoiceOverReads() {
        let card = Card(title: "Hawaiian", description: "Ham", actions: [Action(.postback("h"), label: "Order")])
        let messages = [
            Make.skill(MessagePayload(.card(.init(layout: .vertical, cards: [card]))), at: referenceDate, id: "cards"),
            Make.skill(
                MessagePayload(.outboundEvent(.init(eventType: "x", eventVersion: "1", eventData: .null))),
                at: referenceDate),
            Make.skill(
                .attachment(Attachment(type: .image, url: "https://x/p.png", title: "p.png")), at: referenceDate),
            Make.skill(
                MessagePayload(.location(Location(latitude: 1.5, longitude: 2)), footerText: "Here"), at: referenceDate),
            Make.skill(MessagePayload(.raw(.init(["k": "v"]))), at: referenceDate),
            Make.user("thanks", at: referenceDate, delivery: .failed),
        ]
        let rows = RowBuilder(now: referenceDate).rows(for: messages).compactMap(\.message)
        #expect(rows.count == 5, "the event is not shown")
        guard case .cards(let cards) = rows[0].content else {
            Issue.record("not cards")
            return
        }
        #expect(cards.layout == .vertical)
        #expect(cards.cards.map(\.actions.first?.id) == ["cards/card/0/0"])
        #expect(rows[0].accessibilityLabel == "Skill, card title Hawaiian, card description Ham")
        #expect(rows[1].accessibilityLabel == "Skill, image attacment p.png")
        #expect(rows[2].accessibilityLabel == "Skill, location message 1.5, 2.0, footer text Here")
        #expect(rows[3].content == .raw(["k": "v"]))
        #expect(rows[4].accessibilityLabel == "User, text message thanks")
        #expect(rows[4].canRetry)
        #expect(rows[4].deliveryText == "Not delivered")
    }

    @Test func agentDetailsFromTheServerAndTheApp() {
        let extensions: ChannelExtensions = [
            "agentSession": ["name": "Ava Lee", "nameTextColor": "#FF0000", "avatarBackgroundColor": "rgb(0, 0, 255)"]
        ]
        let messages = [Make.agent("Hi", name: nil, at: referenceDate, extensions: extensions)]
        var builder = RowBuilder(now: referenceDate)
        var row = builder.rows(for: messages)[0].message
        #expect(row?.senderName == "Ava Lee")
        #expect(row?.senderNameColor?.hex == "#FF0000")
        #expect(row?.avatar == .initials("AL", text: nil, background: RGBA(red: 0, green: 0, blue: 1)))
        #expect(row?.accessibilityLabel == "Agent Ava Lee, text message Hi")
        builder.agentAvatar = "agent.png"
        #expect(builder.rows(for: messages)[0].message?.avatar == .image("agent.png"))
        builder.agentDetails = AgentSession(name: "Bob", avatarImage: "https://x/bob.png")
        row = builder.rows(for: messages)[0].message
        #expect(row?.senderName == "Bob")
        #expect(row?.avatar == .image("https://x/bob.png"))
        #expect(row?.senderNameColor?.hex == "#FF0000", "what the app did not set stays the server's")
    }
}
