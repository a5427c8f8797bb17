//! Events between servers on one database: each batch that commits notifications adds one row
//! to `confab_events`, numbered under the writer's lock (so in commit order, without gaps: a
//! rolled-back batch takes its number back), and notifies the channel with the number alone
//! (NOTIFY's payload limit never matters). Every server reads the rows past its cursor.

use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator as _;
use postgres::{Client, NoTls};

use super::Transaction;
use super::connection::postgres_error;
use crate::store::engine::Error;

/// The channel servers listen on.
const CHANNEL: &str = "confab_events";

pub const CREATE: &str = "CREATE TABLE IF NOT EXISTS confab_events (
    seq bigint PRIMARY KEY,
    node text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    payload bytea NOT NULL
)";

/// Adds a batch's notifications (`payload`) in the writer's transaction; returns its number.
/// The notification reaches listeners when the transaction commits. `node` is the server's
/// `application_name` (`confab node NAME` with `--node-id`), for an operator reading the table.
pub fn publish(txn: &Transaction, payload: &[u8]) -> Result<u64, Error> {
    let mut session = txn.session();
    let client = session.connection.client();
    // Under the writer's lock: no other batch numbers a row meanwhile.
    let row = client
        .query_one(
            "INSERT INTO confab_events (seq, node, payload)
             SELECT coalesce(max(seq), 0) + 1, current_setting('application_name'), $1
             FROM confab_events RETURNING seq",
            &[&payload],
        )
        .map_err(postgres_error)?;
    let seq: i64 = row.get(0);
    client.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &seq.to_string()]).map_err(postgres_error)?;
    Ok(seq as u64)
}

/// The rows after `cursor`, in order, at most `limit`: each its number and payload.
pub fn after(txn: &Transaction, cursor: u64, limit: i64) -> Result<Vec<(u64, Vec<u8>)>, Error> {
    let mut session = txn.session();
    let rows = session
        .connection
        .client()
        .query(
            "SELECT seq, payload FROM confab_events WHERE seq > $1 ORDER BY seq LIMIT $2",
            &[&(cursor as i64), &limit],
        )
        .map_err(postgres_error)?;
    Ok(rows.into_iter().map(|row| (row.get::<_, i64>(0) as u64, row.get(1))).collect())
}

/// The last row's number: where a server that just started begins.
pub fn last(txn: &Transaction) -> Result<u64, Error> {
    let mut session = txn.session();
    let row = session
        .connection
        .client()
        .query_one("SELECT coalesce(max(seq), 0) FROM confab_events", &[])
        .map_err(postgres_error)?;
    Ok(row.get::<_, i64>(0) as u64)
}

/// Deletes the rows older than `seconds`, but never the newest (the next row's number is
/// `max + 1`: without it, numbers would start again). Returns how many went.
pub fn prune(txn: &Transaction, seconds: i64) -> Result<u64, Error> {
    let mut session = txn.session();
    session
        .connection
        .client()
        .execute(
            "DELETE FROM confab_events
             WHERE at < now() - make_interval(secs => $1::bigint)
               AND seq < (SELECT max(seq) FROM confab_events)",
            &[&seconds],
        )
        .map_err(postgres_error)
}

/// A connection of its own that listens on the channel (not pooled: it stays in LISTEN).
pub struct Listener {
    client: Client,
}

impl Listener {
    pub fn connect(config: &postgres::Config) -> Result<Listener, Error> {
        let mut client = config.connect(NoTls).map_err(postgres_error)?;
        client.batch_execute(&format!("LISTEN {CHANNEL}")).map_err(postgres_error)?;
        Ok(Listener { client })
    }

    /// Waits until a batch is announced or `timeout` passes; true when one was.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool, Error> {
        let mut notifications = self.client.notifications();
        if notifications.timeout_iter(timeout).next().map_err(postgres_error)?.is_none() {
            return Ok(false);
        }
        // And every announcement already here: one read of the rows serves them all.
        let mut waiting = notifications.iter();
        while waiting.next().map_err(postgres_error)?.is_some() {}
        Ok(true)
    }
}
