import ParleyCore
import Testing

/// One test per payload type: the fixture decodes to the typed case with the right content.
@Suite("Payload types")
struct PayloadTests {
    func payload(_ name: String) throws -> MessagePayload {
        try Fixture.named(name).payload()
    }

    @Test func text() throws {
        let payload = try payload("SkillMessage.text.actions")
        guard case .text(let text) = payload.content else { Issue.record("not text: \(payload.type)"); return }
        #expect(text.text == "What do you want to do?")
        #expect(payload.actions?.map(\.label) == ["Order Pizza", "Cancel A Previous Order"])
        #expect(payload.actions?.first?.kind == .postback(["state": "askAction", "action": "orderPizza"]))
    }

    @Test func postback() throws {
        let payload = try payload("UserMessage.postback.small")
        guard case .postback(let postback) = payload.content else { Issue.record("not postback"); return }
        #expect(postback.text == "Small")
        #expect(postback.postback["variables"]?["pizza"] == "Small")
        #expect(postback.postback["system.state"] == "orderPizza")
    }

    @Test func attachment() throws {
        let payload = try payload("UserMessage.attachment.image")
        guard case .attachment(let attachment) = payload.content else { Issue.record("not attachment"); return }
        #expect(attachment.type == .image)
        #expect(
            attachment.url == "http://oda-instance.com/attachment/v1/attachments/d43fd051-02cf-4c62-a422-313979eb9d55")
    }

    @Test func location() throws {
        let payload = try payload("UserMessage.location.coordinates")
        guard case .location(let location) = payload.content else { Issue.record("not location"); return }
        #expect(location.latitude == 45.9285271)
        #expect(location.longitude == 132.6101925)
        #expect(location.title == nil)
    }

    @Test func card() throws {
        let payload = try payload("SkillMessage.card.horizontal-pizzas")
        guard case .card(let cards) = payload.content else { Issue.record("not card"); return }
        #expect(cards.layout == .horizontal)
        #expect(cards.cards.map(\.title) == ["Hawaiian Pizza", "Cheese Pizza"])
        #expect(
            cards.cards[1].actions?[1].kind
                == .postback(
                    [
                        "state": "GetOrder",
                        "variables": ["pizzaType": "cheese", "pizzaCrust": "thick", "pizzaSize": "large"],
                    ]))
        #expect(payload.globalActions?.first?.kind == .call(phoneNumber: "123456789"))
    }

    @Test func raw() throws {
        let payload = try payload("SkillMessage.raw.channel-payload")
        guard case .raw(let raw) = payload.content else { Issue.record("not raw"); return }
        #expect(raw.payload["template"] == "receipt")
        #expect(raw.payload["items"]?[0]?["price"] == 9.5)
    }

    @Test func table() throws {
        let payload = try payload("SkillMessage.table.orders")
        guard case .table(let table) = payload.content else { Issue.record("not table"); return }
        #expect(table.headings.map(\.label) == ["Order", "Total"])
        #expect(table.headings.map(\.width) == [40, 60])
        #expect(table.rows[0].fields.map(\.value) == ["#1042", "$42.10"])
        #expect(table.rows[0].fields[1].alignment == .right)
        #expect(table.rows[0].selectAction?.label == "Open #1042")
        #expect(
            table.paginationInfo
                == PaginationInfo(totalCount: 12, rangeSize: 1, rangeStart: 0, status: "Showing 1 of 12 orders"))
        #expect(table.tableTitle == "Orders")
    }

    @Test func form() throws {
        let payload = try payload("SkillMessage.form.people")
        guard case .form(let form) = payload.content else { Issue.record("not form"); return }
        #expect(form.formColumns == 2)
        let fields = try #require(form.forms.first?.fields)
        #expect(fields.map(\.kind.displayType) == [.text, .link, .media])
        #expect(fields[0].kind == .text(.init(truncateAt: 40, fontSize: .medium, fontWeight: .bold)))
        #expect(fields[1].kind == .link(.init(linkLabel: "View")))
        #expect(fields[2].kind == .media(.image))
    }

    @Test func tableForm() throws {
        let payload = try payload("SkillMessage.tableForm.contacts")
        guard case .tableForm(let tableForm) = payload.content else { Issue.record("not tableForm"); return }
        #expect(tableForm.rows.count == tableForm.forms.count)
        #expect(tableForm.showFormButtonLabel == "Details")
        #expect(tableForm.disclosedFormIndex == 0)
        #expect(tableForm.forms[0].fields?[1].value == "https://example.com")
    }

    @Test func editForm() throws {
        let payload = try payload("SkillMessage.editForm.expense")
        guard case .editForm(let form) = payload.content else { Issue.record("not editForm"); return }
        #expect(form.title == "Expense")
        #expect(form.errorMessage == "Amount is required")
        #expect(
            form.allFields.compactMap(\.id) == ["subject", "amount", "date", "time", "type", "toppings", "receipt"])
        #expect(form.allFields.allSatisfy { $0.kind.isEditable })
        #expect(
            payload.actions?.first?.kind == .submitForm(postback: ["action": "submit", "system.state": "editExpense"]))
        #expect(payload.channelExtensions?.replaceMessage == true)
    }

    @Test func editFormInRowsAndColumns() throws {
        let payload = try payload("SkillMessage.editForm.form-rows")
        guard case .editForm(let form) = payload.content else { Issue.record("not editForm"); return }
        #expect(form.layoutRows.count == 1)
        #expect(form.layoutRows[0].columns.map(\.width) == [.auto, .stretch])
        #expect(form.allFields.compactMap(\.id) == ["start", "toppings"])
        #expect(form.allFields[0].marginTop == .medium)
    }

    @Test func formSubmission() throws {
        let full = try payload("UserMessage.formSubmission.full")
        guard case .formSubmission(let submission) = full.content else { Issue.record("not formSubmission"); return }
        #expect(submission.submittedFields["amount"] == 6)
        #expect(submission.submittedFields["toppings"] == ["CHEESE", "HAM"])
        #expect(submission.postback?["action"] == "submit")
        #expect(submission.partialSubmitField == nil)
        guard case .formSubmission(let partial) = try payload("UserMessage.formSubmission.partial").content else {
            Issue.record("not formSubmission"); return
        }
        #expect(partial.partialSubmitField == "type")
        #expect(partial.postback == nil)
    }

    @Test func textStream() throws {
        let states = try ["start", "running", "end"].map { state -> MessagePayload.TextStream in
            guard case .textStream(let stream) = try payload("SkillMessage.textStream.\(state)").content else {
                throw ParleyError(.invalidValue, "not a text stream")
            }
            return stream
        }
        #expect(states.map(\.streamState) == [.start, .running, .end])
        #expect(Set(states.map(\.streamId)) == ["s-1"])
        #expect(states.last?.text == "Hello, how can I help?")
        #expect(states[1].aggregateText == "Hello, how can")
    }

    @Test func status() throws {
        let agent = try Fixture.named("SkillMessage.status.agent-typing")
        let message = try SkillMessage(decoding: agent.data)
        #expect(message.source == .agent)
        #expect(message.payload.content == .status(.init(.responding)))
        let user = try payload("UserMessage.status.typing-sneak-preview")
        #expect(
            user.content == .status(.init(.responding, partyType: "user", source: "sdk", text: "I would like to cha")))
        #expect(try payload("UserMessage.status.idle").text == "...")
    }

    @Test func closeSession() throws {
        let payload = try payload("UserMessage.closeSession.end-conversation")
        #expect(payload.content == .closeSession)
        #expect(payload == .closeSession)
        #expect(payload.jsonString() == #"{"type":"closeSession"}"#)
    }

    @Test func sessionClosed() throws {
        #expect(try payload("SkillMessage.sessionClosed.expired").content == .sessionClosed)
    }

    @Test func inboundEvent() throws {
        let payload = try payload("UserMessage.inboundEvent.order-served")
        guard case .inboundEvent(let event) = payload.content else { Issue.record("not inboundEvent"); return }
        #expect(event.eventType == "com.pizzastore.pizza.orderserved")
        #expect(event.eventVersion == "1.0")
        #expect(event.eventData["size"] == "Medium")
        #expect(event.contextProperties?["source"] == "pizza/service")
    }

    @Test func outboundEvent() throws {
        let payload = try payload("SkillMessage.outboundEvent.order-ready")
        guard case .outboundEvent(let event) = payload.content else { Issue.record("not outboundEvent"); return }
        #expect(event.eventData == ["orderId": "1042"])
        #expect(event.contextProperties == nil)
    }

    @Test func suggest() throws {
        #expect(try payload("UserMessage.suggest.autocomplete").content == .suggest(.init(query: "ord", threshold: 30)))
    }

    @Test func command() throws {
        #expect(try payload("SkillMessage.command.no-reply").content == .command(.init(.noReply)))
        let handover = try payload("SkillMessage.command.human-agent")
        #expect(handover.content == .command(.init(.humanAgent)))
        #expect(handover.properties?["queue"] == "pizza-support")
    }

    @Test func error() throws {
        let payload = try payload("SkillMessage.error.failure")
        #expect(payload.content == .error(.init("Something went wrong. Please try again.")))
        #expect(payload.text == "Something went wrong. Please try again.")
    }

    @Test func updateApplicationContextCommand() throws {
        let web = try payload("UserMessage.updateApplicationContextCommand.web-sdk")
        #expect(web.content == .updateApplicationContextCommand(.init(source: .chatWindow, context: "JobRequisition")))
        guard
            case .updateApplicationContextCommand(let node) = try payload(
                "UserMessage.updateApplicationContextCommand.node-sdk"
            ).content
        else { Issue.record("not updateApplicationContextCommand"); return }
        #expect(node.source == .skill)
        #expect(node.command == .updateApplicationContext)
        #expect(node.fieldName == "JobDescription")
        #expect(node.reset == true)
    }

    @Test func executeApplicationActionCommand() throws {
        guard
            case .executeApplicationActionCommand(let web) = try payload(
                "SkillMessage.executeApplicationActionCommand.web-sdk"
            ).content
        else { Issue.record("not executeApplicationActionCommand"); return }
        #expect(web.effectiveAction == "navigate")
        guard
            case .executeApplicationActionCommand(let node) = try payload(
                "SkillMessage.executeApplicationActionCommand.node-sdk"
            ).content
        else { Issue.record("not executeApplicationActionCommand"); return }
        #expect(node.effectiveAction == "updateFields")
        #expect(node.applicationName == "HCM")
    }

    @Test func getDebugInfoCommand() throws {
        #expect(
            try payload("UserMessage.getDebugInfoCommand.request").content
                == .getDebugInfoCommand(.init(infoTypes: ["flowState"])))
    }

    @Test func builtPayloadsEncodeAsTheProtocolSays() throws {
        let text = MessagePayload.text("Order Pizza")
        #expect(text.jsonValue == ["type": "text", "text": "Order Pizza"])
        let postback = MessagePayload.postback(["state": "askSize"], text: "Large")
        #expect(postback.jsonValue == ["type": "postback", "postback": ["state": "askSize"], "text": "Large"])
        let location = MessagePayload.location(Location(latitude: 1.5, longitude: -2))
        #expect(location.jsonValue == ["type": "location", "location": ["latitude": 1.5, "longitude": -2]])
        let message = UserMessage(payload: text, userId: "guest")
        #expect(try UserMessage(decoding: message.jsonBytes()) == message)
    }

    /// `footerForm`, `voice` and a form's `selectAction` are kept out of line; they must read, write, compare and
    /// re-encode like the plain members they were, at every level that has them.
    @Test func membersKeptOutOfLineBehaveLikeStoredOnes() throws {
        let json = #"""
            {"type":"text","text":"Rate us","voice":{"text":"Rate us please"},
             "footerForm":{"title":"Feedback","selectAction":{"type":"postback","label":"Open","postback":{"f":1}},
              "formRows":[{"columns":[{"fields":[]}],"selectAction":{"type":"url","label":"Row","url":"https://x.example"}}]}}
            """#
        var payload = try MessagePayload(decoding: json)
        #expect(payload.voice?.text == "Rate us please")
        #expect(payload.footerForm?.title == "Feedback")
        #expect(payload.footerForm?.selectAction?.label == "Open")
        #expect(payload.footerForm?.formRows?.first?.selectAction?.label == "Row")
        #expect(try MessagePayload(json: payload.jsonValue) == payload)
        #expect(payload.jsonValue == (try JSONValue(parsing: json)))

        let copy = payload
        payload.footerForm?.selectAction?.label = "Changed"
        payload.voice = nil
        #expect(payload.footerForm?.selectAction?.label == "Changed")
        #expect(copy.footerForm?.selectAction?.label == "Open")
        #expect(payload.voice == nil && copy.voice != nil)
        #expect(payload != copy)
        #expect(Set([payload, copy, copy]).count == 2)
    }
}
