/// A library that pulls the server into an app.
public struct Leaky {}
