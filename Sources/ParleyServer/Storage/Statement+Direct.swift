import GRDB
import GRDBSQLite

/// The store's statements on the path of every message, run with SQLite's C API on GRDB's cached statements.
///
/// GRDB's `execute(arguments:)` and `Row.fetchOne` box each argument in a `DatabaseValue` array and each result in a
/// `Row` with a cursor: about a fifth of the server's allocations under load (docs/performance.md, "Profiles").
/// Binding and reading in place allocates nothing; GRDB still prepares, caches and finalizes the statements.
extension Statement {
    /// Binds what `bind` binds, steps once, and reads the first row with `read` (nil when there is none); the
    /// statement is reset afterwards, so that it holds no lock and GRDB finds it as it left it.
    func direct<Result>(
        bind: (inout DirectBindings) -> Void, read: (DirectRow) -> Result
    ) throws -> Result? {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        var bindings = DirectBindings(statement: statement)
        bind(&bindings)
        if let failure = bindings.failure { throw failure }
        defer { sqlite3_reset(statement) }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let result = read(DirectRow(statement: statement))
            // Steps to the end: a `RETURNING` statement has done all its changes only then (SQLite's documentation).
            var code = sqlite3_step(statement)
            while code == SQLITE_ROW { code = sqlite3_step(statement) }
            guard code == SQLITE_DONE else { throw error(code) }
            return result
        case SQLITE_DONE:
            return nil
        case let code:
            throw error(code)
        }
    }

    /// Binds what `bind` binds and runs the statement to its end.
    func direct(bind: (inout DirectBindings) -> Void) throws {
        _ = try direct(bind: bind) { _ in () }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))),
            sql: sql)
    }
}

/// The parameters of a statement, bound by position (1, 2, …) in the order of the calls.
struct DirectBindings {
    fileprivate let statement: SQLiteStatement
    private var index: Int32 = 1
    /// The first binding SQLite refused.
    fileprivate var failure: DatabaseError?

    fileprivate init(statement: SQLiteStatement) {
        self.statement = statement
    }

    mutating func bind(_ value: String) {
        // An empty buffer may have no address, which SQLite would bind as NULL.
        guard !value.isEmpty else { return check(sqlite3_bind_text(statement, index, "", 0, SQLITE_TRANSIENT)) }
        var value = value
        // With its length, so that a NUL inside is kept; SQLite copies the text (`SQLITE_TRANSIENT`).
        let code = value.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { text in
                sqlite3_bind_text64(
                    statement, index, text.baseAddress, sqlite3_uint64(text.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8)
                )
            }
        }
        check(code)
    }

    mutating func bind(_ value: String?) {
        guard let value else { return check(sqlite3_bind_null(statement, index)) }
        bind(value)
    }

    mutating func bind(_ value: Int) {
        check(sqlite3_bind_int64(statement, index, Int64(value)))
    }

    mutating func bind(_ value: Int?) {
        guard let value else { return check(sqlite3_bind_null(statement, index)) }
        bind(value)
    }

    mutating func bind(_ value: Int64) {
        check(sqlite3_bind_int64(statement, index, value))
    }

    mutating func bind(_ value: Double) {
        check(sqlite3_bind_double(statement, index, value))
    }

    private mutating func check(_ code: Int32) {
        if code != SQLITE_OK, failure == nil {
            failure = DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "parameter \(index) could not be bound")
        }
        index += 1
    }
}

/// A row of a statement being stepped.
struct DirectRow {
    fileprivate let statement: SQLiteStatement

    /// The integer in column `column` (0-based).
    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }
}

/// SQLite's `SQLITE_TRANSIENT`, a macro Swift does not import: SQLite copies what is bound.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
