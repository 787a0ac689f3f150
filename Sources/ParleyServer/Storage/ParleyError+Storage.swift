extension ParleyError.Code {
    /// The database URL given to the server (`parley serve --database`, the configuration file's `database`) is not
    /// one the server can use: not a `postgres://` URL, no host, a bad port, an unknown parameter. The message shows
    /// the URL without its password.
    public static let storeInvalidURL: Self = "store.invalidURL"
    /// The database cannot be reached: the connection was refused, the host is unknown or unreachable, or it did not
    /// answer in time. The message names the host and port and the cause. Nothing was stored.
    public static let storeUnavailable: Self = "store.unavailable"
    /// The database answered but refused the server: a wrong password, an unknown user or database, or a user
    /// without the rights the server needs. The message names the host, the user and the database's own reason.
    public static let storeAccessDenied: Self = "store.accessDenied"
    /// The database's schema was migrated by a newer server than this one: this server does not know its tables and
    /// refuses to start rather than write rows a newer server would misread.
    public static let storeSchemaTooNew: Self = "store.schemaTooNew"
    /// The database's schema is older than this server's (its migrations are not all applied: a database restored
    /// from an old backup, or emptied while the server ran): the server is not ready (`/health/ready`) until a
    /// server start migrates it.
    public static let storeSchemaOutdated: Self = "store.schemaOutdated"
    /// An answer named an input that is not pending: another node of a cluster answered it first. Nothing was stored;
    /// the first answer stands.
    public static let storeInputAnswered: Self = "store.inputAnswered"
}
