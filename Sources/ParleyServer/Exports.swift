// ParleyServer re-exports the wire model it serves.
// The reference server itself arrives with issue 3 (see README, "Status").
@_exported public import ParleyCore
