// ParleyClient re-exports the wire model so that an app imports one module.
// The chat client itself arrives with issue 4 (see README, "Status").
@_exported public import ParleyCore
