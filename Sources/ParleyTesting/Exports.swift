// ParleyTesting re-exports what a test of a Parley app needs.
// The in-memory transport, fault-injecting proxy and virtual clock arrive with issues 4 and 5 (see README, "Status").
@_exported public import ParleyClient
@_exported public import ParleyServer
