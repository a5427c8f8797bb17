//! Connections to PostgreSQL, pooled, each with its prepared statements, and the transactions
//! the engine seam runs in.
//!
//! The `postgres` crate's client is synchronous, as the `Store` is: reads run on blocking
//! threads, writes on the writer's thread. It must never be called on an async worker thread
//! (it runs its own runtime inside).

use std::collections::HashMap;
use std::str::FromStr as _;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use postgres::{Client, NoTls, Statement};

use super::super::engine::Error;
use super::overlay::Overlay;

/// Connections a store keeps open at most: the writer's, and readers'.
const POOL_SIZE: u32 = 16;

/// Every writer, on every node, takes this transaction-level advisory lock first: batches
/// commit one at a time across the cluster, so ids (read and bumped under it) increase in
/// commit order. The number is "confab" in ASCII.
const WRITER_LOCK: i64 = 0x636f_6e66_6162;

/// What a statement reads from a table. The SQL is the same for every table (see `keys.rs`);
/// writes go in one statement per batch (`overlay.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Get,
    /// The rows under any of the keys in `$1` (a prefetch).
    GetMany,
    Count,
    Ascending,
    Descending,
    /// The rows of many ranges at once (`$1` low and `$2` high bounds, pairwise), each row
    /// with the ordinal of its range.
    Ranges,
}

impl Op {
    fn sql(self, table: &str) -> String {
        match self {
            Op::Get => format!("SELECT v FROM {table} WHERE k = $1"),
            Op::GetMany => format!("SELECT k, v FROM {table} WHERE k = ANY($1)"),
            // A nested loop: one index scan a range, as many at once.
            Op::Ranges => format!(
                "SELECT b.i, t.k, t.v FROM unnest($1::bytea[], $2::bytea[]) WITH ORDINALITY AS b(low, high, i) \
                 JOIN {table} t ON t.k >= b.low AND t.k < b.high ORDER BY b.i, t.k"
            ),
            Op::Count => format!("SELECT count(*) FROM {table}"),
            Op::Ascending => format!("SELECT k, v FROM {table} WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3"),
            Op::Descending => {
                format!("SELECT k, v FROM {table} WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3")
            }
        }
    }
}

/// A connection and the statements it has prepared, by table and operation: each is parsed
/// and planned once per connection, then only bound and run.
pub struct Connection {
    /// Always `Some` but while dropped.
    client: Option<Client>,
    statements: HashMap<(&'static str, Op), Statement>,
    /// Statements made up per batch (a batch's writes, `overlay.rs`), by their text.
    by_text: HashMap<String, Statement>,
}

/// Statements kept by text at most; past it they are dropped and prepared again.
const MOST_BY_TEXT: usize = 512;

impl Drop for Connection {
    fn drop(&mut self) {
        // Closing blocks on the client's own runtime, which panics on an async thread (a store
        // dropped there, at shutdown or when the start fails): close it on a thread of its own.
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}

impl Connection {
    pub fn client(&mut self) -> &mut Client {
        self.client.as_mut().expect("a connection has its client until dropped")
    }

    pub fn statement(&mut self, table: &'static str, op: Op) -> Result<Statement, Error> {
        if let Some(statement) = self.statements.get(&(table, op)) {
            return Ok(statement.clone());
        }
        let statement = self.client().prepare(&op.sql(table)).map_err(postgres_error)?;
        self.statements.insert((table, op), statement.clone());
        Ok(statement)
    }

    /// A statement by its text, prepared once.
    pub fn prepared(&mut self, sql: &str) -> Result<Statement, Error> {
        if let Some(statement) = self.by_text.get(sql) {
            return Ok(statement.clone());
        }
        if self.by_text.len() >= MOST_BY_TEXT {
            self.by_text.clear();
        }
        let statement = self.client().prepare(sql).map_err(postgres_error)?;
        self.by_text.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }
}

/// Opens connections for the pool.
pub struct Connector {
    config: postgres::Config,
}

impl r2d2::ManageConnection for Connector {
    type Connection = Connection;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Connection, postgres::Error> {
        let mut client = self.config.connect(NoTls)?;
        // A commit returns once its record is flushed: an acknowledged write is durable, as
        // with redb, whatever the server's default.
        // `client_min_messages`: the notices of `CREATE TABLE IF NOT EXISTS` are no news.
        client.batch_execute("SET synchronous_commit = on; SET client_min_messages = warning")?;
        Ok(Connection { client: Some(client), statements: HashMap::new(), by_text: HashMap::new() })
    }

    fn is_valid(&self, connection: &mut Connection) -> Result<(), postgres::Error> {
        connection.client().batch_execute("")
    }

    fn has_broken(&self, connection: &mut Connection) -> bool {
        connection.client().is_closed()
    }
}

pub type Pooled = r2d2::PooledConnection<Connector>;

/// The connections to one database.
pub struct Pool {
    pool: r2d2::Pool<Connector>,
    config: postgres::Config,
}

impl Pool {
    /// Connects to `url` (a `postgres://` URL or `key=value` pairs), once, to fail early.
    /// A pool on the database at `url`. Its sessions carry `application_name` (unless the
    /// address sets one), so that an operator tells the servers apart in `pg_stat_activity`
    /// and in `confab_events.node`.
    pub fn connect(url: &str, application_name: &str) -> Result<Pool, String> {
        let mut config = postgres::Config::from_str(url).map_err(|e| format!("the database address: {e}"))?;
        if config.get_application_name().is_none() {
            config.application_name(application_name);
        }
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(30))
            // Not a round trip per checkout: a broken connection fails its statement, and the
            // pool drops it (`has_broken`).
            .test_on_check_out(false)
            .build(Connector { config: config.clone() })
            .map_err(|e| format!("connecting to the database: {e}"))?;
        Ok(Pool { pool, config })
    }

    /// A connection of its own, listening for other servers' batches.
    pub fn listener(&self) -> Result<super::events::Listener, Error> {
        super::events::Listener::connect(&self.config)
    }

    fn get(&self) -> Result<Pooled, Error> {
        self.pool.get().map_err(|e| Error::Postgres(format!("no connection to the database: {e}")))
    }

    /// A read transaction: a snapshot of what was committed when its first query ran, as
    /// redb's read transactions are.
    pub fn begin_read(&self) -> Result<Transaction, Error> {
        Transaction::begin(self.get()?, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    /// A transaction that writes outside the writer's lock, for upkeep that no batch reads
    /// (pruning old shared events).
    pub fn begin_upkeep(&self) -> Result<Transaction, Error> {
        Transaction::begin(self.get()?, "BEGIN ISOLATION LEVEL READ COMMITTED")
    }

    /// The writer's transaction, under the cluster-wide writer lock. READ COMMITTED: each
    /// statement sees what committed before it, so the ids read after the lock's wait are
    /// those the previous holder left (REPEATABLE READ would read from before the wait).
    pub fn begin_write(&self) -> Result<Transaction, Error> {
        let sql =
            format!("BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock({WRITER_LOCK})");
        Transaction::begin(self.get()?, &sql)
    }
}

/// A transaction on one pooled connection, shared by the tables opened in it. Dropped without
/// [`Transaction::commit`], it is rolled back.
pub struct Transaction {
    session: Mutex<Session>,
    open: std::sync::atomic::AtomicBool,
}

/// The connection and what the transaction read and holds to write (`overlay.rs`).
pub struct Session {
    pub connection: Pooled,
    pub overlay: Overlay,
}

impl Session {
    /// Sends the writes held for `table` (or for every table): one statement.
    pub fn flush(&mut self, table: Option<&'static str>) -> Result<(), Error> {
        let writes = self.overlay.take(table);
        self.send(writes)
    }

    /// Sends writes now, in one statement.
    pub fn send(&mut self, writes: super::overlay::Writes) -> Result<(), Error> {
        let Some((sql, params)) = super::overlay::statement(writes) else {
            return Ok(());
        };
        let statement = self.connection.prepared(&sql)?;
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> = params.iter().map(|p| p.as_ref()).collect();
        self.connection.client().execute(&statement, &params).map_err(postgres_error)?;
        Ok(())
    }
}

impl Transaction {
    fn begin(mut connection: Pooled, sql: &str) -> Result<Transaction, Error> {
        connection.client().batch_execute(sql).map_err(postgres_error)?;
        let session = Session { connection, overlay: Overlay::default() };
        Ok(Transaction { session: Mutex::new(session), open: true.into() })
    }

    /// The connection and the overlay, for one statement at a time.
    pub fn session(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends the writes held, then commits: durable when this returns (`synchronous_commit`).
    pub fn commit(&self) -> Result<(), Error> {
        let mut session = self.session();
        session.flush(None)?;
        self.open.store(false, std::sync::atomic::Ordering::Relaxed);
        session.connection.client().batch_execute("COMMIT").map_err(postgres_error)
    }

    /// Runs SQL that returns no rows (schema changes) in this transaction.
    pub fn execute(&self, sql: &str) -> Result<(), Error> {
        self.session().connection.client().batch_execute(sql).map_err(postgres_error)
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        if self.open.load(std::sync::atomic::Ordering::Relaxed) {
            // A connection left inside a transaction would hand the next user its snapshot
            // (or the writer's lock): roll back, and if even that fails, the pool drops it.
            if self.session().connection.client().batch_execute("ROLLBACK").is_err() {
                tracing::warn!("rolling back a transaction failed; its connection is closed");
            }
        }
    }
}

pub fn postgres_error(e: postgres::Error) -> Error {
    Error::Postgres(e.to_string())
}
