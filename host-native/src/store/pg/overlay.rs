//! What a transaction has read, and what it has written but not yet sent: each row read once
//! (a batch names the same user, channel and organization many times), and a batch's writes
//! sent together, one statement for every table, instead of a round trip per row.
//!
//! A write updates what was read, so a later read of the row sees it without asking. A range or
//! a count over a table sends that table's writes first (the database answers those); the rest
//! go just before the commit. Whole ranges read (a message's reactions, an organization's
//! linkifiers, read once per shape a notification renders) are remembered too, until their
//! table is written.

use std::collections::{BTreeMap, HashMap};

use postgres::types::ToSql;

/// A row: its ordered key and its value's bytes.
type Row = (Vec<u8>, Vec<u8>);

/// A range of a table: its name and its bounds (`keys.rs`).
type Bounds = (&'static str, Vec<u8>, Vec<u8>);

/// Writes held, by table: each key's value, or `None` for a deletion.
pub type Writes = BTreeMap<&'static str, BTreeMap<Vec<u8>, Option<Vec<u8>>>>;

/// Rows read and rows written, by table and ordered key.
#[derive(Default)]
pub struct Overlay {
    /// Each row read or written: its value's bytes, or `None` for no row.
    rows: HashMap<(&'static str, Vec<u8>), Option<Vec<u8>>>,
    /// Writes not yet sent, by table: the value to store, or `None` to delete.
    writes: Writes,
    /// Whole ranges read (a message's reactions, an organization's linkifiers), by table and
    /// bounds, in ascending order; forgotten when their table is written.
    ranges: HashMap<Bounds, Vec<Row>>,
}

/// The remembered rows are forgotten past this many (a long walk over a large table).
const MOST_ROWS: usize = 100_000;

/// ... and the remembered ranges past this many.
const MOST_RANGES: usize = 10_000;

impl Overlay {
    /// The row under `key` if it was read or written in this transaction.
    pub fn row(&self, table: &'static str, key: &[u8]) -> Option<Option<Vec<u8>>> {
        self.rows.get(&(table, key.to_vec())).cloned()
    }

    /// Remembers a row read.
    pub fn remember(&mut self, table: &'static str, key: Vec<u8>, value: Option<Vec<u8>>) {
        if self.rows.len() >= MOST_ROWS {
            self.rows.clear();
            // Rows written and not yet sent stay: the database does not have them.
            for (&table, rows) in &self.writes {
                for (key, value) in rows {
                    self.rows.insert((table, key.clone()), value.clone());
                }
            }
        }
        self.rows.insert((table, key), value);
    }

    /// The rows between `low` and `high` if the whole range was read, ascending.
    pub fn range(&self, table: &'static str, low: &[u8], high: &[u8]) -> Option<&[Row]> {
        self.ranges.get(&(table, low.to_vec(), high.to_vec())).map(Vec::as_slice)
    }

    /// Remembers a whole range read, ascending.
    pub fn remember_range(
        &mut self,
        table: &'static str,
        low: Vec<u8>,
        high: Vec<u8>,
        rows: Vec<(Vec<u8>, Vec<u8>)>,
    ) {
        if self.ranges.len() >= MOST_RANGES {
            self.ranges.clear();
        }
        self.ranges.insert((table, low, high), rows);
    }

    /// Holds a write (`None`: a deletion) until [`Overlay::take`].
    pub fn write(&mut self, table: &'static str, key: Vec<u8>, value: Option<Vec<u8>>) {
        if !self.ranges.is_empty() {
            self.ranges.retain(|(written, _, _), _| *written != table);
        }
        self.writes.entry(table).or_default().insert(key.clone(), value.clone());
        // Never forgotten while held: a read must not ask the database for a row it lacks.
        self.rows.insert((table, key), value);
    }

    /// The writes held for `table` (before a range or count over it), or for every table.
    pub fn take(
        &mut self,
        table: Option<&'static str>,
    ) -> BTreeMap<&'static str, BTreeMap<Vec<u8>, Option<Vec<u8>>>> {
        match table {
            Some(table) => {
                self.writes.remove(table).map(|rows| BTreeMap::from([(table, rows)])).unwrap_or_default()
            }
            None => std::mem::take(&mut self.writes),
        }
    }
}

/// One statement that applies `writes` to every table they touch, and its parameters: per
/// table, a `DELETE ... WHERE k = ANY(...)` and an `INSERT ... SELECT FROM unnest(...) ON
/// CONFLICT` in data-modifying `WITH` clauses. Each key appears once per table, so no two
/// clauses touch one row. The text depends only on which tables delete and which store, so the
/// prepared statement is reused.
pub fn statement(writes: Writes) -> Option<(String, Vec<Box<dyn ToSql + Sync>>)> {
    let mut clauses = Vec::new();
    let mut params: Vec<Box<dyn ToSql + Sync>> = Vec::new();
    for (table, rows) in writes {
        let mut deleted: Vec<Vec<u8>> = Vec::new();
        let (mut keys, mut values): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
        for (key, value) in rows {
            match value {
                Some(value) => {
                    keys.push(key);
                    values.push(value);
                }
                None => deleted.push(key),
            }
        }
        if !deleted.is_empty() {
            params.push(Box::new(deleted));
            let n = params.len();
            clauses.push(format!("d{n} AS (DELETE FROM {table} WHERE k = ANY(${n}))"));
        }
        if !keys.is_empty() {
            params.push(Box::new(keys));
            params.push(Box::new(values));
            let n = params.len();
            clauses.push(format!(
                "p{n} AS (INSERT INTO {table} (k, v) SELECT * FROM unnest(${}::bytea[], ${n}::bytea[]) \
                 ON CONFLICT (k) DO UPDATE SET v = excluded.v)",
                n - 1
            ));
        }
    }
    (!clauses.is_empty()).then(|| (format!("WITH {} SELECT 1", clauses.join(", ")), params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_read_back_and_the_last_write_of_a_row_wins() {
        let mut overlay = Overlay::default();
        overlay.write("t", vec![1], Some(vec![10]));
        overlay.write("t", vec![1], None);
        overlay.write("t", vec![2], Some(vec![20]));
        overlay.write("u", vec![3], Some(vec![30]));
        assert_eq!(overlay.row("t", &[1]), Some(None));
        assert_eq!(overlay.row("t", &[2]), Some(Some(vec![20])));
        assert_eq!(overlay.row("t", &[9]), None, "never read");
        let (sql, params) = statement(overlay.take(Some("t"))).expect("writes for t");
        assert_eq!(
            sql,
            "WITH d1 AS (DELETE FROM t WHERE k = ANY($1)), p3 AS (INSERT INTO t (k, v) SELECT * FROM \
             unnest($2::bytea[], $3::bytea[]) ON CONFLICT (k) DO UPDATE SET v = excluded.v) SELECT 1"
        );
        assert_eq!(params.len(), 3);
        assert!(statement(overlay.take(Some("t"))).is_none(), "sent once");
        assert!(statement(overlay.take(None)).is_some(), "u's write is still held");
    }

    #[test]
    fn rows_written_and_not_sent_outlive_forgetting_the_rows_read() {
        let mut overlay = Overlay::default();
        overlay.write("t", vec![0], Some(vec![7]));
        for n in 1..=MOST_ROWS as u32 {
            overlay.remember("t", n.to_be_bytes().to_vec(), None);
        }
        assert_eq!(overlay.row("t", &[0]), Some(Some(vec![7])));
        assert_eq!(overlay.row("t", &1u32.to_be_bytes()), None, "forgotten");
    }
}
