//! One table on PostgreSQL: `k bytea PRIMARY KEY, v bytea`, keys in their ordered encoding
//! (`keys.rs`), values as redb's bytes of them. Rows read come back as owned bytes.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::ops::Bound;
use std::sync::Arc;

use redb::Value;

use super::connection::{Op, Transaction, postgres_error};
use super::keys::{ABOVE_EVERY_KEY, OrderedKey};
use crate::store::engine::Error;

/// A table in a transaction.
pub struct PgTable<K, V> {
    txn: Arc<Transaction>,
    name: &'static str,
    types: PhantomData<fn() -> (K, V)>,
}

/// A row as read: the key's ordered bytes, the value's bytes.
type Row = (Vec<u8>, Vec<u8>);

impl<K: OrderedKey, V: Value + 'static> PgTable<K, V> {
    pub fn new(txn: Arc<Transaction>, name: &'static str) -> Self {
        PgTable { txn, name, types: PhantomData }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The value's bytes under `key`: read once per transaction.
    pub fn get(&self, key: &K::SelfType<'_>) -> Result<Option<Vec<u8>>, Error> {
        self.get_ordered(K::encode(key))
    }

    fn get_ordered(&self, key: Vec<u8>) -> Result<Option<Vec<u8>>, Error> {
        let mut session = self.txn.session();
        if let Some(row) = session.overlay.row(self.name, &key) {
            return Ok(row);
        }
        let statement = session.connection.statement(self.name, Op::Get)?;
        let row = session.connection.client().query_opt(&statement, &[&key]).map_err(postgres_error)?;
        let value: Option<Vec<u8>> = row.map(|row| row.get(0));
        session.overlay.remember(self.name, key, value.clone());
        Ok(value)
    }

    /// Reads the rows under `keys` in one statement, for the gets that follow in this
    /// transaction (absent rows are remembered as absent).
    pub fn prefetch(&self, keys: &[K::SelfType<'_>]) -> Result<(), Error> {
        let mut session = self.txn.session();
        let wanted: Vec<Vec<u8>> =
            keys.iter().map(K::encode).filter(|key| session.overlay.row(self.name, key).is_none()).collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let statement = session.connection.statement(self.name, Op::GetMany)?;
        let rows = session.connection.client().query(&statement, &[&wanted]).map_err(postgres_error)?;
        let mut found: std::collections::HashMap<Vec<u8>, Vec<u8>> =
            rows.into_iter().map(|row| (row.get(0), row.get(1))).collect();
        for key in wanted {
            let value = found.remove(&key);
            session.overlay.remember(self.name, key, value);
        }
        Ok(())
    }

    /// Reads the rows of each range (both ends included, as `range(low..=high)` reads) in one
    /// statement, for the ranges that follow in this transaction.
    pub fn prefetch_ranges(&self, ranges: &[(K::SelfType<'_>, K::SelfType<'_>)]) -> Result<(), Error> {
        let mut session = self.txn.session();
        let bounds: Vec<(Vec<u8>, Vec<u8>)> = ranges
            .iter()
            .map(|(low, high)| {
                let mut after_high = K::encode(high);
                after_high.push(0);
                (K::encode(low), after_high)
            })
            .filter(|(low, high)| session.overlay.range(self.name, low, high).is_none())
            .collect();
        if bounds.is_empty() {
            return Ok(());
        }
        // The database answers ranges: it must hold this table's writes first.
        session.flush(Some(self.name))?;
        let (lows, highs): (Vec<&Vec<u8>>, Vec<&Vec<u8>>) = bounds.iter().map(|(l, h)| (l, h)).unzip();
        let statement = session.connection.statement(self.name, Op::Ranges)?;
        let rows = session.connection.client().query(&statement, &[&lows, &highs]).map_err(postgres_error)?;
        let mut per_range: Vec<Vec<Row>> = vec![Vec::new(); bounds.len()];
        for row in rows {
            let ordinal: i64 = row.get(0);
            if let Some(range) = usize::try_from(ordinal - 1).ok().and_then(|i| per_range.get_mut(i)) {
                range.push((row.get(1), row.get(2)));
            }
        }
        for ((low, high), rows) in bounds.into_iter().zip(per_range) {
            session.overlay.remember_range(self.name, low, high, rows);
        }
        Ok(())
    }

    /// Holds the write until a range over the table, or the commit (`overlay.rs`).
    pub fn insert(&self, key: &K::SelfType<'_>, value: &V::SelfType<'_>) -> Result<(), Error> {
        let value = V::as_bytes(value).as_ref().to_vec();
        self.txn.session().overlay.write(self.name, K::encode(key), Some(value));
        Ok(())
    }

    /// Stores rows given as redb's bytes of their keys and values, in one statement: a
    /// migration writes a table a chunk at a time, and a round trip per row would make a
    /// million rows take minutes.
    pub fn insert_many(&self, rows: &[(Vec<u8>, Vec<u8>)]) -> Result<(), Error> {
        let rows = rows.iter().map(|(key, value)| (K::encode(&K::from_bytes(key)), Some(value.clone())));
        let mut session = self.txn.session();
        // After the writes held for the table, which they may replace.
        session.flush(Some(self.name))?;
        session.send(std::collections::BTreeMap::from([(self.name, rows.collect())]))
    }

    /// Removes the row; returns its value's bytes.
    pub fn remove(&self, key: &K::SelfType<'_>) -> Result<Option<Vec<u8>>, Error> {
        let key = K::encode(key);
        let old = self.get_ordered(key.clone())?;
        if old.is_some() {
            self.txn.session().overlay.write(self.name, key, None);
        }
        Ok(old)
    }

    pub fn row_count(&self) -> Result<u64, Error> {
        let mut session = self.txn.session();
        session.flush(Some(self.name))?;
        let statement = session.connection.statement(self.name, Op::Count)?;
        let row = session.connection.client().query_one(&statement, &[]).map_err(postgres_error)?;
        Ok(row.get::<_, i64>(0).try_into().unwrap_or(0))
    }

    /// The rows between two bounds, read a page at a time from whichever end is asked for.
    pub fn range(&self, low: Bound<&K::SelfType<'_>>, high: Bound<&K::SelfType<'_>>) -> PgRange<K, V> {
        // Bytes ordered as keys have an immediate successor: the same bytes and a 0x00. So
        // every bound becomes "from `low` inclusive to `high` exclusive".
        let successor = |key: &K::SelfType<'_>| {
            let mut bytes = K::encode(key);
            bytes.push(0);
            bytes
        };
        let low = match low {
            Bound::Included(key) => K::encode(key),
            Bound::Excluded(key) => successor(key),
            Bound::Unbounded => Vec::new(),
        };
        let high = match high {
            Bound::Included(key) => successor(key),
            Bound::Excluded(key) => K::encode(key),
            Bound::Unbounded => ABOVE_EVERY_KEY.to_vec(),
        };
        PgRange {
            txn: self.txn.clone(),
            name: self.name,
            low,
            high,
            ahead: VecDeque::new(),
            behind: VecDeque::new(),
            page: FIRST_PAGE,
            types: PhantomData,
        }
    }

    /// Every row's ordered key (tests: `retain`).
    #[cfg(test)]
    pub fn keys(&self) -> Result<Vec<Vec<u8>>, Error> {
        let mut keys = Vec::new();
        let mut rows = self.range(Bound::Unbounded, Bound::Unbounded);
        while let Some(row) = rows.next_row() {
            keys.push(row?.0);
        }
        Ok(keys)
    }

    /// Removes the row under ordered key bytes (tests: `retain`).
    #[cfg(test)]
    pub fn remove_ordered(&self, key: &[u8]) -> Result<(), Error> {
        self.txn.session().overlay.write(self.name, key.to_vec(), None);
        Ok(())
    }
}

/// Most calls want the first row or few (the latest message, whether a row exists); walks over
/// many rows get larger pages as they go.
const FIRST_PAGE: i64 = 16;
const LARGEST_PAGE: i64 = 4096;

/// Rows between `low` (inclusive) and `high` (exclusive) not yet read, and those read and not
/// yet handed out: `ahead` in ascending order from the low end, `behind` in descending order from
/// the high end. Each page is read between the current bounds, which it then narrows, so the
/// two ends never read a row twice.
pub struct PgRange<K, V> {
    txn: Arc<Transaction>,
    name: &'static str,
    low: Vec<u8>,
    high: Vec<u8>,
    ahead: VecDeque<Row>,
    behind: VecDeque<Row>,
    page: i64,
    types: PhantomData<fn() -> (K, V)>,
}

impl<K: OrderedKey, V: Value + 'static> PgRange<K, V> {
    /// Reads the next page from one end into its buffer.
    fn fetch(&mut self, ascending: bool) -> Result<(), Error> {
        let mut session = self.txn.session();
        // A whole range read before in this transaction (a first fetch only: later ones have
        // narrowed the bounds).
        let first = self.ahead.is_empty() && self.behind.is_empty() && self.page == FIRST_PAGE;
        if first && let Some(rows) = session.overlay.range(self.name, &self.low, &self.high) {
            if ascending {
                self.ahead.extend(rows.iter().cloned());
            } else {
                self.behind.extend(rows.iter().rev().cloned());
            }
            self.low.clone_from(&self.high);
            return Ok(());
        }
        // The database answers ranges: it must hold this table's writes first.
        session.flush(Some(self.name))?;
        let op = if ascending { Op::Ascending } else { Op::Descending };
        let statement = session.connection.statement(self.name, op)?;
        let rows = session
            .connection
            .client()
            .query(&statement, &[&self.low, &self.high, &self.page])
            .map_err(postgres_error)?;
        let complete = (rows.len() as i64) < self.page;
        self.page = (self.page * 4).min(LARGEST_PAGE);
        let rows = rows.into_iter().map(|row| (row.get::<_, Vec<u8>>(0), row.get::<_, Vec<u8>>(1)));
        let buffer = if ascending { &mut self.ahead } else { &mut self.behind };
        buffer.extend(rows);
        if complete && first {
            let mut whole: Vec<Row> = buffer.iter().cloned().collect();
            if !ascending {
                whole.reverse();
            }
            session.overlay.remember_range(self.name, self.low.clone(), self.high.clone(), whole);
        }
        if complete {
            // Everything between the bounds is in this buffer.
            self.low.clone_from(&self.high);
        } else if let Some((last, _)) = buffer.back() {
            if ascending {
                self.low.clone_from(last);
                self.low.push(0);
            } else {
                self.high.clone_from(last);
            }
        }
        Ok(())
    }

    fn unread(&self) -> bool {
        self.low < self.high
    }

    /// The next row from the low end, as ordered key bytes and value bytes.
    pub fn next_row(&mut self) -> Option<Result<Row, Error>> {
        if self.ahead.is_empty()
            && self.unread()
            && let Err(e) = self.fetch(true)
        {
            self.low.clone_from(&self.high);
            return Some(Err(e));
        }
        self.ahead.pop_front().or_else(|| self.behind.pop_back()).map(Ok)
    }

    /// The next row from the high end.
    pub fn next_row_back(&mut self) -> Option<Result<Row, Error>> {
        if self.behind.is_empty()
            && self.unread()
            && let Err(e) = self.fetch(false)
        {
            self.low.clone_from(&self.high);
            return Some(Err(e));
        }
        self.behind.pop_front().or_else(|| self.ahead.pop_back()).map(Ok)
    }

    /// A row's key as redb's bytes of it.
    pub fn redb_key(ordered: &[u8]) -> Result<Vec<u8>, Error> {
        K::decode(ordered)
            .ok_or_else(|| Error::Postgres("a key in the database is not one this table holds".into()))
    }
}
