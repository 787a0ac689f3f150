// ParleyUI re-exports the chat client (and through it the wire model) so that an app imports one module.
@_exported public import ParleyClient
