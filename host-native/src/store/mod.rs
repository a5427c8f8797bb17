//! Storage: one redb file per data directory.
//!
//! This module is the only place that knows tables (`tables`), record bytes (`codec`), how
//! core's reads map onto tables (`view`) and how core's changes become rows (`apply`).

mod apply;
mod codec;
pub mod tables;
mod view;

use std::path::Path;

use confab_core::ids::IdKind;
use confab_core::{ApiError, ApiResult};
use redb::{Database, ReadableDatabase, ReadableTable};

pub use tables::{ReadTables, WriteTables};

/// The table layout this build reads and writes. A new table needs no new version (opening
/// creates it empty, and an older build never opens it); a version marks rows to migrate.
pub const SCHEMA_VERSION: u64 = 3;

/// The database file inside a data directory.
pub const DB_FILE: &str = "confab.redb";

/// Why the store could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Another process (a running server) has the file open; redb allows one process per file.
    InUse,
    /// The file was written by a newer Confab.
    TooNew(u64),
    Other(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::InUse => write!(
                f,
                "the database is in use by another process (is a Confab server running on this data directory?)"
            ),
            OpenError::TooNew(v) => write!(
                f,
                "the database has schema version {v}, newer than this Confab ({SCHEMA_VERSION}); upgrade Confab"
            ),
            OpenError::Other(e) => write!(f, "{e}"),
        }
    }
}

/// The open database.
pub struct Store {
    db: Database,
}

impl Store {
    /// Opens or creates `DIR/confab.redb`, creates missing tables and migrates the schema.
    pub fn open(data_dir: &Path) -> Result<Store, OpenError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| OpenError::Other(format!("{}: {e}", data_dir.display())))?;
        let db = Database::create(data_dir.join(DB_FILE)).map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => OpenError::InUse,
            other => OpenError::Other(other.to_string()),
        })?;
        let store = Store { db };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&self) -> Result<(), OpenError> {
        let other = |e: &dyn std::fmt::Display| OpenError::Other(e.to_string());
        let txn = self.db.begin_write().map_err(|e| other(&e))?;
        {
            // Opening every table creates the missing ones.
            let mut tables = WriteTables::open(&txn).map_err(|e| other(&e))?;
            let version = tables.meta.get("schema_version").map_err(|e| other(&e))?.map(|v| v.value());
            match version {
                None => {
                    tables.meta.insert("schema_version", SCHEMA_VERSION).map_err(|e| other(&e))?;
                }
                Some(v) if v > SCHEMA_VERSION => return Err(OpenError::TooNew(v)),
                // Migrations from older layouts, one step per version.
                Some(v) => {
                    if v < 2 {
                        add_system_groups(&mut tables).map_err(|e| other(&e))?;
                    }
                    if v < 3 {
                        sequence_presences(&mut tables).map_err(|e| other(&e))?;
                    }
                    tables.meta.insert("schema_version", SCHEMA_VERSION).map_err(|e| other(&e))?;
                }
            }
        }
        txn.commit().map_err(|e| other(&e))
    }

    /// Runs `f` on a consistent snapshot, in parallel with the writer.
    pub fn read<T>(&self, f: impl FnOnce(&ReadTables) -> ApiResult<T>) -> ApiResult<T> {
        let txn = self.db.begin_read().map_err(view::storage)?;
        let tables = ReadTables::open(&txn).map_err(view::storage)?;
        f(&tables)
    }

    /// Starts a write transaction; only the writer calls this.
    pub fn begin_write(&self) -> ApiResult<redb::WriteTransaction> {
        self.db.begin_write().map_err(view::storage)
    }
}

impl ReadTables {
    /// Reads an id counter; ids start at 1.
    pub fn counter(&self, kind: IdKind) -> ApiResult<u64> {
        Ok(self.meta.get(apply::counter_key(kind).as_str()).map_err(view::storage)?.map_or(1, |v| v.value()))
    }
}

/// Version 2: organizations get Zulip's system groups (`role:owners`, ...).
fn add_system_groups(tables: &mut WriteTables<'_>) -> ApiResult<()> {
    let realms: Vec<u64> = tables
        .realms
        .iter()
        .map_err(view::storage)?
        .map(|row| row.map(|(k, _)| k.value()))
        .collect::<Result<_, _>>()
        .map_err(view::storage)?;
    for realm in realms {
        for change in confab_core::groups::missing_system_groups(&*tables, confab_core::ids::RealmId(realm))?
        {
            tables.apply(&change)?;
        }
    }
    Ok(())
}

/// Version 3: presences carry their organization and their place in its presence sequence
/// (`realmid_updateid_userid`). Existing ones are numbered from 1 in user id order.
fn sequence_presences(tables: &mut WriteTables<'_>) -> ApiResult<()> {
    use confab_core::ids::{RealmId, UserId};
    use confab_core::model::Presence;
    use confab_core::store::{Change, Store};

    let mut old = Vec::new();
    for row in tables.presences.iter().map_err(view::storage)? {
        let (user, record) = row.map_err(view::storage)?;
        let times: serde_json::Value = codec::decode(record.value())?;
        old.push((UserId(user.value()), times));
    }
    let mut sequences = std::collections::BTreeMap::<RealmId, u64>::new();
    for (user_id, times) in old {
        tables.presences.remove(user_id.0).map_err(view::storage)?;
        let Some(user) = tables.user(user_id)? else { continue };
        let sequence = sequences.entry(user.realm_id).or_default();
        *sequence += 1;
        tables.apply(&Change::PutPresence(Presence {
            user_id,
            realm_id: user.realm_id,
            last_active_time: times["last_active_time"].as_i64().unwrap_or_default(),
            last_connected_time: times["last_connected_time"].as_i64().unwrap_or_default(),
            last_update_id: *sequence,
        }))?;
    }
    Ok(())
}

/// Commits a write transaction, mapping failure to an internal error.
pub fn commit(txn: redb::WriteTransaction) -> ApiResult<()> {
    txn.commit().map_err(|e| ApiError::internal(format!("commit: {e}")))
}

#[cfg(test)]
mod tests {
    use confab_core::api::realm::{NewRealm, create_realm};
    use confab_core::api::users::NewUser;
    use confab_core::model::Role;
    use confab_core::store::Store as _;

    use super::*;

    /// A version 2 file holds presences without organization or sequence number.
    #[test]
    fn version_2_presences_join_their_organizations_sequence() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let owner = {
            let store = Store::open(dir.path()).expect("a new store");
            let owner = NewUser {
                email: "owner@example.com".into(),
                full_name: "Owner".into(),
                role: Role::Owner,
                bot_type: None,
                bot_owner_id: None,
                api_key: "k".repeat(32),
                password_hash: None,
            };
            let txn = store.begin_write().expect("a transaction");
            let owner = {
                let mut tables = WriteTables::open(&txn).expect("tables");
                let new = NewRealm { subdomain: String::new(), name: "Old".into(), owner };
                for change in create_realm(&tables, new, 1_000).expect("a realm").changes {
                    tables.apply(&change).expect("applied");
                }
                let realm = tables.realm_by_subdomain("").expect("read").expect("the realm");
                let owner = tables.realm_users(realm).expect("users").into_iter().find(|u| u.is_admin());
                let owner = owner.expect("the owner").id;
                let old = codec::encode(&serde_json::json!({
                    "user_id": owner, "last_active_time": 900, "last_connected_time": 950,
                }))
                .expect("encoded");
                tables.presences.insert(owner.0, old.as_slice()).expect("an old presence");
                tables.meta.insert("schema_version", 2).expect("version 2");
                owner
            };
            commit(txn).expect("committed");
            owner
        };
        let store = Store::open(dir.path()).expect("migrated");
        let (presence, sequence) = store
            .read(|t| {
                let presence = t.presence(owner)?.expect("kept");
                Ok((presence, t.presence_sequence(presence.realm_id)?))
            })
            .expect("read");
        assert_eq!((presence.last_active_time, presence.last_connected_time), (900, 950));
        assert_eq!((presence.last_update_id, sequence), (1, 1));
        let version =
            store.read(|t| Ok(t.meta.get("schema_version").map_err(view::storage)?.map(|v| v.value())));
        assert_eq!(version.expect("read"), Some(SCHEMA_VERSION));
    }
}
