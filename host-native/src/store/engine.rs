//! The engine seam: the table operations the rest of `store/` uses, so that none of it names
//! redb's table traits and a second engine (PostgreSQL, issue 19) can sit under the same
//! `view.rs` and `apply.rs`.
//!
//! A table is typed by its key and value as redb types them (`u64`, `(u64, &str)`,
//! `&[u8]`, ...): redb's `Key` and `Value` traits are the codec of keys and values whatever the
//! engine, so a row reads back as the same Rust value from either. A second engine must order
//! keys as redb compares them (`Key::compare`: tuples element by element, integers by value),
//! which the bytes of `Key::as_bytes` compared plainly do not give (integers are little-endian).
//!
//! Each type is an enum with one variant per engine: redb, and PostgreSQL (`pg/`). An enum
//! rather than a trait object or a generic parameter: the callers (and `ReadTables`/
//! `WriteTables`, named by the HTTP routes and the writer) keep one concrete type whatever the
//! engine, and each operation is a `match` the branch predictor settles at once: no boxing,
//! no dynamic call on the hot paths.

use std::borrow::Borrow;
use std::marker::PhantomData;
use std::ops::RangeBounds;
use std::sync::Arc;

use redb::{Key, ReadableTable as _, ReadableTableMetadata as _, TableHandle as _, Value};

use super::pg::keys::OrderedKey;
use super::pg::table::{PgRange, PgTable};

/// A table opened in a read transaction (a snapshot).
pub enum Table<K: Key + 'static, V: Value + 'static> {
    Redb(redb::ReadOnlyTable<K, V>),
    Postgres(PgTable<K, V>),
}

/// A table opened in the writer's transaction: readable like [`Table`], and writable.
pub enum TableMut<'txn, K: Key + 'static, V: Value + 'static> {
    Redb(redb::Table<'txn, K, V>),
    Postgres(PgTable<K, V>, PhantomData<&'txn ()>),
}

/// A key or value read from a table, borrowed from the engine's buffer for as long as it lives
/// (redb), or owned (PostgreSQL: redb's bytes of it).
pub enum Guard<'a, T: Value + 'static> {
    Redb(redb::AccessGuard<'a, T>),
    Owned(Vec<u8>, PhantomData<&'a T>),
}

/// Rows in key order, from either end: a range or a whole table.
pub enum Range<'a, K: Key + 'static, V: Value + 'static> {
    Redb(redb::Range<'a, K, V>),
    Postgres(PgRange<K, V>, PhantomData<&'a ()>),
}

/// A row: its key and its value.
pub type Entry<'a, K, V> = (Guard<'a, K>, Guard<'a, V>);

/// The writer's transaction.
// One lives at a time, on the writer's stack: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum WriteTxn {
    Redb(redb::WriteTransaction),
    Postgres(Arc<super::pg::Transaction>),
}

impl WriteTxn {
    /// Makes the transaction's changes visible (and, on PostgreSQL, durable).
    pub fn commit(self) -> Result<(), Error> {
        match self {
            WriteTxn::Redb(txn) => Ok(txn.commit()?),
            WriteTxn::Postgres(txn) => txn.commit(),
        }
    }

    /// How redb makes this commit durable; PostgreSQL always flushes (`synchronous_commit`).
    pub fn set_durability(&mut self, durability: redb::Durability) -> Result<(), Error> {
        match self {
            WriteTxn::Redb(txn) => {
                txn.set_durability(durability).map_err(|e| Error::Redb(redb::Error::from(e)))
            }
            WriteTxn::Postgres(_) => Ok(()),
        }
    }

    /// Drops the transaction's changes.
    pub fn abort(self) {
        match self {
            WriteTxn::Redb(txn) => {
                if let Err(e) = txn.abort() {
                    tracing::warn!("aborting a write transaction: {e}");
                }
            }
            // Rolled back when dropped.
            WriteTxn::Postgres(txn) => drop(txn),
        }
    }
}

/// Why the engine could not read or write a table.
#[derive(Debug)]
pub enum Error {
    Redb(redb::Error),
    Postgres(String),
}

/// The operations on a table that a read transaction and the writer share.
macro_rules! read_operations {
    () => {
        /// The value stored under `key`.
        #[inline]
        pub fn get<'k>(&self, key: impl Borrow<K::SelfType<'k>>) -> Result<Option<Guard<'_, V>>, Error> {
            match self {
                Self::Redb(table) => Ok(table.get(key)?.map(Guard::Redb)),
                Self::Postgres(table, ..) => Ok(table.get(key.borrow())?.map(Guard::owned)),
            }
        }

        /// The rows whose keys are in `range`, in key order (`.rev()` for the other way).
        #[inline]
        pub fn range<'k, KR>(&self, range: impl RangeBounds<KR> + 'k) -> Result<Range<'_, K, V>, Error>
        where
            KR: Borrow<K::SelfType<'k>> + 'k,
        {
            match self {
                Self::Redb(table) => Ok(Range::Redb(table.range(range)?)),
                Self::Postgres(table, ..) => {
                    let (low, high) = (range.start_bound(), range.end_bound());
                    let rows = table.range(low.map(|k| k.borrow()), high.map(|k| k.borrow()));
                    Ok(Range::Postgres(rows, PhantomData))
                }
            }
        }

        /// Every row, in key order.
        #[inline]
        pub fn iter(&self) -> Result<Range<'_, K, V>, Error> {
            match self {
                Self::Redb(table) => Ok(Range::Redb(table.iter()?)),
                Self::Postgres(table, ..) => {
                    let rows = table.range(std::ops::Bound::Unbounded, std::ops::Bound::Unbounded);
                    Ok(Range::Postgres(rows, PhantomData))
                }
            }
        }

        /// Reads the rows under `keys` together, for the gets that follow: on PostgreSQL one
        /// statement instead of a round trip each; nothing on redb, whose reads are memory.
        pub fn prefetch(&self, keys: &[K::SelfType<'_>]) -> Result<(), Error> {
            match self {
                Self::Redb(_) => Ok(()),
                Self::Postgres(table, ..) => table.prefetch(keys),
            }
        }

        /// Reads the rows of each range `low..=high` together, for the ranges that follow (as
        /// [`Self::prefetch`]).
        pub fn prefetch_ranges(&self, ranges: &[(K::SelfType<'_>, K::SelfType<'_>)]) -> Result<(), Error> {
            match self {
                Self::Redb(_) => Ok(()),
                Self::Postgres(table, ..) => table.prefetch_ranges(ranges),
            }
        }

        /// How many rows the table holds.
        pub fn row_count(&self) -> Result<u64, Error> {
            match self {
                Self::Redb(table) => Ok(table.len()?),
                Self::Postgres(table, ..) => table.row_count(),
            }
        }

        /// The table's name, as [`super::tables`] defines it.
        pub fn name(&self) -> &str {
            match self {
                Self::Redb(table) => table.name(),
                Self::Postgres(table, ..) => table.name(),
            }
        }
    };
}

impl<K: OrderedKey, V: Value + 'static> Table<K, V> {
    read_operations!();
}

impl<K: OrderedKey, V: Value + 'static> TableMut<'_, K, V> {
    read_operations!();

    /// Stores `value` under `key`, replacing what was there.
    #[inline]
    pub fn insert<'k, 'v>(
        &mut self,
        key: impl Borrow<K::SelfType<'k>>,
        value: impl Borrow<V::SelfType<'v>>,
    ) -> Result<(), Error> {
        match self {
            Self::Redb(table) => {
                table.insert(key, value)?;
            }
            Self::Postgres(table, _) => table.insert(key.borrow(), value.borrow())?,
        }
        Ok(())
    }

    /// Stores rows given as redb's bytes of their keys and values (what [`Guard`]s of another
    /// store's table hold), many at once: how a migration copies a table between engines.
    pub fn insert_many(&mut self, rows: &[(Vec<u8>, Vec<u8>)]) -> Result<(), Error> {
        match self {
            Self::Redb(table) => {
                for (key, value) in rows {
                    table.insert(K::from_bytes(key), V::from_bytes(value))?;
                }
                Ok(())
            }
            Self::Postgres(table, _) => table.insert_many(rows),
        }
    }

    /// Removes the row under `key`; returns the value it held, if there was one.
    #[inline]
    pub fn remove<'k>(&mut self, key: impl Borrow<K::SelfType<'k>>) -> Result<Option<Guard<'_, V>>, Error> {
        match self {
            Self::Redb(table) => Ok(table.remove(key)?.map(Guard::Redb)),
            Self::Postgres(table, _) => Ok(table.remove(key.borrow())?.map(Guard::owned)),
        }
    }

    /// Keeps only the rows `keep` says to. Only tests use it, to make a file look older.
    #[cfg(test)]
    pub fn retain(
        &mut self,
        keep: impl for<'f> FnMut(K::SelfType<'f>, V::SelfType<'f>) -> bool,
    ) -> Result<(), Error> {
        match self {
            Self::Redb(table) => Ok(table.retain(keep)?),
            Self::Postgres(table, _) => {
                let mut keep = keep;
                for ordered in table.keys()? {
                    let key = PgRange::<K, V>::redb_key(&ordered)?;
                    let value = table.get(&K::from_bytes(&key))?.unwrap_or_default();
                    if !keep(K::from_bytes(&key), V::from_bytes(&value)) {
                        table.remove_ordered(&ordered)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl<T: Value + 'static> Guard<'_, T> {
    /// The key or value, decoded by its type (a borrowed slice or string where it is one).
    #[inline]
    pub fn value(&self) -> T::SelfType<'_> {
        match self {
            Guard::Redb(guard) => guard.value(),
            Guard::Owned(bytes, _) => T::from_bytes(bytes),
        }
    }

    fn owned(bytes: Vec<u8>) -> Self {
        Guard::Owned(bytes, PhantomData)
    }
}

impl<'a, K: OrderedKey, V: Value + 'static> Iterator for Range<'a, K, V> {
    type Item = Result<Entry<'a, K, V>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Range::Redb(rows) => rows.next().map(redb_entry),
            Range::Postgres(rows, _) => rows.next_row().map(owned_entry::<K, V>),
        }
    }
}

impl<K: OrderedKey, V: Value + 'static> DoubleEndedIterator for Range<'_, K, V> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Range::Redb(rows) => rows.next_back().map(redb_entry),
            Range::Postgres(rows, _) => rows.next_row_back().map(owned_entry::<K, V>),
        }
    }
}

/// A PostgreSQL row as an entry: its key turned back into redb's bytes.
fn owned_entry<'a, K: OrderedKey, V: Value + 'static>(
    row: Result<(Vec<u8>, Vec<u8>), Error>,
) -> Result<Entry<'a, K, V>, Error> {
    let (key, value) = row?;
    Ok((Guard::owned(PgRange::<K, V>::redb_key(&key)?), Guard::owned(value)))
}

type RedbEntry<'a, K, V> = (redb::AccessGuard<'a, K>, redb::AccessGuard<'a, V>);

#[inline]
fn redb_entry<'a, K: Key + 'static, V: Value + 'static>(
    row: Result<RedbEntry<'a, K, V>, redb::StorageError>,
) -> Result<Entry<'a, K, V>, Error> {
    let (key, value) = row?;
    Ok((Guard::Redb(key), Guard::Redb(value)))
}

macro_rules! from_redb {
    ($($error:ty),*) => {$(
        impl From<$error> for Error {
            #[inline]
            fn from(e: $error) -> Error {
                Error::Redb(e.into())
            }
        }
    )*};
}

from_redb!(redb::StorageError, redb::TableError, redb::CommitError, redb::TransactionError);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Redb(e) => e.fmt(f),
            Error::Postgres(e) => write!(f, "PostgreSQL: {e}"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    /// redb's table API, which only this file may name: an engine's changes are here, in its
    /// own directory (`pg/`) and where tables are opened (`tables.rs`), nowhere else in `store/`.
    const REDB_TABLE_API: &[&str] =
        &["ReadableTable", "ReadOnlyTable", "AccessGuard", "redb::Table<", "redb::Range"];

    #[test]
    fn only_the_seam_names_redbs_table_api() {
        let store = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/store"));
        let mut read = 0;
        let mut dirs = vec![store.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for file in std::fs::read_dir(dir).expect("the store's sources") {
                let path = file.expect("a directory entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                if path.file_name().is_some_and(|name| name == "engine.rs") {
                    continue;
                }
                let source = std::fs::read_to_string(&path).expect("a source file");
                read += 1;
                for name in REDB_TABLE_API {
                    assert!(
                        !source.contains(name),
                        "{} names {name}: go through store::engine",
                        path.display()
                    );
                }
            }
        }
        assert!(read >= 12, "the store's files were read ({read})");
    }
}
