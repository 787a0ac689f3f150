extension ParleyError.Code {
    /// `POST /chat/v1/sessions` named a user id that already has a session secret on the channel. Only the holder of
    /// that secret can use the id; a client that lost it starts over with a new id.
    public static let sessionUserBound: Self = "session.userBound"
    /// `POST /chat/v1/sessions` named a channel that does not issue session secrets (its `sessionSecrets` is off, or
    /// it authenticates clients with tokens).
    public static let sessionNotOffered: Self = "session.notOffered"
}
