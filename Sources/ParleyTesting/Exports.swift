// ParleyTesting re-exports what a test of a Parley app needs, and adds an in-process server, a virtual clock,
// a seeded random generator, an in-memory transport and a fault-injecting proxy.
@_exported public import ParleyClient
@_exported public import ParleyServer
