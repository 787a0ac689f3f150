// ParleyUI re-exports the conversation layer (and through it the wire model) so that an app imports one module. It
// links no transport: an app adds ParleyClient for Parley's or Oracle's server, ParleyGenesys for a Genesys chat.
@_exported public import ParleyConversation
