extension ParleyError.Code {
    // MARK: Loading a skill definition (see docs/skills.md, "Validation")

    /// A skill definition breaks a rule of the format that is not about JSON types: no states, a transition
    /// without a matcher or with two, a transition that neither says, goes nor ends, an invalid variable name.
    public static let skillInvalidDefinition: Self = "skill.invalidDefinition"
    /// A skill definition has a key the format does not know, such as a misspelt `goto`.
    public static let skillUnknownKey: Self = "skill.unknownKey"
    /// `start`, a `goto` or a `next` names a state the definition does not have.
    public static let skillUnknownState: Self = "skill.unknownState"
    /// A `regex` matcher is not a valid regular expression.
    public static let skillInvalidRegex: Self = "skill.invalidRegex"
    /// A string has a malformed `{{…}}` placeholder, such as one that is never closed.
    public static let skillInvalidTemplate: Self = "skill.invalidTemplate"
    /// A placeholder names a variable that is neither declared under `variables` nor set by any transition.
    public static let skillUnknownVariable: Self = "skill.unknownVariable"
    /// A skill definition file cannot be read.
    public static let skillUnreadable: Self = "skill.unreadable"

    // MARK: Running a skill

    /// A conversation's stored state cannot be decoded (written by another version, or edited by hand): the
    /// conversation starts again, and the server logs why and tells the user.
    public static let skillStateUnreadable: Self = "skill.stateUnreadable"
}
