// ParleyServer re-exports the wire model and the skills it serves.
@_exported public import ParleyCore
@_exported public import ParleySkills
