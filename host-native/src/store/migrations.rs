//! The steps that bring an older database file up to [`super::SCHEMA_VERSION`], one function
//! per version, run by `Store::open` in one transaction with the version's update.

use confab_core::ApiResult;

use super::tables::WriteTables;
use super::{codec, view};

/// Version 2: organizations get Zulip's system groups (`role:owners`, ...).
pub(super) fn add_system_groups(tables: &mut WriteTables<'_>) -> ApiResult<()> {
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

/// Version 3: the indexes every channel send reads instead of decoding records: deactivated
/// users by organization, and topic preferences by channel and topic.
pub(super) fn index_deactivated_users_and_topic_preferences(tables: &mut WriteTables<'_>) -> ApiResult<()> {
    let mut deactivated = Vec::new();
    for row in tables.users.iter().map_err(view::storage)? {
        let user: confab_core::model::User = codec::decode(row.map_err(view::storage)?.1.value())?;
        if !user.is_active {
            deactivated.push((user.realm_id.0, user.id.0));
        }
    }
    for key in deactivated {
        tables.deactivated.insert(key, ()).map_err(view::storage)?;
    }
    let kind = confab_core::model::RecordKind::UserTopic;
    let mut preferences = Vec::new();
    for row in tables.records.iter().map_err(view::storage)? {
        let (key, value) = row.map_err(view::storage)?;
        let (user, record_kind, id) = key.value();
        if record_kind == kind.key() {
            preferences.push((confab_core::ids::UserId(user), id, codec::decode(value.value())?));
        }
    }
    for (user, id, value) in preferences {
        tables.file_topic_preference(user, id, &value)?;
    }
    Ok(())
}

/// Version 3: presences carry their organization and their place in its presence sequence
/// (`realmid_updateid_userid`). Existing ones are numbered from 1 in user id order.
pub(super) fn sequence_presences(tables: &mut WriteTables<'_>) -> ApiResult<()> {
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

#[cfg(test)]
mod tests {
    use confab_core::ids::StreamId;
    use confab_core::model::RecordKind;
    use confab_core::store::{Change, Store as _};
    use confab_core::{ApiError, Outcome};
    use serde_json::json;

    use crate::store::Store;
    use crate::writer::run_now;

    #[test]
    fn version_3_indexes_the_deactivated_users_and_topic_preferences_of_an_older_file() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Store::open(dir.path()).expect("a new store");
        crate::bootstrap::ensure_first_realm(&store, "owner@example.com", 0).expect("an organization");
        let (realm, owner) = store
            .read(|t| {
                let realm = t.realms()?.remove(0);
                Ok((realm.id, t.realm_users(realm.id)?.remove(0)))
            })
            .expect("the owner");
        let preference =
            json!({"stream_id": 7, "topic_name": "Lunch", "last_updated": 0, "visibility_policy": 3});
        let (user, value) = (owner.id, preference.clone());
        let deactivated = confab_core::model::User { is_active: false, ..owner.clone() };
        run_now(
            &store,
            Box::new(move |_| {
                Ok(Outcome {
                    changes: vec![
                        Change::PutUser(deactivated),
                        Change::PutRecord { user, kind: RecordKind::UserTopic, id: 41, value },
                    ],
                    ..Outcome::default()
                })
            }),
        )
        .expect("written");
        // A version 2 file has neither index.
        let txn = store.begin_write().expect("a transaction");
        {
            let mut tables = crate::store::WriteTables::open(&txn).expect("the tables");
            tables.deactivated.retain(|_, _| false).map_err(ApiError::internal).expect("emptied");
            tables.topic_preferences.retain(|_, _| false).map_err(ApiError::internal).expect("emptied");
            tables.meta.insert("schema_version", 2).map_err(ApiError::internal).expect("version 2");
        }
        crate::store::commit(txn).expect("committed");
        drop(store);

        let store = Store::open(dir.path()).expect("the migrated store");
        let (deactivated, found) = store
            .read(|t| Ok((t.deactivated_users(realm)?, t.topic_preference(owner.id, StreamId(7), "lunch")?)))
            .expect("read");
        assert_eq!(deactivated, vec![owner.id]);
        assert_eq!(found, Some((41, preference)));
    }
}
