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
