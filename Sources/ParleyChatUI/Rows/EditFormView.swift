#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI
    import Foundation

    /// An edit form: a control per field, bound to the model's draft (``ChatViewModel/formDrafts``), the problems
    /// the model found under each field, and the form's buttons. Disabled once answered (`disablePastActions`).
    struct EditFormView: View {
        let model: ChatViewModel
        let rowId: String
        let content: EditFormContent
        let perform: (ActionItem) -> Void

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                if let title = content.form.title { Text(title).font(.headline) }
                if let error = content.form.errorMessage { Text(error).font(.footnote).foregroundStyle(.red) }
                ForEach(model.formDrafts[rowId]?.fields ?? [], id: \.id) { field in
                    VStack(alignment: .leading, spacing: 2) {
                        FieldControl(field: field, value: value(field)) { newValue in
                            guard let id = field.id else { return }
                            Task { await model.setFormValue(newValue, field: id, in: rowId) }
                        }
                        if let id = field.id, let problem = model.formProblems[rowId]?[id] {
                            Text(problem).font(.caption).foregroundStyle(.red)
                        }
                    }
                }
                ActionButtons(items: content.actions, layout: model.configuration.actionsLayout.form) { item in
                    perform(item)
                }
            }
            .disabled(!content.isEnabled)
        }

        private func value(_ field: Field) -> JSONValue? {
            field.id.flatMap { model.formDrafts[rowId]?[$0] }
        }
    }

    /// The control of one field, by kind.
    struct FieldControl: View {
        let field: Field
        let value: JSONValue?
        let set: (JSONValue?) -> Void

        private var label: String { field.label ?? field.id ?? "" }

        private var text: String {
            switch value {
            case .string(let text)?: text
            case .number(let number)?: number.formatted()
            case nil: ""
            case let other?: other.jsonString()
            }
        }

        var body: some View {
            switch field.kind {
            case .toggle(let toggle):
                Toggle(
                    label,
                    isOn: Binding(get: { value == toggle.valueOn }, set: { set($0 ? toggle.valueOn : toggle.valueOff) })
                )
            case .singleSelect(let choices):
                Picker(label, selection: Binding(get: { value }, set: { set($0) })) {
                    ForEach(choices.options, id: \.label) { option in
                        Text(option.label).tag(Optional(option.submittedValue))
                    }
                }
            case .multiSelect(let choices):
                VStack(alignment: .leading) {
                    Text(label).font(.subheadline)
                    ForEach(choices.options, id: \.label) { option in
                        Toggle(option.label, isOn: Binding(get: { isPicked(option) }, set: { pick(option, $0) }))
                    }
                }
            case .numberInput:
                TextField(
                    label, text: Binding(get: { text }, set: { set(Double($0).map(JSONValue.number) ?? .string($0)) }))
            default:
                TextField(
                    field.placeholder ?? label,
                    text: Binding(get: { text }, set: { set($0.isEmpty ? nil : .string($0)) }), axis: .vertical
                )
                .accessibilityLabel(label)
            }
        }

        private func isPicked(_ option: SelectOption) -> Bool {
            if case .array(let values)? = value { return values.contains(option.submittedValue) }
            return false
        }

        private func pick(_ option: SelectOption, _ on: Bool) {
            var values: [JSONValue] = []
            if case .array(let current)? = value { values = current }
            values.removeAll { $0 == option.submittedValue }
            if on { values.append(option.submittedValue) }
            set(.array(values))
        }
    }
#endif
