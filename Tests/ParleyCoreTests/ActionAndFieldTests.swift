import ParleyCore
import Testing

/// One test per action type and per field display type.
@Suite("Actions and fields")
struct ActionAndFieldTests {
    static func actions() throws -> [Action] {
        let payload = try Fixture.named("SkillMessage.text.every-action").payload()
        return payload.actions ?? []
    }

    func action(_ type: ActionType) throws -> Action {
        try #require(try Self.actions().first { $0.type == type })
    }

    @Test func postback() throws {
        let seed = try Action(decoding: Fixture.named("Action.postback.large-pizza").data)
        #expect(seed.kind == .postback(["state": "askSize", "action": "getCrust"]))
        #expect(seed.label == "Large Pizza")
        #expect(seed.imageUrl == "https://example.com/images/gallery/locations/11.jpg")
        let full = try action(.postback)
        #expect(full.kind == .postback("pizza"))
        #expect(full.keywords == ["pizza", "1"])
        #expect(full.skipAutoNumber == true)
        #expect(full.style == .primary)
        #expect(full.displayType == .button)
        #expect(full.voice?.text == "pizza")
        #expect(full.id == "a1")
    }

    @Test func call() throws {
        let seed = try Action(decoding: Fixture.named("Action.call.support").data)
        #expect(seed.kind == .call(phoneNumber: "18005555555"))
        #expect(seed.label == "Call Support")
    }

    @Test func url() throws {
        let seed = try Action(decoding: Fixture.named("Action.url.open-url").data)
        #expect(seed.kind == .url("https://example.com/images/gallery/locations/11.jpg"))
        #expect(try action(.url).displayType == .link)
    }

    @Test func location() throws {
        let seed = try Action(decoding: Fixture.named("Action.location.share").data)
        #expect(seed.kind == .location)
        #expect(seed.label == "Share location")
    }

    @Test func share() throws {
        #expect(try action(.share).kind == .share)
    }

    @Test func submitForm() throws {
        #expect(try action(.submitForm).kind == .submitForm(postback: nil))
    }

    @Test func popup() throws {
        let popup = try action(.popup)
        #expect(popup.label == nil)
        #expect(popup.imageUrl == "https://example.com/i.png")
        #expect(popup.kind == .popup(.text("More")))
        let editPopup = try #require(try Fixture.named("SkillMessage.text.popup-action").payload().actions?.first)
        guard case .popup(let content) = editPopup.kind, case .editForm(let form) = content.content else {
            Issue.record("popup without an edit form"); return
        }
        #expect(form.fields?.first?.id == "note")
        #expect(content.channelExtensions == [:])
    }

    @Test func webview() throws {
        #expect(try action(.webview).kind == .webview(url: "https://example.com/form"))
    }

    @Test func client() throws {
        let client = try action(.client)
        #expect(client.kind == .client(actionType: "copyMessageText"))
        #expect(client.tooltip == "Copy the text")
    }

    @Test func everyActionTypeIsCovered() throws {
        #expect(
            Set(try Self.actions().map(\.type)) == [
                .postback, .call, .url, .location, .share, .submitForm, .popup, .webview, .client,
            ])
    }

    // MARK: Fields

    static func expenseFields() throws -> [Field] {
        guard case .editForm(let form) = try Fixture.named("SkillMessage.editForm.expense").payload().content else {
            return []
        }
        return form.allFields
    }

    func field(_ id: String) throws -> Field {
        try #require(try Self.expenseFields().first { $0.id == id })
    }

    @Test func textInputField() throws {
        let field = try field("subject")
        #expect(
            field.kind
                == .textInput(
                    .init(
                        validationRegularExpression: "^[A-Za-z ]+$", multiLine: false, minLength: 2, maxLength: 80,
                        inputStyle: .text)))
        #expect(field.required == true)
        #expect(field.placeholder == "What was it for?")
        #expect(field.clientErrorMessage == "Letters only")
    }

    @Test func numberInputField() throws {
        let field = try field("amount")
        #expect(field.kind == .numberInput(.init(minValue: 0, maxValue: 5000.5)))
        #expect(field.defaultValue == 6)
    }

    @Test func datePickerField() throws {
        let field = try field("date")
        #expect(field.kind == .datePicker(.init(minimum: "2026-01-01", maximum: "2026-12-31")))
        #expect(field.defaultValue == "2026-11-21")
    }

    @Test func timePickerField() throws {
        #expect(try field("time").kind == .timePicker(.init(minimum: "09:00", maximum: "17:00")))
    }

    @Test func singleSelectField() throws {
        let field = try field("type")
        guard case .singleSelect(let choices) = field.kind else { Issue.record("not singleSelect"); return }
        #expect(choices.layoutStyle == .radioGroup)
        #expect(choices.options.map(\.submittedValue) == ["TRAVEL", "MEALS"])
        #expect(field.autoSubmit == true)
        #expect(field.serverErrorMessage == "Pick a type")
    }

    @Test func multiSelectField() throws {
        let field = try field("toppings")
        guard case .multiSelect(let choices) = field.kind else { Issue.record("not multiSelect"); return }
        #expect(choices.layoutStyle == .checkboxes)
        #expect(choices.options.map(\.submittedValue) == ["CHEESE", "Ham"])
        #expect(field.defaultValue == ["CHEESE"])
    }

    @Test func toggleField() throws {
        let field = try field("receipt")
        #expect(field.kind == .toggle(.init(valueOn: "yes", valueOff: "no", labelOn: "Yes", labelOff: "No")))
    }

    @Test func readOnlyFields() throws {
        guard case .form(let form) = try Fixture.named("SkillMessage.form.people").payload().content else {
            Issue.record("not a form"); return
        }
        let kinds = form.forms[0].fields?.map(\.kind.displayType)
        #expect(kinds == [.text, .link, .media])
        #expect(form.forms[0].fields?.allSatisfy { !$0.kind.isEditable } == true)
    }

    @Test func actionField() throws {
        let footer = try #require(try Fixture.named("SkillMessage.text.footer-form").payload().footerForm)
        let fields = footer.formRows?.first?.columns.first?.fields ?? []
        #expect(fields.map(\.kind.displayType) == [.action, .action])
        guard case .action(let thumbsUp) = fields.first?.kind else { Issue.record("not an action field"); return }
        #expect(thumbsUp.displayType == .icon)
        #expect(thumbsUp.kind == .postback(["rating": "positive"]))
    }

    @Test func editableFieldsNeedAnId() throws {
        let error = parleyError { _ = try Field(decoding: #"{"displayType":"textInput","label":"Name"}"#) }
        #expect(error?.code == .missingField)
        #expect(error?.path?.description == "$.id")
        #expect(throws: Never.self) { try Field(decoding: #"{"displayType":"text","value":"read only"}"#) }
    }
}
