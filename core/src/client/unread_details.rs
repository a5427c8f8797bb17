//! Which messages register's `unread_msgs` lists, and each one's conversation in the shape of
//! Zulip's `message_details` (what a "marked unread" event carries), so that an operation that
//! took messages out of the unread lists can file them back exactly where they were.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

fn entries<'a>(state: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    state.get("unread_msgs").and_then(|u| u[key].as_array()).into_iter().flatten()
}

fn holds(entry: &Value, id: u64) -> bool {
    entry["unread_message_ids"].as_array().is_some_and(|ids| ids.iter().any(|i| i.as_u64() == Some(id)))
}

/// Every message the state lists as unread (muted conversations' too).
pub fn unread_ids(state: &Map<String, Value>) -> BTreeSet<u64> {
    ["streams", "pms", "huddles"]
        .into_iter()
        .flat_map(|key| entries(state, key))
        .flat_map(|entry| entry["unread_message_ids"].as_array().into_iter().flatten())
        .filter_map(Value::as_u64)
        .collect()
}

/// One unread message's `message_details` entry (its conversation, the other participants,
/// and whether it counts as a mention), or `None` if the state does not list it.
pub fn unread_detail(state: &Map<String, Value>, id: u64, user_id: u64) -> Option<Value> {
    let mentioned = entries(state, "mentions").any(|m| m.as_u64() == Some(id));
    if let Some(entry) = entries(state, "streams").find(|e| holds(e, id)) {
        return Some(json!({
            "type": "stream",
            "stream_id": entry["stream_id"],
            "topic": entry["topic"],
            "mentioned": mentioned,
        }));
    }
    if let Some(entry) = entries(state, "pms").find(|e| holds(e, id)) {
        return Some(
            json!({"type": "private", "user_ids": [entry["other_user_id"]], "mentioned": mentioned}),
        );
    }
    let entry = entries(state, "huddles").find(|e| holds(e, id))?;
    let others: Vec<u64> = entry["user_ids_string"]
        .as_str()
        .unwrap_or_default()
        .split(',')
        .filter_map(|u| u.parse().ok())
        .filter(|u| *u != user_id)
        .collect();
    Some(json!({"type": "private", "user_ids": others, "mentioned": mentioned}))
}

/// `message_details` for those of `ids` the state lists as unread.
pub fn unread_details(state: &Map<String, Value>, ids: &[u64], user_id: u64) -> Map<String, Value> {
    ids.iter().filter_map(|id| Some((id.to_string(), unread_detail(state, *id, user_id)?))).collect()
}
