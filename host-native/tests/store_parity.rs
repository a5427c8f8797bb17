//! The server's store and the browser's `MemoryStore` are one store in two layouts: the server
//! keeps an index table per question, the memory store answers by filtering. Nothing else ties
//! the two together, so this property does, in the manner of redb's own fuzzer (which checks
//! redb against a `BTreeMap`): a random history of `Change`s, applied to both, must leave them
//! answering every `Store` read identically. The server's store runs on each engine: redb,
//! and PostgreSQL (a scratch server this test process starts).

mod parity;

use confab_core::ids::{MessageId, UserId};
use confab_core::memory::MemoryStore;
use confab_core::model::MessageFlags;
use confab_core::store::Change;
use confab_server::scratch_postgres;
use confab_server::store::{Store, WriteTables, commit};
use proptest::prelude::*;

use parity::ops::{Op, op};
use parity::reads::differences;
use parity::script::{changes, seed};

/// The first few differences, for a failure message that stays readable.
fn report(when: &str, found: &[String]) -> String {
    let shown: Vec<&str> = found.iter().take(5).map(String::as_str).collect();
    format!("{} reads differ {when}; the first:\n{}", found.len(), shown.join("\n"))
}

/// Which engine the server's store runs on.
#[derive(Clone, Copy)]
enum Engine {
    Redb,
    Postgres,
}

/// A new, empty store on `engine`, and the directory it lives in (redb) while it is kept.
fn open(engine: Engine) -> Result<(Option<tempfile::TempDir>, Store), String> {
    match engine {
        Engine::Redb => {
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let store = Store::open(dir.path()).map_err(|e| e.to_string())?;
            Ok((Some(dir), store))
        }
        Engine::Postgres => {
            let url = scratch_postgres::shared()?.new_database()?;
            Ok((None, Store::open_postgres(&url).map_err(|e| e.to_string())?))
        }
    }
}

/// Applies a batch of changes to the store in one write transaction, as the writer does for a batch
/// of commands, each as the write-ahead log gives it back after a crash (through JSON), so the
/// log's encoding cannot lose a field the store needs. Before committing, the writer's own view of its transaction must already agree
/// with the memory store, when asked to (`check_writer`).
fn write_batch(
    redb: &Store,
    batch: &[Change],
    memory: &MemoryStore,
    check_writer: bool,
) -> Result<(), String> {
    let txn = redb.begin_write().map_err(|e| format!("begin_write: {e:?}"))?;
    {
        let mut tables = WriteTables::open(&txn).map_err(|e| format!("open tables: {e}"))?;
        for change in batch {
            let logged = serde_json::to_vec(change).map_err(|e| format!("encoding {change:?}: {e}"))?;
            let replayed: Change =
                serde_json::from_slice(&logged).map_err(|e| format!("decoding {change:?}: {e}"))?;
            if replayed != *change {
                return Err(format!("{change:?} comes back from JSON as {replayed:?}"));
            }
            tables.apply(&replayed).map_err(|e| format!("redb refused {change:?}: {e:?}"))?;
        }
        if check_writer {
            let found = differences(memory, &tables);
            if !found.is_empty() {
                return Err(report("in the writer's transaction", &found));
            }
        }
    }
    commit(txn).map_err(|e| format!("commit: {e:?}"))
}

/// Runs a history against both stores, comparing every read after each commit. `then` are
/// changes written as they are after the history, in its last transaction.
fn run(engine: Engine, ops: &[Op], then: &[Change]) -> Result<(), String> {
    let (_dir, redb) = open(engine)?;
    let mut memory = MemoryStore::new();
    let mut batch = seed();
    memory.apply_all(&batch);
    let mut now = 2_000;
    for (step, op) in ops.iter().enumerate() {
        if let Op::Commit = op {
            write_batch(&redb, &std::mem::take(&mut batch), &memory, false)?;
            let found = redb.read(|tables| Ok(differences(&memory, tables))).map_err(|e| format!("{e:?}"))?;
            if !found.is_empty() {
                return Err(report(&format!("after the commit at step {step}"), &found));
            }
            continue;
        }
        now += 1;
        // The memory store takes each change at once: the next operation reads it, as the next
        // command in a batch reads the writer's uncommitted changes.
        let written = changes(&memory, op, now);
        memory.apply_all(&written);
        batch.extend(written);
    }
    memory.apply_all(then);
    batch.extend_from_slice(then);
    write_batch(&redb, &batch, &memory, true)?;
    let found = redb.read(|tables| Ok(differences(&memory, tables))).map_err(|e| format!("{e:?}"))?;
    if found.is_empty() { Ok(()) } else { Err(report("at the end", &found)) }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn redb_and_the_memory_store_answer_every_read_alike(ops in proptest::collection::vec(op(), 1..40)) {
        run(Engine::Redb, &ops, &[]).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn postgresql_and_the_memory_store_answer_every_read_alike(ops in proptest::collection::vec(op(), 1..40)) {
        run(Engine::Postgres, &ops, &[]).map_err(TestCaseError::fail)?;
    }
}

/// `SetMessageFlags` gives a user a row for a message they never received, and that row is
/// theirs like any other: for a direct message, it is in the user's conversation.
#[test]
fn a_row_set_on_a_direct_message_files_it_under_the_conversation() {
    // Olive (user 1) writes the first message to Notification Bot (user 2), who then loses the
    // row and gets one again.
    let send = Op::SendDirect { sender: 0, others: 0b10, content: 0, flags: 0, origin: None };
    let (bot, message) = (UserId(2), MessageId(1));
    let regained = MessageFlags::READ.with(MessageFlags::IS_PRIVATE);
    let then = [
        Change::DeleteMessageFlags { user: bot, message },
        Change::SetMessageFlags { user: bot, message, flags: regained },
    ];
    for engine in [Engine::Redb, Engine::Postgres] {
        assert_eq!(run(engine, std::slice::from_ref(&send), &then), Ok(()));
    }
}
