// Every error code ParleyServer declares, in one place; ParleyCore declares the wire codes both sides share
// (`json.*`, `decode.*`, `auth.*`, `channel.*`, `server.*`, …), each other module its own in its `ParleyError+Module`
// file. A code's string is wire-stable: clients, logs and dashboards match it, so it never changes.

extension ParleyError.Code {
    // MARK: Storage (`store.*`): the conversation store and its database

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

    // MARK: The data folder (`server.dataFolder*`)

    /// Another server (or another application in this process) holds the data folder; two servers on one folder
    /// would answer inputs twice and fight over the database. The message names the folder and, when known, the
    /// other server's process id.
    public static let dataFolderLocked: Self = "server.dataFolderLocked"
    /// The data folder, or its lock file `.lock`, cannot be created or opened (permissions, a read-only disk).
    public static let dataFolderUnavailable: Self = "server.dataFolderUnavailable"

    // MARK: Resources the server ships (`server.resourceUnreadable`)

    /// A file the server ships as a package resource (the agent console page) is missing from ParleyServer's
    /// resource bundle, cannot be read, or is not in the shape the server needs. The message names the file.
    public static let serverResourceUnreadable: Self = "server.resourceUnreadable"

    // MARK: Session secrets (`session.*`, `POST /chat/v1/sessions`)

    /// `POST /chat/v1/sessions` named a user id that already has a session secret on the channel. Only the holder of
    /// that secret can use the id; a client that lost it starts over with a new id.
    public static let sessionUserBound: Self = "session.userBound"
    /// `POST /chat/v1/sessions` named a channel that does not issue session secrets (its `sessionSecrets` is off, or
    /// it authenticates clients with tokens).
    public static let sessionNotOffered: Self = "session.notOffered"

    // MARK: Live agents (`agent.*`, the agent socket)

    /// An agent named a conversation that is not handed to agents.
    public static let agentNoSuchConversation: Self = "agent.noSuchConversation"
    /// Another agent already has the conversation.
    public static let agentConversationTaken: Self = "agent.conversationTaken"
    /// The agent has not joined the conversation it writes to.
    public static let agentNotJoined: Self = "agent.notJoined"

    // MARK: Attachments (`attachment.*`): `POST /chat/v1/attachments`, `GET /attachment/v1/attachments/…`

    /// The file (or the request carrying it) is larger than the server's attachment limit (`413`).
    static let attachmentTooLarge: Self = "attachment.tooLarge"
    /// The file's bytes are of a type the channel does not accept, or could run as script (`415`).
    static let attachmentUnsupportedType: Self = "attachment.unsupportedType"
    /// The file name is longer than 255 bytes in UTF-8 (`400`).
    static let attachmentNameTooLong: Self = "attachment.nameTooLong"
    /// The user's attachments on this channel would exceed the storage quota (`413`).
    static let attachmentQuotaExceeded: Self = "attachment.quotaExceeded"
    /// The request is not `multipart/form-data` with one part named `attachment` (`400`).
    static let attachmentMalformed: Self = "attachment.malformed"
    /// The file is empty (`400`).
    static let attachmentEmpty: Self = "attachment.empty"
    /// No attachment has this address (`404`).
    static let attachmentNotFound: Self = "attachment.notFound"
    /// The upload's body arrived slower than the server's minimum rate over a window, or its slot was given to an
    /// upload that was moving while every slot was taken (`408`, the connection is closed).
    static let attachmentTooSlow: Self = "attachment.tooSlow"
    /// The upload did not end within the server's upload deadline (`408`, the connection is closed).
    static let attachmentTimedOut: Self = "attachment.timedOut"
    /// The server keeps as many bytes of attachments as its global quota allows (`507`); nothing was stored.
    static let attachmentStorageFull: Self = "attachment.storageFull"
    /// A stored attachment could not be read from the disk or the database (`500`): not missing, damaged or out of
    /// reach; the server's log says why.
    static let attachmentUnreadable: Self = "attachment.unreadable"

    // MARK: Speech endpoints (`speech.*`): `/voice/stream/recognize/…`, `/tts/…`
    // (the engines' own codes are ParleySpeech's: `speech.engineUnavailable`, `speech.engineFailed`, …)

    /// The channel does not serve speech (``ChannelSpeech/enabled`` is off): `403`, or close code 1008.
    public static let speechDisabled: Self = "speech.disabled"
    /// The text to speak is longer than ``SpeechConfiguration/maxTextLength`` (`413`).
    public static let speechTextTooLong: Self = "speech.textTooLong"
    /// A recognition socket stayed open longer than ``SpeechConfiguration/recognitionTimeout``: an error frame,
    /// then close code 1008.
    public static let speechTimeout: Self = "speech.timeout"

    // MARK: Metrics (`metrics.*`)

    /// `GET /metrics` came from an address that may not read the metrics: without a
    /// ``ServerConfiguration/metricsToken``, only a loopback peer that is no proxy may (`403`).
    static let metricsForbidden: Self = "metrics.forbidden"
}
