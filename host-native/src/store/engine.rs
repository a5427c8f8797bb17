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
//! Each type is an enum with one variant per engine, today `Redb` alone. An enum rather than a
//! trait object or a generic parameter: the callers (and `ReadTables`/`WriteTables`, named by
//! the HTTP routes and the writer) keep one concrete type whatever the engine, a second engine
//! is a second variant and an arm in each method here, and with one variant every `match`
//! compiles away: no boxing, no dynamic call, nothing on the hot paths that redb's own API
//! did not cost.

use std::borrow::Borrow;
use std::ops::RangeBounds;

use redb::{Key, ReadableTable as _, ReadableTableMetadata as _, TableHandle as _, Value};

/// A table opened in a read transaction (a snapshot).
pub enum Table<K: Key + 'static, V: Value + 'static> {
    Redb(redb::ReadOnlyTable<K, V>),
}

/// A table opened in the writer's transaction: readable like [`Table`], and writable.
pub enum TableMut<'txn, K: Key + 'static, V: Value + 'static> {
    Redb(redb::Table<'txn, K, V>),
}

/// A key or value read from a table, borrowed from the engine's buffer for as long as it lives.
pub enum Guard<'a, T: Value + 'static> {
    Redb(redb::AccessGuard<'a, T>),
}

/// Rows in key order, from either end: a range or a whole table.
pub enum Range<'a, K: Key + 'static, V: Value + 'static> {
    Redb(redb::Range<'a, K, V>),
}

/// A row: its key and its value.
pub type Entry<'a, K, V> = (Guard<'a, K>, Guard<'a, V>);

/// Why the engine could not read or write a table.
#[derive(Debug)]
pub enum Error {
    Redb(redb::StorageError),
}

/// The operations on a table that a read transaction and the writer share.
macro_rules! read_operations {
    () => {
        /// The value stored under `key`.
        #[inline]
        pub fn get<'k>(&self, key: impl Borrow<K::SelfType<'k>>) -> Result<Option<Guard<'_, V>>, Error> {
            match self {
                Self::Redb(table) => Ok(table.get(key)?.map(Guard::Redb)),
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
            }
        }

        /// Every row, in key order.
        #[inline]
        pub fn iter(&self) -> Result<Range<'_, K, V>, Error> {
            match self {
                Self::Redb(table) => Ok(Range::Redb(table.iter()?)),
            }
        }

        /// How many rows the table holds.
        pub fn row_count(&self) -> Result<u64, Error> {
            match self {
                Self::Redb(table) => Ok(table.len()?),
            }
        }

        /// The table's name, as [`super::tables`] defines it.
        pub fn name(&self) -> &str {
            match self {
                Self::Redb(table) => table.name(),
            }
        }
    };
}

impl<K: Key + 'static, V: Value + 'static> Table<K, V> {
    read_operations!();
}

impl<K: Key + 'static, V: Value + 'static> TableMut<'_, K, V> {
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
        }
        Ok(())
    }

    /// Removes the row under `key`; returns the value it held, if there was one.
    #[inline]
    pub fn remove<'k>(&mut self, key: impl Borrow<K::SelfType<'k>>) -> Result<Option<Guard<'_, V>>, Error> {
        match self {
            Self::Redb(table) => Ok(table.remove(key)?.map(Guard::Redb)),
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
        }
    }
}

impl<T: Value + 'static> Guard<'_, T> {
    /// The key or value, decoded by its type (a borrowed slice or string where it is one).
    #[inline]
    pub fn value(&self) -> T::SelfType<'_> {
        match self {
            Guard::Redb(guard) => guard.value(),
        }
    }
}

impl<'a, K: Key + 'static, V: Value + 'static> Iterator for Range<'a, K, V> {
    type Item = Result<Entry<'a, K, V>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Range::Redb(rows) => rows.next().map(redb_entry),
        }
    }
}

impl<K: Key + 'static, V: Value + 'static> DoubleEndedIterator for Range<'_, K, V> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Range::Redb(rows) => rows.next_back().map(redb_entry),
        }
    }
}

type RedbEntry<'a, K, V> = (redb::AccessGuard<'a, K>, redb::AccessGuard<'a, V>);

#[inline]
fn redb_entry<'a, K: Key + 'static, V: Value + 'static>(
    row: Result<RedbEntry<'a, K, V>, redb::StorageError>,
) -> Result<Entry<'a, K, V>, Error> {
    let (key, value) = row?;
    Ok((Guard::Redb(key), Guard::Redb(value)))
}

impl From<redb::StorageError> for Error {
    #[inline]
    fn from(e: redb::StorageError) -> Error {
        Error::Redb(e)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Redb(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    /// redb's table API, which only this file may name: a second engine then needs changes
    /// here and where tables are opened (`tables.rs`), nowhere else in `store/`.
    const REDB_TABLE_API: &[&str] =
        &["ReadableTable", "ReadOnlyTable", "AccessGuard", "redb::Table<", "redb::Range"];

    #[test]
    fn only_the_seam_names_redbs_table_api() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/store");
        let mut read = 0;
        for file in std::fs::read_dir(dir).expect("the store's sources") {
            let path = file.expect("a directory entry").path();
            if path.file_name().is_some_and(|name| name == "engine.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            read += 1;
            for name in REDB_TABLE_API {
                assert!(!source.contains(name), "{} names {name}: go through store::engine", path.display());
            }
        }
        assert!(read >= 9, "the store's files were read ({read})");
    }
}
