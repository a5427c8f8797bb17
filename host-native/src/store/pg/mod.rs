//! The PostgreSQL engine under the engine seam (`../engine.rs`): each redb table is a
//! PostgreSQL table of the same name holding the same rows, so `view.rs` and `apply.rs` read
//! and write it unchanged (ARCHITECTURE.md, "PostgreSQL").

mod connection;
pub mod events;
pub mod keys;
mod overlay;
pub mod table;

pub use connection::{Pool, Transaction};

use super::engine::Error;

/// The table of a redb table's rows: the key's ordered bytes, the value's redb bytes. Names
/// come from `tables.rs`, never from input.
fn create_table(name: &str) -> String {
    format!("CREATE TABLE IF NOT EXISTS {name} (k bytea PRIMARY KEY, v bytea NOT NULL)")
}

/// Creates the tables that are missing, in the writer's transaction (under its lock, so two
/// nodes starting together do not race).
pub fn create_tables(txn: &Transaction, names: &[&str]) -> Result<(), Error> {
    let mut ddl: Vec<String> = names.iter().map(|name| create_table(name)).collect();
    ddl.push(events::CREATE.to_owned());
    txn.execute(&ddl.join(";\n"))
}

/// Which of `names` the database holds as tables, and each one's rows. Read on a connection
/// of its own, before a store is opened (opening creates the missing tables): `confab migrate`
/// checks that its target is empty and its source is a Confab database, writing nothing.
pub fn existing_tables(url: &str, names: &[&'static str]) -> Result<Vec<(&'static str, u64)>, String> {
    use std::str::FromStr as _;
    let config = postgres::Config::from_str(url).map_err(|e| format!("the database address: {e}"))?;
    let mut client =
        config.connect(postgres::NoTls).map_err(|e| format!("connecting to the database: {e}"))?;
    let mut found = Vec::new();
    for &name in names {
        let exists: bool = client
            .query_one("SELECT to_regclass($1) IS NOT NULL", &[&name])
            .map_err(|e| format!("reading the database's tables: {e}"))?
            .get(0);
        if exists {
            let rows: i64 = client
                .query_one(&format!("SELECT count(*) FROM {name}"), &[])
                .map_err(|e| format!("counting the rows of {name}: {e}"))?
                .get(0);
            found.push((name, rows.try_into().unwrap_or(0)));
        }
    }
    Ok(found)
}
