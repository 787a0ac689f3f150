// ParleyWebBridge re-exports the wire model: events carry `JSONValue`s and message payloads.
@_exported public import ParleyCore
