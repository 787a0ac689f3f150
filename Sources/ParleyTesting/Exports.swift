// ParleyTesting re-exports what a test of a Parley app needs, and adds an in-process server.
// The in-memory transport, fault-injecting proxy and virtual clock arrive with issue 5.
@_exported public import ParleyClient
@_exported public import ParleyServer
