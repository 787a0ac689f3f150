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

    /// The control of one field, by kind. Each control's binding reads the value the model holds and hands a change
    /// to the model (``ChatViewModel/setFormValue(_:field:in:)``, asynchronous) on the main actor; its closures
    /// capture only sendable values, so they suit `Binding(get:set:)` however the SDK isolates them.
    struct FieldControl: View {
        let field: Field
        let value: JSONValue?
        let set: @MainActor @Sendable (JSONValue?) -> Void

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
                Toggle(label, isOn: binding(value == toggle.valueOn) { $0 ? toggle.valueOn : toggle.valueOff })
            case .singleSelect(let choices):
                Picker(label, selection: binding(value) { $0 }) {
                    ForEach(choices.options, id: \.label) { option in
                        Text(option.label).tag(Optional(option.submittedValue))
                    }
                }
            case .multiSelect(let choices):
                VStack(alignment: .leading) {
                    Text(label).font(.subheadline)
                    ForEach(choices.options, id: \.label) { option in
                        let current = value
                        Toggle(
                            option.label,
                            isOn: binding(Self.isPicked(option, in: current)) { Self.picking(option, $0, in: current) })
                    }
                }
            case .numberInput:
                TextField(label, text: binding(text) { Double($0).map(JSONValue.number) ?? .string($0) })
            default:
                TextField(
                    field.placeholder ?? label, text: binding(text) { $0.isEmpty ? nil : .string($0) }, axis: .vertical
                )
                .accessibilityLabel(label)
            }
        }

        /// A binding that shows `current` and sends a change, made a field value by `toValue`, to the model.
        private func binding<T: Sendable>(_ current: T, _ toValue: @escaping @Sendable (T) -> JSONValue?) -> Binding<T>
        {
            let set = set
            return Binding(get: { current }, set: { newValue in Task { @MainActor in set(toValue(newValue)) } })
        }

        nonisolated private static func isPicked(_ option: SelectOption, in value: JSONValue?) -> Bool {
            if case .array(let values)? = value { return values.contains(option.submittedValue) }
            return false
        }

        nonisolated private static func picking(_ option: SelectOption, _ on: Bool, in value: JSONValue?) -> JSONValue {
            var values: [JSONValue] = []
            if case .array(let current)? = value { values = current }
            values.removeAll { $0 == option.submittedValue }
            if on { values.append(option.submittedValue) }
            return .array(values)
        }
    }
#endif
