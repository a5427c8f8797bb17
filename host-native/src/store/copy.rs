//! Copying a snapshot into a new database file: what `confab backup` writes.
//!
//! Every table is read from one read transaction (so the copy is one consistent moment, redb's
//! MVCC letting the writer go on meanwhile) and written into the new file in transactions of
//! at most [`CHUNK_BYTES`], so memory stays flat whatever a table's size. The new file's commits
//! are unsynced until the last one, which makes them all durable. Which tables there are comes
//! from `define_tables!` (`ReadTables::copy_into`), so a new table is never left out.
//!
//! The snapshot is read through the engine seam; the copy is a redb file whatever the engine
//! (a backup is restored by putting it in place as `confab.redb`), so it is written with redb.

use redb::{Database, Durability, TableDefinition, TableHandle, Value};

use super::engine::Table;
use super::pg::keys::OrderedKey;
use crate::backups::Progress;

/// Keys and values written per transaction of the copy.
const CHUNK_BYTES: usize = 16 * 1024 * 1024;

/// Copies one table; returns its row count.
pub(super) fn table<K: OrderedKey, V: Value + 'static>(
    from: &Table<K, V>,
    to: &Database,
    definition: TableDefinition<K, V>,
    progress: &mut Progress,
) -> Result<u64, String> {
    let name = definition.name().to_owned();
    let failed = |e: &dyn std::fmt::Display| format!("copying table {name}: {e}");
    let mut rows = from.iter().map_err(|e| failed(&e))?;
    let mut copied = 0u64;
    loop {
        let mut txn = to.begin_write().map_err(|e| failed(&e))?;
        txn.set_durability(Durability::None).map_err(|e| failed(&e))?;
        let mut bytes = 0;
        let mut finished = true;
        {
            // Opened even when empty: the copy has every table.
            let mut table = txn.open_table(definition).map_err(|e| failed(&e))?;
            for row in rows.by_ref() {
                let (key, value) = row.map_err(|e| failed(&e))?;
                let (key, value) = (key.value(), value.value());
                bytes += K::as_bytes(&key).as_ref().len() + V::as_bytes(&value).as_ref().len();
                table.insert(key, value).map_err(|e| failed(&e))?;
                copied += 1;
                if bytes >= CHUNK_BYTES {
                    finished = false;
                    break;
                }
            }
        }
        txn.commit().map_err(|e| failed(&e))?;
        if finished {
            return Ok(copied);
        }
        progress.count(|| format!("  {name}: {copied} rows so far"))?;
    }
}

/// Makes every commit of the copy durable.
pub(super) fn finish(to: &Database) -> Result<(), String> {
    let mut txn = to.begin_write().map_err(|e| e.to_string())?;
    txn.set_durability(Durability::Immediate).map_err(|e| e.to_string())?;
    txn.set_quick_repair(true);
    txn.commit().map_err(|e| e.to_string())
}
