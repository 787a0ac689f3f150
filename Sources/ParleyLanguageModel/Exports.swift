// ParleyLanguageModel re-exports the skill API (and the wire model) its skill is used with.
@_exported public import ParleySkills
