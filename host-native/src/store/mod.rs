//! Storage: one redb file per data directory, or a PostgreSQL database (`pg/`).
//!
//! This module is the only place that knows tables (`tables`), record bytes (`codec`), how
//! core's reads map onto tables (`view`) and how core's changes become rows (`apply`).

mod apply;
mod checkpoint;
mod codec;
mod copy;
pub mod engine;
pub mod log;
mod migrations;
mod pg;
pub mod tables;
mod transfer;
pub mod verify;
mod view;

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use confab_core::ids::IdKind;
use confab_core::{ApiError, ApiResult};
use redb::{Database, ReadableDatabase, RepairSession};

pub use checkpoint::CHECKPOINT_INTERVAL;
pub use engine::WriteTxn;
pub use pg::events::Listener;
pub use tables::{ReadTables, WriteTables};

/// The table layout this build reads and writes. A new table needs no new version (opening
/// creates it empty, and an older build never opens it); a version marks rows to migrate.
pub const SCHEMA_VERSION: u64 = 3;

/// The database file inside a data directory.
pub const DB_FILE: &str = "confab.redb";

/// In the data directory of a server on PostgreSQL: says so, so that a command given the
/// directory alone refuses instead of starting an empty file beside it.
pub const POSTGRES_NOTE: &str = "data-in-postgresql.txt";

/// How much memory redb may use to cache the file's pages unless told otherwise (`--cache-size`).
pub const DEFAULT_CACHE_SIZE: usize = 64 * 1024 * 1024;

/// How to open the store.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Bytes of page cache (redb's own default is 1 GiB, which a large file fills).
    pub cache_size: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { cache_size: DEFAULT_CACHE_SIZE }
    }
}

/// Why the store could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Another process (a running server) has the file open; redb allows one process per file.
    InUse,
    /// The file was written by a newer Confab.
    TooNew(u64),
    Other(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::InUse => write!(
                f,
                "the database is in use by another process (is a Confab server running on this data directory?)"
            ),
            OpenError::TooNew(v) => write!(
                f,
                "the database has schema version {v}, newer than this Confab ({SCHEMA_VERSION}); upgrade Confab"
            ),
            OpenError::Other(e) => write!(f, "{e}"),
        }
    }
}

/// The open database.
pub struct Store {
    engine: Engine,
}

enum Engine {
    /// A redb file, with its write-ahead log.
    Redb { db: Database, log: Mutex<checkpoint::Logged> },
    /// A PostgreSQL database, which makes each commit durable itself. Boxed: its settings are
    /// most of its size.
    Postgres(Box<pg::Pool>),
}

impl Store {
    /// Opens or creates `DIR/confab.redb` with the default options.
    pub fn open(data_dir: &Path) -> Result<Store, OpenError> {
        Store::open_with(data_dir, Options::default())
    }

    /// Opens or creates `DIR/confab.redb`, creates missing tables, migrates the schema and
    /// replays the write-ahead log. A file that was not closed cleanly and has no allocator
    /// state saved (a crash of a build without quick repair) is repaired first, which reads all
    /// of it: the log says so, with progress, since a large file takes a while.
    pub fn open_with(data_dir: &Path, options: Options) -> Result<Store, OpenError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| OpenError::Other(format!("{}: {e}", data_dir.display())))?;
        let path = data_dir.join(DB_FILE);
        let repair_started: Rc<Cell<Option<Instant>>> = Rc::default();
        let started = repair_started.clone();
        let db = Database::builder()
            .set_cache_size(options.cache_size)
            .set_repair_callback(move |session: &mut RepairSession| {
                let since = started.get().unwrap_or_else(Instant::now);
                started.set(Some(since));
                tracing::warn!(
                    "repairing the database: it was not closed cleanly; {:.0}% done",
                    session.progress() * 100.0
                );
            })
            .create(&path)
            .map_err(|e| match e {
                redb::DatabaseError::DatabaseAlreadyOpen => OpenError::InUse,
                other => OpenError::Other(other.to_string()),
            })?;
        if let Some(since) = repair_started.get() {
            tracing::warn!("repaired the database in {} ms", since.elapsed().as_millis());
        }
        migrate(begin_write(&db).map_err(|e| OpenError::Other(e.msg))?)?;
        let log = Store::recover(&db, data_dir)?;
        Ok(Store { engine: Engine::Redb { db, log: Mutex::new(log) } })
    }

    /// Connects to a PostgreSQL database (a `postgres://` URL), creates missing tables and
    /// migrates the schema, as [`Store::open`] does for a file. Must not be called on an async
    /// worker thread (the client blocks).
    pub fn open_postgres(url: &str) -> Result<Store, OpenError> {
        Store::open_postgres_as(url, "confab")
    }

    /// As [`Store::open_postgres`], naming this server's sessions `application_name`.
    pub fn open_postgres_as(url: &str, application_name: &str) -> Result<Store, OpenError> {
        let pool = pg::Pool::connect(url, application_name).map_err(OpenError::Other)?;
        let txn = pool.begin_write().map_err(|e| OpenError::Other(e.to_string()))?;
        pg::create_tables(&txn, tables::TABLE_NAMES).map_err(|e| OpenError::Other(e.to_string()))?;
        migrate(WriteTxn::Postgres(Arc::new(txn)))?;
        Ok(Store { engine: Engine::Postgres(Box::new(pool)) })
    }

    /// Which of Confab's tables a PostgreSQL database holds, and each one's rows, without
    /// opening it as a store (which would create them).
    pub fn postgres_tables(url: &str) -> Result<Vec<(&'static str, u64)>, String> {
        pg::existing_tables(url, tables::TABLE_NAMES)
    }

    /// Checkpoints and closes the file cleanly, so the next open replays and repairs nothing.
    /// Dropping the store also closes it (redb then makes its unsynced commits durable), but
    /// says nothing of a failure.
    pub fn close(self) -> Result<(), String> {
        self.checkpoint().map_err(|e| e.msg)?;
        match self.engine {
            Engine::Redb { db, .. } => db.close().map_err(|e| e.to_string()),
            Engine::Postgres(_) => Ok(()),
        }
    }

    /// Runs `f` on a consistent snapshot, in parallel with the writer.
    pub fn read<T>(&self, f: impl FnOnce(&ReadTables) -> ApiResult<T>) -> ApiResult<T> {
        f(&self.snapshot()?)
    }

    /// A snapshot of everything committed so far, batches only logged included (redb holds
    /// them, unsynced), for as long as it is kept; the writer goes on meanwhile. A backup
    /// copies one.
    pub fn snapshot(&self) -> ApiResult<ReadTables> {
        match &self.engine {
            Engine::Redb { db, .. } => {
                let txn = db.begin_read().map_err(view::storage)?;
                ReadTables::open(&txn).map_err(view::storage)
            }
            Engine::Postgres(pool) => {
                Ok(ReadTables::open_postgres(&Arc::new(pool.begin_read().map_err(view::storage)?)))
            }
        }
    }

    /// Starts a write transaction; only the writer calls this.
    ///
    /// Every commit saves redb's allocator state (quick repair, with a two-phase commit), so
    /// that the open after a crash loads it instead of rebuilding it from the whole file: 15 ms
    /// rather than 1.9 s per 0.54 GB of history, at twice the fsyncs per commit (see
    /// ARCHITECTURE.md, "A crash costs no repair").
    pub fn begin_write(&self) -> ApiResult<WriteTxn> {
        match &self.engine {
            Engine::Redb { db, .. } => begin_write(db),
            Engine::Postgres(pool) => {
                Ok(WriteTxn::Postgres(Arc::new(pool.begin_write().map_err(view::storage)?)))
            }
        }
    }
}

/// Events between servers on one database (PostgreSQL; see `pg/events.rs`). On redb, one
/// server owns the file, and these share nothing.
impl Store {
    /// Whether other servers may write to this database, so that events must be shared.
    pub fn shares_events(&self) -> bool {
        matches!(self.engine, Engine::Postgres(_))
    }

    /// Records a batch's notifications (JSON) in the writer's transaction, for every server;
    /// returns their number, `None` on redb.
    pub fn publish_events(&self, txn: &WriteTxn, payload: &[u8]) -> ApiResult<Option<u64>> {
        match txn {
            WriteTxn::Redb(_) => Ok(None),
            WriteTxn::Postgres(txn) => pg::events::publish(txn, payload).map(Some).map_err(view::storage),
        }
    }

    /// Recorded batches after `cursor`, in order, at most `limit`.
    pub fn events_after(&self, cursor: u64, limit: i64) -> ApiResult<Vec<(u64, Vec<u8>)>> {
        match &self.engine {
            Engine::Redb { .. } => Ok(Vec::new()),
            Engine::Postgres(pool) => {
                let txn = pool.begin_read().map_err(view::storage)?;
                pg::events::after(&txn, cursor, limit).map_err(view::storage)
            }
        }
    }

    /// The last recorded batch's number (0 when none).
    pub fn last_event(&self) -> ApiResult<u64> {
        match &self.engine {
            Engine::Redb { .. } => Ok(0),
            Engine::Postgres(pool) => {
                let txn = pool.begin_read().map_err(view::storage)?;
                pg::events::last(&txn).map_err(view::storage)
            }
        }
    }

    /// Forgets the recorded batches older than `older_than` (the newest stays); how many went.
    pub fn prune_events(&self, older_than: std::time::Duration) -> ApiResult<u64> {
        match &self.engine {
            Engine::Redb { .. } => Ok(0),
            Engine::Postgres(pool) => {
                let txn = pool.begin_upkeep().map_err(view::storage)?;
                let seconds = i64::try_from(older_than.as_secs()).unwrap_or(i64::MAX);
                let pruned = pg::events::prune(&txn, seconds).map_err(view::storage)?;
                txn.commit().map_err(view::storage)?;
                Ok(pruned)
            }
        }
    }

    /// A connection that waits for other servers' batches; `None` on redb.
    pub fn listener(&self) -> ApiResult<Option<Listener>> {
        match &self.engine {
            Engine::Redb { .. } => Ok(None),
            Engine::Postgres(pool) => pool.listener().map(Some).map_err(view::storage),
        }
    }
}

/// A data directory's database opened only to be read (`confab verify`). Nothing is written:
/// the write-ahead log is not replayed, and a file that needs repair is refused.
pub struct ReadOnlyStore {
    db: redb::ReadOnlyDatabase,
}

impl ReadOnlyStore {
    pub fn open(data_dir: &Path) -> Result<ReadOnlyStore, OpenError> {
        let path = data_dir.join(DB_FILE);
        if !path.is_file() {
            return Err(OpenError::Other(format!("there is no database at {}", path.display())));
        }
        let db = Database::builder().set_cache_size(DEFAULT_CACHE_SIZE).open_read_only(&path).map_err(
            |e| match e {
                redb::DatabaseError::DatabaseAlreadyOpen => OpenError::InUse,
                redb::DatabaseError::RepairAborted => OpenError::Other(format!(
                    "{} was not closed cleanly: start and stop the server on it once (that repairs it), \
                     then verify again",
                    path.display()
                )),
                other => OpenError::Other(format!("{}: {other}", path.display())),
            },
        )?;
        Ok(ReadOnlyStore { db })
    }

    pub fn snapshot(&self) -> Result<ReadTables, String> {
        let txn = self.db.begin_read().map_err(|e| e.to_string())?;
        ReadTables::open(&txn).map_err(|e| e.to_string())
    }
}

fn begin_write(db: &Database) -> ApiResult<WriteTxn> {
    let mut txn = db.begin_write().map_err(view::storage)?;
    txn.set_quick_repair(true);
    Ok(WriteTxn::Redb(txn))
}

/// Creates missing tables (redb: by opening them) and brings an older layout up to this
/// build's, in `txn`.
fn migrate(txn: WriteTxn) -> Result<(), OpenError> {
    let other = |e: &dyn std::fmt::Display| OpenError::Other(e.to_string());
    {
        // Opening every table creates the missing ones.
        let mut tables = WriteTables::open(&txn).map_err(|e| other(&e))?;
        let version = tables.meta.get("schema_version").map_err(|e| other(&e))?.map(|v| v.value());
        match version {
            None => {
                tables.meta.insert("schema_version", SCHEMA_VERSION).map_err(|e| other(&e))?;
            }
            Some(v) if v > SCHEMA_VERSION => return Err(OpenError::TooNew(v)),
            // Migrations from older layouts, one step per version.
            Some(v) => {
                if v < 2 {
                    migrations::add_system_groups(&mut tables).map_err(|e| other(&e))?;
                }
                if v < 3 {
                    migrations::index_deactivated_users_and_topic_preferences(&mut tables)
                        .map_err(|e| other(&e))?;
                    migrations::sequence_presences(&mut tables).map_err(|e| other(&e))?;
                }
                tables.meta.insert("schema_version", SCHEMA_VERSION).map_err(|e| other(&e))?;
            }
        }
    }
    txn.commit().map_err(|e| other(&e))
}

impl ReadTables {
    /// Reads an id counter; ids start at 1.
    pub fn counter(&self, kind: IdKind) -> ApiResult<u64> {
        Ok(self.meta.get(apply::counter_key(kind).as_str()).map_err(view::storage)?.map_or(1, |v| v.value()))
    }
}

/// Commits a write transaction, mapping failure to an internal error.
pub fn commit(txn: WriteTxn) -> ApiResult<()> {
    txn.commit().map_err(|e| ApiError::internal(format!("commit: {e}")))
}

#[cfg(test)]
mod tests {
    use confab_core::api::realm::{NewRealm, create_realm};
    use confab_core::api::users::NewUser;
    use confab_core::model::Role;
    use confab_core::store::Store as _;

    use super::*;

    /// A version 2 file holds presences without organization or sequence number.
    #[test]
    fn version_2_presences_join_their_organizations_sequence() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let owner = {
            let store = Store::open(dir.path()).expect("a new store");
            let owner = NewUser {
                email: "owner@example.com".into(),
                full_name: "Owner".into(),
                role: Role::Owner,
                bot_type: None,
                bot_owner_id: None,
                api_key: "k".repeat(32),
                password_hash: None,
            };
            let txn = store.begin_write().expect("a transaction");
            let owner = {
                let mut tables = WriteTables::open(&txn).expect("tables");
                let new = NewRealm { subdomain: String::new(), name: "Old".into(), owner };
                for change in create_realm(&tables, new, 1_000).expect("a realm").changes {
                    tables.apply(&change).expect("applied");
                }
                let realm = tables.realm_by_subdomain("").expect("read").expect("the realm");
                let owner = tables.realm_users(realm).expect("users").into_iter().find(|u| u.is_admin());
                let owner = owner.expect("the owner").id;
                let old = codec::encode(&serde_json::json!({
                    "user_id": owner, "last_active_time": 900, "last_connected_time": 950,
                }))
                .expect("encoded");
                tables.presences.insert(owner.0, old.as_slice()).expect("an old presence");
                tables.meta.insert("schema_version", 2).expect("version 2");
                owner
            };
            commit(txn).expect("committed");
            owner
        };
        let store = Store::open(dir.path()).expect("migrated");
        let (presence, sequence) = store
            .read(|t| {
                let presence = t.presence(owner)?.expect("kept");
                Ok((presence, t.presence_sequence(presence.realm_id)?))
            })
            .expect("read");
        assert_eq!((presence.last_active_time, presence.last_connected_time), (900, 950));
        assert_eq!((presence.last_update_id, sequence), (1, 1));
        let version =
            store.read(|t| Ok(t.meta.get("schema_version").map_err(view::storage)?.map(|v| v.value())));
        assert_eq!(version.expect("read"), Some(SCHEMA_VERSION));
    }
}
