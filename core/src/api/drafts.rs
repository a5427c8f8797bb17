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

use super::messages::{check_content, truncate_topic};
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

/// The name Zulip's `typed_endpoint` gives a field inside a parameter: `drafts[0]["to"]`.
fn at(label: &str, key: &str) -> String {
    format!("{label}[\"{key}\"]")
}

/// A draft's fields as sent, checked as Zulip's `DraftData` model is (strict types, no other
/// fields), with Zulip's texts for each refusal.
struct SentDraft<'a> {
    kind: &'a str,
    to: Vec<i64>,
    topic: &'a str,
    content: &'a str,
    timestamp: Option<f64>,
}

fn sent_draft<'a>(draft: &'a Value, label: &str) -> ApiResult<SentDraft<'a>> {
    let Value::Object(fields) = draft else {
        return Err(ApiError::bad_request(format!("{label} is not a dict")));
    };
    let field = |key: &str| {
        fields.get(key).ok_or_else(|| ApiError::bad_request(format!("Missing '{}' argument", at(label, key))))
    };
    let kind = match field("type")?.as_str() {
        Some(kind @ ("" | "stream" | "private")) => kind,
        _ => return Err(ApiError::bad_request(format!("Invalid {}", at(label, "type")))),
    };
    let Value::Array(items) = field("to")? else {
        return Err(ApiError::bad_request(format!("{} is not a list", at(label, "to"))));
    };
    let to = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_i64()
                .ok_or_else(|| ApiError::bad_request(format!("{}[{i}] is not an integer", at(label, "to"))))
        })
        .collect::<ApiResult<Vec<i64>>>()?;
    let topic = field("topic")?
        .as_str()
        .ok_or_else(|| ApiError::bad_request(format!("{} is not a string", at(label, "topic"))))?;
    let content = field("content")?
        .as_str()
        .ok_or_else(|| ApiError::bad_request(format!("{} is not a string", at(label, "content"))))?
        .trim();
    if content.is_empty() {
        return Err(ApiError::bad_request(format!("{} cannot be blank", at(label, "content"))));
    }
    let timestamp = match fields.get("timestamp") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        // Pydantic tries the union's first member first and names it in the location.
        Some(_) => {
            return Err(ApiError::bad_request(format!(
                "{}[\"int\"] is not an integer",
                at(label, "timestamp")
            )));
        }
    };
    if let Some(extra) =
        fields.keys().find(|k| !["type", "to", "topic", "content", "timestamp"].contains(&k.as_str()))
    {
        return Err(ApiError::bad_request(format!(
            "Argument \"{extra}\" at {} is unexpected",
            at(label, extra)
        )));
    }
    Ok(SentDraft { kind, to, topic, content, timestamp })
}

/// A draft as sent (spec 2.6), checked and normalized as Zulip's `further_validated_draft_dict`:
/// the stored form, without its id. Like Zulip, a direct-message draft is stored as its
/// conversation: the other participants (yourself alone for a note to self), and a draft to
/// nobody is unaddressed.
fn checked_draft(store: &impl Store, actor: &Actor, sent: SentDraft, now: i64) -> ApiResult<Value> {
    let content = check_content(sent.content)?;
    let timestamp = sent.timestamp.unwrap_or(now as f64);
    if timestamp < 0.0 {
        return Err(ApiError::bad_request("Timestamp must not be negative."));
    }
    let (kind, to, topic) = match sent.kind {
        "stream" => {
            let topic = truncate_topic(sent.topic);
            if topic.contains('\0') {
                return Err(ApiError::bad_request("Topic must not contain null bytes"));
            }
            let [id] = sent.to.as_slice() else {
                return Err(ApiError::bad_request("Must specify exactly 1 channel ID for channel messages"));
            };
            let stream = match u64::try_from(*id) {
                Ok(id) => stream_in_realm(store, actor, StreamId(id))?,
                Err(_) => None,
            };
            let stream = stream
                .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false))
                .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
            ("stream", vec![stream.id.0], topic)
        }
        "private" if !sent.to.is_empty() => {
            let mut users = Vec::with_capacity(sent.to.len());
            for id in sent.to {
                let user = u64::try_from(id)
                    .ok()
                    .and_then(|id| store.user(UserId(id)).transpose())
                    .transpose()?
                    .filter(|u| u.realm_id == actor.realm.id && u.is_active);
                users.push(user.ok_or_else(|| ApiError::bad_request(format!("Invalid user ID {id}")))?.id.0);
            }
            users.sort_unstable();
            users.dedup();
            let others: Vec<u64> = users.iter().copied().filter(|u| *u != actor.user.id.0).collect();
            ("private", if others.is_empty() { vec![actor.user.id.0] } else { others }, String::new())
        }
        _ => ("", Vec::new(), String::new()),
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
/// Zulip's order: by last edit, oldest first.
pub fn drafts_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    let drafts = records(store, user, RecordKind::Draft)?;
    let mut drafts: Vec<Value> = drafts.iter().map(|(id, draft)| shown(*id, draft)).collect();
    drafts.sort_by_key(draft_order);
    Ok(Value::Array(drafts))
}

/// Where a draft (as shown, with its `id`) stands in the list: events keep a client's copy in
/// the same order (`events::apply_event`).
pub(crate) fn draft_order(draft: &Value) -> (i64, u64) {
    (draft["timestamp"].as_i64().unwrap_or_default(), draft["id"].as_u64().unwrap_or_default())
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
    // Every draft's form is checked before any draft's content, as Zulip's parameter parsing
    // precedes its checks.
    let labels: Vec<String> = (0..sent.len()).map(|index| format!("drafts[{index}]")).collect();
    let forms = sent
        .iter()
        .zip(&labels)
        .map(|(draft, label)| sent_draft(draft, label))
        .collect::<ApiResult<Vec<_>>>()?;
    let mut created = Vec::with_capacity(forms.len());
    for form in forms {
        let draft = checked_draft(store, actor, form, now)?;
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
    // The draft's form is checked before it is looked up, its content after, as in Zulip.
    let sent = sent_draft(&sent, "draft")?;
    record(store, actor.user.id, RecordKind::Draft, id)?.ok_or_else(not_found)?;
    let draft = checked_draft(store, actor, sent, now)?;
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
