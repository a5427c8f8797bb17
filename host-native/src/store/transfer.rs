//! Copying every table of one store into another, whatever their engines: what `confab
//! migrate` does (redb to PostgreSQL and back).
//!
//! The source is read from one snapshot (one redb read transaction, or one PostgreSQL
//! `REPEATABLE READ` transaction), so the copy is one consistent moment. The target is written
//! through the engine seam in transactions of at most [`CHUNK_BYTES`] or [`CHUNK_ROWS`], so
//! memory stays flat whatever a table's size, and each chunk reaches PostgreSQL as one
//! statement (a round trip per row would make millions of rows take many minutes). Which
//! tables there are comes from `define_tables!` (`ReadTables::copy_to`), so a new table is
//! never left out.

use redb::Value;

use super::Store;
use super::engine::Table;
use super::pg::keys::OrderedKey;
use super::tables;
use crate::backups::Progress;

/// Keys and values written per transaction of the copy (as a backup's, `copy.rs`).
const CHUNK_BYTES: usize = 16 * 1024 * 1024;

/// Rows written per transaction at most: index rows are a few bytes each, and a chunk is
/// one statement's arrays on PostgreSQL.
const CHUNK_ROWS: usize = 50_000;

/// Copies one table into `to`, whose table of the same name is empty (or, for `meta`, holds
/// what opening wrote, which the source's rows replace); returns its row count.
pub(super) fn table<K: OrderedKey, V: Value + 'static>(
    from: &Table<K, V>,
    to: &Store,
    definition: redb::TableDefinition<'static, K, V>,
    name: &'static str,
    progress: &mut Progress,
) -> Result<u64, String> {
    let failed = |e: &dyn std::fmt::Display| format!("copying table {name}: {e}");
    let mut rows = from.iter().map_err(|e| failed(&e))?;
    let mut copied = 0u64;
    let mut chunk: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    loop {
        chunk.clear();
        let mut bytes = 0;
        for row in rows.by_ref() {
            let (key, value) = row.map_err(|e| failed(&e))?;
            let key = K::as_bytes(&key.value()).as_ref().to_vec();
            let value = V::as_bytes(&value.value()).as_ref().to_vec();
            bytes += key.len() + value.len();
            chunk.push((key, value));
            if bytes >= CHUNK_BYTES || chunk.len() >= CHUNK_ROWS {
                break;
            }
        }
        if chunk.is_empty() {
            return Ok(copied);
        }
        let txn = to.begin_write().map_err(|e| failed(&e.msg))?;
        {
            let mut table = tables::open(&txn, definition, name).map_err(|e| failed(&e))?;
            table.insert_many(&chunk).map_err(|e| failed(&e))?;
        }
        txn.commit().map_err(|e| failed(&e))?;
        copied += chunk.len() as u64;
        progress.count(|| format!("  {name}: {copied} rows so far"))?;
    }
}
