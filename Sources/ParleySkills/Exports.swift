// ParleySkills re-exports the wire model its skills speak.
@_exported public import ParleyCore
