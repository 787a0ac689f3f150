// ParleyServerTesting re-exports the server and ParleyClientTesting (a test of a server drives it with a client),
// and adds the in-process server.
@_exported public import ParleyClientTesting
@_exported public import ParleyServer
