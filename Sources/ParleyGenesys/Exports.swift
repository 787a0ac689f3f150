// ParleyGenesys re-exports the conversation layer (and through it the wire model) so that an app imports one module.
// It links neither the ODA chat client nor speech: a Genesys chat is a Conversation of its own.
@_exported public import ParleyConversation
