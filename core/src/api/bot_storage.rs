//! GET    /bot_storage   get_storage
//! PUT    /bot_storage   update_storage
//! DELETE /bot_storage   remove_storage
//!
//! A bot's key-value storage (Zulip's `BotStorageData`), used by zulip-bots' `StateHandler`:
//! string keys and values, at most 10 MB of them per bot.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::model::RecordKind;
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::records::{new_ids, records};

/// Zulip's `USER_STATE_SIZE_LIMIT`, in characters of keys and values.
pub const STORAGE_LIMIT: usize = 10_000_000;

/// Storage belongs to bots only; Zulip refuses people (its `test_bot_storage_restrictions`).
fn require_bot(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_bot() { Ok(()) } else { Err(ApiError::bad_request("Must be a bot user")) }
}

fn key_missing() -> ApiError {
    ApiError::bad_request("Key does not exist.")
}

/// The bot's entries, by key, with their record ids.
fn entries(store: &impl Store, actor: &Actor) -> ApiResult<BTreeMap<String, (u64, String)>> {
    Ok(records(store, actor.user.id, RecordKind::BotStorage)?
        .into_iter()
        .filter_map(|(id, entry)| {
            let key = entry["key"].as_str()?.to_owned();
            let value = entry["value"].as_str()?.to_owned();
            Some((key, (id, value)))
        })
        .collect())
}

fn size(key: &str, value: &str) -> usize {
    key.chars().count() + value.chars().count()
}

/// The keys a request names, if it names any: an empty list names none, and so means every
/// key, as Zulip's `keys or get_keys_in_bot_storage(...)` has it.
fn requested_keys(params: &Params) -> ApiResult<Option<Vec<String>>> {
    Ok(params.optional::<Json<Vec<String>>>("keys")?.map(|Json(keys)| keys).filter(|keys| !keys.is_empty()))
}

/// `GET /bot_storage`: every entry, or those of `keys`.
pub fn get_storage(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_bot(actor)?;
    let all = entries(store, actor)?;
    let storage: serde_json::Map<String, Value> = match requested_keys(params)? {
        None => all.into_iter().map(|(key, (_, value))| (key, value.into())).collect(),
        Some(keys) => keys
            .into_iter()
            .map(|key| {
                all.get(&key)
                    .map(|(_, value)| (key.clone(), Value::from(value.clone())))
                    .ok_or_else(key_missing)
            })
            .collect::<ApiResult<_>>()?,
    };
    Ok(Outcome::default().reply("storage", storage))
}

/// `PUT /bot_storage`: sets the entries of `storage` (a JSON object of strings).
pub fn update_storage(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_bot(actor)?;
    let Json(storage) = params.required::<Json<BTreeMap<String, String>>>("storage")?;
    let all = entries(store, actor)?;
    let mut total: usize = all.iter().map(|(key, (_, value))| size(key, value)).sum();
    for (key, value) in &storage {
        total = total + size(key, value) - all.get(key).map_or(0, |(_, old)| size(key, old));
    }
    if total > STORAGE_LIMIT {
        return Err(ApiError::bad_request(format!(
            "Request exceeds storage limit by {} characters. The limit is {STORAGE_LIMIT} characters.",
            total - STORAGE_LIMIT
        )));
    }
    let mut ids = new_ids(store)?;
    let changes = storage
        .into_iter()
        .map(|(key, value)| {
            let id = all.get(&key).map_or_else(|| ids.take(), |(id, _)| *id);
            Change::PutRecord {
                user: actor.user.id,
                kind: RecordKind::BotStorage,
                id,
                value: json!({"key": key, "value": value}),
            }
        })
        .collect();
    Ok(Outcome { changes, ..Outcome::default() })
}

/// `DELETE /bot_storage`: removes the entries of `keys`, or all of them.
pub fn remove_storage(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_bot(actor)?;
    let all = entries(store, actor)?;
    let ids: Vec<u64> = match requested_keys(params)? {
        None => all.values().map(|(id, _)| *id).collect(),
        Some(keys) => keys
            .iter()
            .map(|key| all.get(key).map(|(id, _)| *id).ok_or_else(key_missing))
            .collect::<ApiResult<_>>()?,
    };
    let changes = ids
        .into_iter()
        .map(|id| Change::DeleteRecord { user: actor.user.id, kind: RecordKind::BotStorage, id })
        .collect();
    Ok(Outcome { changes, ..Outcome::default() })
}
