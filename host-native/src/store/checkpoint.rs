//! How the writer's batches become durable: logged, then checkpointed.
//!
//! Each batch gets the next sequence number, written into its own transaction (`meta`'s
//! `log_sequence`), so redb always knows the last batch it holds. The batch's changes are
//! appended to the write-ahead log and synced; then redb commits without syncing, and readers
//! see the batch. A checkpoint is a durable redb commit (every earlier unsynced commit goes to
//! disk with it), after which the log is emptied. Opening the store replays the logged batches
//! whose sequence is past redb's `log_sequence`: exactly the ones a crash kept from redb.

use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use confab_core::store::Change;
use confab_core::{ApiError, ApiResult};
use redb::Durability;

use super::engine::WriteTxn;
use super::log::{Log, Record};
use super::tables::{WriteTables, open_meta};
use super::view::storage;
use super::{Engine, OpenError, Store};

/// The `meta` key of the last batch redb holds.
const LOG_SEQUENCE: &str = "log_sequence";

/// A checkpoint is taken once the oldest unsynced batch is this old. Longer lets more batches
/// share the pages a checkpoint writes; it also lengthens the one batch that takes it, and the
/// replay after a crash.
pub const CHECKPOINT_INTERVAL: Duration = Duration::from_secs(1);

/// ... or once the log holds this much, whatever the time: bounds the replay.
const CHECKPOINT_LOG_BYTES: u64 = 64 * 1024 * 1024;

/// The writer's side of the log.
pub(super) struct Logged {
    log: Log,
    /// The last batch's sequence number.
    sequence: u64,
    /// When the oldest batch not yet checkpointed committed; `None` when redb is durable.
    unsynced_since: Option<Instant>,
    /// Set when a batch reached the log but not redb, and could not be taken back out: later
    /// batches would be logged after it without its changes, so none is accepted.
    broken: bool,
}

impl Logged {
    fn checkpoint_due(&self) -> bool {
        self.log.bytes() >= CHECKPOINT_LOG_BYTES
            || self.unsynced_since.is_some_and(|since| since.elapsed() >= CHECKPOINT_INTERVAL)
    }
}

impl Store {
    /// Opens the log and replays into redb what it holds past redb's last batch, durably, then
    /// empties it.
    pub(super) fn recover(db: &redb::Database, data_dir: &std::path::Path) -> Result<Logged, OpenError> {
        let other = |e: &dyn std::fmt::Display| OpenError::Other(format!("the write-ahead log: {e}"));
        let (mut log, records) = Log::open(data_dir).map_err(|e| other(&e))?;
        // With quick repair, like every write: a crash right after the replay needs no repair.
        let txn = super::begin_write(db).map_err(|e| other(&e.msg))?;
        let mut sequence;
        let mut replayed = 0;
        {
            let mut tables = WriteTables::open(&txn).map_err(|e| other(&e))?;
            sequence = tables.meta.get(LOG_SEQUENCE).map_err(|e| other(&e))?.map_or(0, |v| v.value());
            for Record { sequence: logged, changes } in records {
                if logged <= sequence {
                    continue;
                }
                for change in &changes {
                    tables
                        .apply(change)
                        .map_err(|e| other(&format!("replaying batch {logged}: {}", e.msg)))?;
                }
                sequence = logged;
                replayed += 1;
            }
            tables.meta.insert(LOG_SEQUENCE, sequence).map_err(|e| other(&e))?;
        }
        if replayed > 0 {
            tracing::warn!(
                "replayed {replayed} batches from the write-ahead log: the last stop was not clean"
            );
        }
        txn.commit().map_err(|e| other(&e))?;
        log.cut().map_err(|e| other(&e))?;
        Ok(Logged { log, sequence, unsynced_since: None, broken: false })
    }

    /// The log; `None` on PostgreSQL, which has its own.
    fn logged(&self) -> Option<MutexGuard<'_, Logged>> {
        match &self.engine {
            Engine::Redb { log, .. } => Some(log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())),
            Engine::Postgres(_) => None,
        }
    }

    /// Commits the writer's batch, whose changes are `changes`: durable when this returns, as a
    /// record in the log or (when a checkpoint is due) in redb itself; on PostgreSQL, by its
    /// commit.
    pub fn commit_logged(&self, txn: WriteTxn, changes: &[&Change]) -> ApiResult<()> {
        let Some(mut logged) = self.logged() else {
            return super::commit(txn);
        };
        let mut txn = txn;
        if logged.broken {
            return Err(ApiError::internal("the write-ahead log failed; restart the server to recover"));
        }
        let sequence = logged.sequence + 1;
        record_sequence(&txn, sequence)?;
        if logged.checkpoint_due() {
            // This batch goes to redb durably, and every unsynced one before it: the log is spent.
            txn.set_durability(Durability::Immediate).map_err(storage)?;
            let started = Instant::now();
            txn.commit().map_err(|e| ApiError::internal(format!("commit: {e}")))?;
            logged.sequence = sequence;
            cut(&mut logged, started);
            return Ok(());
        }
        let before = logged.log.bytes();
        if let Err(e) = logged.log.append(sequence, changes) {
            return Err(ApiError::internal(format!("the write-ahead log: {e}")));
        }
        let committed = txn
            .set_durability(Durability::None)
            .map_err(storage)
            .and_then(|()| txn.commit().map_err(|e| ApiError::internal(format!("commit: {e}"))));
        if let Err(e) = committed {
            // The batch is logged but not in redb. A replay must not apply it under batches that
            // were decided without it.
            if let Err(undo) = logged.log.truncate(before) {
                tracing::error!("the write-ahead log holds a batch redb refused, and cannot drop it: {undo}");
                logged.broken = true;
            }
            return Err(e);
        }
        logged.sequence = sequence;
        logged.unsynced_since.get_or_insert_with(Instant::now);
        Ok(())
    }

    /// Makes every committed batch durable in redb and empties the log, if anything is unsynced.
    pub fn checkpoint(&self) -> ApiResult<()> {
        let Some(mut logged) = self.logged() else {
            return Ok(());
        };
        if logged.unsynced_since.is_none() || logged.broken {
            return Ok(());
        }
        let mut txn = self.begin_write()?;
        txn.set_durability(Durability::Immediate).map_err(storage)?;
        record_sequence(&txn, logged.sequence)?;
        let started = Instant::now();
        txn.commit().map_err(|e| ApiError::internal(format!("checkpoint: {e}")))?;
        cut(&mut logged, started);
        Ok(())
    }

    /// How long until a checkpoint is due, if one will be: the writer waits no longer than this
    /// for its next command.
    pub fn checkpoint_in(&self) -> Option<Duration> {
        let since = self.logged()?.unsynced_since?;
        Some(CHECKPOINT_INTERVAL.saturating_sub(since.elapsed()))
    }
}

/// Writes the batch's sequence number into its transaction.
fn record_sequence(txn: &WriteTxn, sequence: u64) -> ApiResult<()> {
    let mut meta = open_meta(txn).map_err(storage)?;
    meta.insert(LOG_SEQUENCE, sequence).map_err(storage)?;
    Ok(())
}

/// Empties the log after a durable commit begun at `started`. Failing to is no loss: its
/// records are all at or below redb's `log_sequence` now, and a replay skips them.
fn cut(logged: &mut Logged, started: Instant) {
    tracing::debug!(
        "checkpoint: {} ms, {} KB of log",
        started.elapsed().as_millis(),
        logged.log.bytes() / 1024
    );
    logged.unsynced_since = None;
    if let Err(e) = logged.log.cut() {
        tracing::warn!("could not empty the write-ahead log after a checkpoint: {e}");
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use confab_core::ids::UserId;
    use confab_core::store::Store as _;

    use super::super::log::LOG_FILE;
    use super::super::{DB_FILE, Store};
    use super::*;

    fn alert(n: u64) -> Change {
        Change::PutAlertWords(UserId(n), vec![format!("word {n}")])
    }

    /// Commits one batch as the writer does.
    fn commit_batch(store: &Store, changes: &[Change]) {
        let txn = store.begin_write().expect("a transaction");
        {
            let mut tables = WriteTables::open(&txn).expect("tables");
            for change in changes {
                tables.apply(change).expect("applied");
            }
        }
        store.commit_logged(txn, &changes.iter().collect::<Vec<_>>()).expect("committed");
    }

    /// The files as they are at this moment are what a power cut would leave: redb's last
    /// durable commit (and whatever unsynced pages happened to reach the file) and the log.
    fn crash_copy(from: &Path) -> tempfile::TempDir {
        let to = tempfile::tempdir().expect("a directory");
        for file in [DB_FILE, LOG_FILE] {
            std::fs::copy(from.join(file), to.path().join(file)).expect("copied");
        }
        to
    }

    fn words(store: &Store, user: u64) -> Vec<String> {
        store.read(|t| t.alert_words(UserId(user))).expect("read")
    }

    #[test]
    fn batches_committed_since_the_last_checkpoint_come_back_from_the_log_after_a_crash() {
        let dir = tempfile::tempdir().expect("a directory");
        let store = Store::open(dir.path()).expect("a store");
        commit_batch(&store, &[alert(1), alert(2)]);
        commit_batch(&store, &[alert(3)]);
        assert!(store.checkpoint_in().is_some(), "redb holds unsynced batches");
        let crashed = crash_copy(dir.path());
        let without_log = crash_copy(dir.path());
        std::fs::remove_file(without_log.path().join(LOG_FILE)).expect("removed");
        assert!(
            words(&Store::open(without_log.path()).expect("opened"), 3).is_empty(),
            "redb alone lost them"
        );
        let recovered = Store::open(crashed.path()).expect("recovered");
        for user in 1..=3 {
            assert_eq!(words(&recovered, user), [format!("word {user}")]);
        }
        assert_eq!(std::fs::metadata(crashed.path().join(LOG_FILE)).expect("the log").len(), 0);
        // The replay was made durable: a second crash right after it needs no log.
        let again = crash_copy(crashed.path());
        assert_eq!(words(&Store::open(again.path()).expect("reopened"), 3), ["word 3"]);
    }

    #[test]
    fn a_checkpoint_makes_redb_durable_and_empties_the_log() {
        let dir = tempfile::tempdir().expect("a directory");
        let store = Store::open(dir.path()).expect("a store");
        commit_batch(&store, &[alert(1)]);
        store.checkpoint().expect("checkpointed");
        assert_eq!(store.checkpoint_in(), None);
        assert_eq!(std::fs::metadata(dir.path().join(LOG_FILE)).expect("the log").len(), 0);
        let crashed = crash_copy(dir.path());
        assert_eq!(words(&Store::open(crashed.path()).expect("reopened"), 1), ["word 1"]);
    }

    /// A crash between a checkpoint's commit and emptying the log leaves records redb already
    /// holds; replaying them again would apply a batch twice.
    #[test]
    fn records_redb_already_holds_are_not_replayed() {
        let dir = tempfile::tempdir().expect("a directory");
        let store = Store::open(dir.path()).expect("a store");
        commit_batch(&store, &[Change::PutAlertWords(UserId(1), vec!["old".into()])]);
        let stale_log = std::fs::read(dir.path().join(LOG_FILE)).expect("the log");
        commit_batch(&store, &[Change::PutAlertWords(UserId(1), vec!["new".into()])]);
        store.checkpoint().expect("checkpointed");
        let crashed = crash_copy(dir.path());
        std::fs::write(crashed.path().join(LOG_FILE), stale_log).expect("the stale log");
        assert_eq!(words(&Store::open(crashed.path()).expect("reopened"), 1), ["new"]);
    }

    #[test]
    fn a_clean_close_leaves_nothing_to_replay() {
        let dir = tempfile::tempdir().expect("a directory");
        let store = Store::open(dir.path()).expect("a store");
        commit_batch(&store, &[alert(1)]);
        store.close().expect("closed");
        assert_eq!(std::fs::metadata(dir.path().join(LOG_FILE)).expect("the log").len(), 0);
        assert_eq!(words(&Store::open(dir.path()).expect("reopened"), 1), ["word 1"]);
    }
}
