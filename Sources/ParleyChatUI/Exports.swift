// ParleyChatUI re-exports the presentation model (and through it the client and the wire model), so that an app
// imports one module. On platforms without SwiftUI the target compiles to nothing but this.
@_exported public import ParleyUI
