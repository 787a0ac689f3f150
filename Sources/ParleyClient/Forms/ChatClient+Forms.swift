extension ChatClient {
    /// Submits an edit form the user filled in: every field must pass ``FormDraft/problems``.
    /// - Parameter postback: The postback of the form's `submitForm` action, if it has one.
    /// - Throws: ``ParleyError/Code/formInvalid`` naming each field with a problem (the first one's id is the
    ///   error's `path`); nothing is sent.
    @discardableResult
    public func submitForm(_ draft: FormDraft, postback: JSONValue? = nil) async throws(ParleyError) -> ChatMessage? {
        let problems = draft.problems
        guard problems.isEmpty else {
            let ordered = draft.fields.compactMap { field in field.id.flatMap { id in problems[id].map { (id, $0) } } }
            let message = ordered.map { "\($0.0): \($0.1)" }.joined(separator: "; ")
            throw ParleyError(.formInvalid, message, path: ordered.first.map { JSONPath([.key($0.0)]) })
        }
        return try await submitForm(draft.values, postback: postback)
    }

    /// Sends what a field with `autoSubmit` needs (Oracle's auto-submit): the valid values entered so far as
    /// `submittedFields` — fields not set or with a problem are left out, required or not — and the field's id as
    /// `partialSubmitField`.
    /// - Throws: ``ParleyError/Code/formInvalid`` when the auto-submitting field itself has a problem (nothing is
    ///   sent; show the message by the field), or `fieldId` is not a field of the form.
    @discardableResult
    public func autoSubmit(_ draft: FormDraft, field fieldId: String) async throws(ParleyError) -> ChatMessage? {
        guard let field = draft.field(fieldId) else {
            throw ParleyError(
                .formInvalid, "the form has no editable field \"\(fieldId)\"", path: JSONPath([.key(fieldId)]))
        }
        if let problem = field.problem(with: draft[fieldId]) {
            throw ParleyError(.formInvalid, "\(fieldId): \(problem)", path: JSONPath([.key(fieldId)]))
        }
        return try await submitForm(draft.validValues, partialSubmitField: fieldId)
    }

    /// Whether an action of a message may still be used, by `disablePastActions`: with `all` (the default) no
    /// action of a message the user has answered (sent something after, ``ChatMessage/answersEarlierMessages``) is;
    /// with `postback` only its postback actions are disabled; with `none` every action stays usable. Actions of the
    /// latest messages always are.
    public func isActionEnabled(_ action: Action, in message: ChatMessage) -> Bool {
        Self.isActionEnabled(action, in: message, of: transcript.messages, policy: configuration.disablePastActions)
    }

    static func isActionEnabled(
        _ action: Action, in message: ChatMessage, of messages: [ChatMessage], policy: DisablePastActions
    ) -> Bool {
        guard policy != .none else { return true }
        guard let index = messages.lastIndex(where: { $0.id == message.id }) else { return true }
        let answered = messages[(index + 1)...].contains { $0.answersEarlierMessages }
        guard answered else { return true }
        if policy == .postback, action.type != .postback { return true }
        return false
    }
}
