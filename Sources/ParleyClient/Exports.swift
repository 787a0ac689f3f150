// ParleyClient re-exports the wire model so that an app imports one module.
@_exported public import ParleyCore
