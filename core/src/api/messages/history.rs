//! GET /messages/{message_id}/history   get_message_history

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::html_diff::highlight_html_differences;
use crate::ids::MessageId;
use crate::model::{EditRecord, Message};
use crate::params::Params;
use crate::store::Store;
use crate::wire::EMPTY_TOPIC_DISPLAY_NAME;

use super::access::readable_message;

/// The state of a message after one edit: what the history endpoint calls a snapshot.
struct State {
    topic: String,
    content: String,
    rendered_content: String,
}

/// `edit_history` entries as the API shows them on messages: newest first, only what changed.
/// Content fields are dropped under the `moves` visibility policy; nothing is shown under `none`.
/// Without `allow_empty_topic_name` the empty topic reads as `realm_empty_topic_display_name`,
/// as in Zulip's `finalize_payload`.
pub fn edit_history_json(message: &Message, policy: &str, allow_empty_topic_name: bool) -> Option<Value> {
    if message.edit_history.is_empty() || policy == "none" {
        return None;
    }
    let entries: Vec<Value> = message
        .edit_history
        .iter()
        .rev()
        .filter_map(|record| {
            let mut entry = serde_json::to_value(record).ok()?;
            if !allow_empty_topic_name {
                for key in ["prev_topic", "topic"] {
                    if entry.get(key).and_then(Value::as_str) == Some("") {
                        entry[key] = EMPTY_TOPIC_DISPLAY_NAME.into();
                    }
                }
            }
            if policy == "moves" {
                let fields = entry.as_object_mut()?;
                fields.remove("prev_content");
                fields.remove("prev_rendered_content");
                if !fields.contains_key("prev_topic") && !fields.contains_key("prev_stream") {
                    return None;
                }
            }
            Some(entry)
        })
        .collect();
    Some(Value::Array(entries))
}

/// `GET /messages/{message_id}/history` (spec 4.10): snapshots oldest to newest, rebuilt by
/// walking the edit records back from the current state.
pub fn get_message_history(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
) -> ApiResult<Outcome> {
    let allow_empty_topic_name = params.or("allow_empty_topic_name", false)?;
    let message = readable_message(store, actor, id)?;
    if actor.realm.settings.message_edit_history_visibility_policy == "none" {
        return Err(ApiError::bad_request("Message edit history is disabled in this organization"));
    }
    let shown_topic = |topic: &str| -> String {
        if topic.is_empty() && !allow_empty_topic_name {
            EMPTY_TOPIC_DISPLAY_NAME.to_owned()
        } else {
            topic.to_owned()
        }
    };
    // Walk back from the current state to the original, remembering each state.
    let mut state = State {
        topic: message.topic().to_owned(),
        content: message.content.clone(),
        rendered_content: message.rendered_content.html(),
    };
    let mut snapshots: Vec<Value> = Vec::new();
    for record in message.edit_history.iter().rev() {
        snapshots.push(snapshot_after(record, &state, &shown_topic));
        if let Some(prev) = &record.prev_topic {
            state.topic = prev.clone();
        }
        if let (Some(prev), Some(prev_rendered)) = (&record.prev_content, &record.prev_rendered_content) {
            state.content = prev.clone();
            state.rendered_content = prev_rendered.clone();
        }
    }
    snapshots.push(json!({
        "topic": shown_topic(&state.topic),
        "content": state.content,
        "rendered_content": state.rendered_content,
        "timestamp": message.timestamp,
        "user_id": message.sender_id,
    }));
    snapshots.reverse();
    if actor.realm.settings.message_edit_history_visibility_policy == "moves" {
        snapshots = only_moves_visible(snapshots);
    }
    Ok(Outcome::default().reply("message_history", snapshots))
}

/// The snapshots an organization that shows only moves lets anyone see (Zulip's
/// `visible_edit_history_for_message`, feature level 358): a content edit is left out, and one
/// that also renamed the topic keeps only the rename.
fn only_moves_visible(snapshots: Vec<Value>) -> Vec<Value> {
    snapshots
        .into_iter()
        .filter_map(|mut snapshot| {
            let fields = snapshot.as_object_mut()?;
            if fields.contains_key("prev_content") {
                if !fields.contains_key("prev_topic") {
                    return None;
                }
                for name in ["prev_content", "prev_rendered_content", "content_html_diff"] {
                    fields.remove(name);
                }
            }
            Some(snapshot)
        })
        .collect()
}

/// The snapshot of the state `after` an edit, with what that edit changed.
fn snapshot_after(record: &EditRecord, after: &State, shown_topic: &impl Fn(&str) -> String) -> Value {
    let mut snapshot = json!({
        "topic": shown_topic(&after.topic),
        "content": after.content,
        "rendered_content": after.rendered_content,
        "timestamp": record.timestamp,
        "user_id": record.user_id,
    });
    if let Some(prev) = &record.prev_topic {
        snapshot["prev_topic"] = shown_topic(prev).into();
    }
    if let (Some(prev), Some(stream)) = (record.prev_stream, record.stream) {
        snapshot["prev_stream"] = json!(prev);
        snapshot["stream"] = json!(stream);
    }
    if let (Some(prev), Some(prev_rendered)) = (&record.prev_content, &record.prev_rendered_content) {
        snapshot["prev_content"] = prev.clone().into();
        snapshot["prev_rendered_content"] = prev_rendered.clone().into();
        snapshot["content_html_diff"] =
            highlight_html_differences(prev_rendered, &after.rendered_content).into();
    }
    snapshot
}
