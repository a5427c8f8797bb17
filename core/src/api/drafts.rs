//! GET    /drafts              get_drafts
//! POST   /drafts              create_drafts
//! PATCH  /drafts/{draft_id}   edit_draft
//! DELETE /drafts/{draft_id}   delete_draft
//!
//! Drafts (spec 2.6) synchronized between a user's clients: each change is a `drafts` event to
//! the user's other clients. Users who turned `enable_drafts_synchronization` off keep their
//! drafts to themselves, and the server refuses them as Zulip does.

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{StreamId, UserId};
use crate::model::RecordKind;
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::messages::{check_content, check_topic};
use super::records::{deleted, new_ids, record, records, stored, to_own_clients};
use super::streams::{has_content_access, stream_in_realm};

fn not_found() -> ApiError {
    ApiError::bad_request("Draft does not exist").with_status(404)
}

/// Zulip's `draft_endpoint`: drafts are kept only for users who synchronize them.
fn check_synchronizing(store: &impl Store, actor: &Actor) -> ApiResult<()> {
    let settings = super::settings::settings_of(store, &actor.user)?;
    if settings.get("enable_drafts_synchronization") == Some(&Value::Bool(false)) {
        return Err(ApiError::bad_request("User has disabled synchronizing drafts."));
    }
    Ok(())
}

/// A draft as sent (spec 2.6), checked and normalized as Zulip's `further_validated_draft_dict`:
/// the stored form, without its id.
fn checked_draft(
    store: &impl Store,
    actor: &Actor,
    draft: &Value,
    label: &str,
    now: i64,
) -> ApiResult<Value> {
    let Value::Object(fields) = draft else {
        return Err(ApiError::bad_request(format!("{label} is not a dict")));
    };
    if let Some(extra) =
        fields.keys().find(|k| !["type", "to", "topic", "content", "timestamp"].contains(&k.as_str()))
    {
        return Err(ApiError::bad_request(format!("{label}.{extra}: Extra inputs are not permitted")));
    }
    let missing = |key: &str| ApiError::bad_request(format!("{label}.{key}: Field required"));
    let kind = fields.get("type").ok_or_else(|| missing("type"))?;
    let kind = match kind.as_str() {
        Some(kind @ ("" | "stream" | "private")) => kind,
        _ => {
            return Err(ApiError::bad_request(format!(
                "{label}.type: Input should be 'private', 'stream' or ''"
            )));
        }
    };
    let to: Vec<u64> = serde_json::from_value(fields.get("to").ok_or_else(|| missing("to"))?.clone())
        .map_err(|_| {
            ApiError::bad_request(format!("{label}.to: Input should be a valid list of integers"))
        })?;
    let topic = fields.get("topic").ok_or_else(|| missing("topic"))?;
    let topic =
        topic.as_str().ok_or_else(|| ApiError::bad_request(format!("{label}.topic is not a string")))?;
    let content = fields.get("content").ok_or_else(|| missing("content"))?;
    let content =
        content.as_str().ok_or_else(|| ApiError::bad_request(format!("{label}.content is not a string")))?;
    if content.trim().is_empty() {
        return Err(ApiError::bad_request(format!("{label}.content cannot be blank")));
    }
    let content = check_content(content)?;
    let timestamp = match fields.get("timestamp") {
        None | Some(Value::Null) => now as f64,
        Some(value) => value.as_f64().ok_or_else(|| {
            ApiError::bad_request(format!("{label}.timestamp: Input should be a valid number"))
        })?,
    };
    if timestamp < 0.0 {
        return Err(ApiError::bad_request("Timestamp must not be negative."));
    }
    let (to, topic) = match kind {
        "stream" => {
            if topic.contains('\0') {
                return Err(ApiError::bad_request("Topic must not contain null bytes"));
            }
            let [id] = to.as_slice() else {
                return Err(ApiError::bad_request("Must specify exactly 1 channel ID for channel messages"));
            };
            let stream = stream_in_realm(store, actor, StreamId(*id))?
                .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false))
                .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
            (vec![stream.id.0], check_topic(topic)?)
        }
        "private" => {
            let mut users = Vec::with_capacity(to.len());
            for id in to {
                let user = store.user(UserId(id))?.filter(|u| u.realm_id == actor.realm.id && u.is_active);
                users.push(user.ok_or_else(|| ApiError::bad_request(format!("Invalid user ID {id}")))?.id.0);
            }
            users.sort_unstable();
            users.dedup();
            (users, String::new())
        }
        _ => (Vec::new(), String::new()),
    };
    // Zulip keeps six decimal places of the edit time and answers with a whole second.
    Ok(
        json!({"type": kind, "to": to, "topic": topic, "content": content, "timestamp": timestamp.round() as i64}),
    )
}

fn shown(id: u64, draft: &Value) -> Value {
    let mut draft = draft.clone();
    draft["id"] = id.into();
    draft
}

/// The user's drafts, as register and `GET /drafts` show them.
pub fn drafts_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    Ok(records(store, user, RecordKind::Draft)?.iter().map(|(id, draft)| shown(*id, draft)).collect())
}

/// `GET /drafts`.
pub fn get_drafts(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    check_synchronizing(store, actor)?;
    let drafts = drafts_json(store, actor.user.id)?;
    let count = drafts.as_array().map_or(0, Vec::len);
    Ok(Outcome::default().reply("count", count).reply("drafts", drafts))
}

/// `POST /drafts`: answers the new drafts' `ids`, in order.
pub fn create_drafts(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    check_synchronizing(store, actor)?;
    let Json(sent) = params.required::<Json<Vec<Value>>>("drafts")?;
    let mut ids = new_ids(store)?;
    let mut outcome = Outcome::default();
    let mut created = Vec::with_capacity(sent.len());
    for (index, draft) in sent.iter().enumerate() {
        let draft = checked_draft(store, actor, draft, &format!("drafts[{index}]"), now)?;
        let id = ids.take();
        outcome.changes.push(Change::PutRecord {
            user: actor.user.id,
            kind: RecordKind::Draft,
            id,
            value: draft.clone(),
        });
        created.push((id, draft));
    }
    let shown_drafts: Vec<Value> = created.iter().map(|(id, draft)| shown(*id, draft)).collect();
    outcome
        .events
        .push(to_own_clients(actor.user.id, json!({"type": "drafts", "op": "add", "drafts": shown_drafts})));
    let ids: Vec<u64> = created.iter().map(|(id, _)| *id).collect();
    Ok(outcome.reply("ids", ids))
}

/// `PATCH /drafts/{draft_id}` (spec 4.8).
pub fn edit_draft(
    store: &impl Store,
    actor: &Actor,
    id: u64,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    check_synchronizing(store, actor)?;
    let Json(sent) = params.required::<Json<Value>>("draft")?;
    record(store, actor.user.id, RecordKind::Draft, id)?.ok_or_else(not_found)?;
    let draft = checked_draft(store, actor, &sent, "draft", now)?;
    let event = json!({"type": "drafts", "op": "update", "draft": shown(id, &draft)});
    Ok(stored(actor.user.id, RecordKind::Draft, id, draft, event))
}

/// `DELETE /drafts/{draft_id}`.
pub fn delete_draft(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    check_synchronizing(store, actor)?;
    record(store, actor.user.id, RecordKind::Draft, id)?.ok_or_else(not_found)?;
    let event = json!({"type": "drafts", "op": "remove", "draft_id": id});
    Ok(deleted(actor.user.id, RecordKind::Draft, id, event))
}
