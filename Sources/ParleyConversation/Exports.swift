// ParleyConversation re-exports the wire model that its messages and events carry, so that a screen imports one
// module.
@_exported public import ParleyCore
