//! New messages, flags, deletions and edits: `max_message_id`, `unread_msgs` and
//! `starred_messages`.

use serde_json::{Map, Value, json};

use super::{list_mut, str_of};
use crate::api::narrow::TopicVisibility;

/// A new message. `max_message_id` only grows: after a deletion a client cannot know which
/// message is now the newest, so it keeps the old maximum (Zulip's asks its database).
pub(super) fn apply_message(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    let message = &event["message"];
    let id = message["id"].as_u64().unwrap_or_default();
    if let Some(max) = state.get_mut("max_message_id") {
        *max = json!(max.as_i64().unwrap_or(-1).max(id as i64));
    }
    let flags: Vec<&str> =
        event["flags"].as_array().map(|f| f.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    if !flags.contains(&"read") {
        add_unread(state, message, &flags, user_id);
    }
    if str_of(message, "type") == "private" {
        note_recent_conversation(state, message, id, user_id);
    }
}

/// A direct message makes its conversation the most recent one (register lists them newest
/// first, each with the other participants, sorted, and its newest message).
fn note_recent_conversation(state: &mut Map<String, Value>, message: &Value, id: u64, user_id: u64) {
    let Some(conversations) = list_mut(state, "recent_private_conversations") else { return };
    let mut others: Vec<u64> = message["display_recipient"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["id"].as_u64())
        .filter(|id| *id != user_id)
        .collect();
    others.sort_unstable();
    others.dedup();
    let previous = conversations.iter().position(|c| c["user_ids"] == json!(others));
    let max = previous.map_or(id, |at| conversations[at]["max_message_id"].as_u64().unwrap_or_default().max(id));
    if let Some(at) = previous {
        conversations.remove(at);
    }
    let at = conversations
        .iter()
        .position(|c| c["max_message_id"].as_u64().unwrap_or_default() < max)
        .unwrap_or(conversations.len());
    conversations.insert(at, json!({"user_ids": others, "max_message_id": max}));
}

/// Whether the state's user muted a channel message's conversation, as far as the state
/// knows: its `subscriptions` (muted channels) and `user_topics` (muted, unmuted and followed
/// topics, matched case-insensitively), or for older clients the legacy `muted_topics`
/// (channel names). Without them nothing counts as muted.
pub(super) fn muted_in_state(state: &Map<String, Value>, message: &Value) -> bool {
    str_of(message, "type") == "stream"
        && muted_conversation(state, &message["stream_id"], str_of(message, "subject"))
}

pub(super) fn muted_conversation(state: &Map<String, Value>, stream_id: &Value, topic: &str) -> bool {
    let list = |key: &str| state.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let channel_muted =
        list("subscriptions").iter().any(|s| s["stream_id"] == *stream_id && s["is_muted"] == true);
    let topic = topic.to_lowercase();
    let policy = if state.contains_key("user_topics") {
        list("user_topics")
            .iter()
            .find(|t| t["stream_id"] == *stream_id && str_of(t, "topic_name").to_lowercase() == topic)
            .and_then(|t| t["visibility_policy"].as_i64())
            .unwrap_or_default()
    } else {
        // `[channel name, topic, muted since]`.
        let name = list("subscriptions").iter().find(|s| s["stream_id"] == *stream_id).map(|s| &s["name"]);
        let muted = list("muted_topics").iter().any(|t| {
            name.is_some_and(|name| t[0] == *name) && t[1].as_str().is_some_and(|t| t.to_lowercase() == topic)
        });
        if muted { MUTED_POLICY } else { 0 }
    };
    TopicVisibility::from_policy(policy).mutes(channel_muted)
}

/// Zulip's `UserTopic.VisibilityPolicy.MUTED`.
const MUTED_POLICY: i64 = 1;

/// Whether each of `unread_msgs`' channel conversations is muted, before a change to muting.
pub(super) fn unread_muting(state: &Map<String, Value>) -> Vec<bool> {
    let entries = state.get("unread_msgs").and_then(|u| u["streams"].as_array());
    entries
        .into_iter()
        .flatten()
        .map(|e| muted_conversation(state, &e["stream_id"], str_of(e, "topic")))
        .collect()
}

/// After a change to muting: register counts only unmuted conversations, so the count follows
/// the conversations whose muting changed. Their wildcard mentions cannot follow: the state
/// does not tell them from direct mentions (Zulip's per-message unread data does).
pub(super) fn recount_after_muting(state: &mut Map<String, Value>, before: &[bool]) {
    let after = unread_muting(state);
    let Some(Value::Object(unread)) = state.get_mut("unread_msgs") else { return };
    let sizes: Vec<i64> = unread["streams"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["unread_message_ids"].as_array().map_or(0, Vec::len) as i64)
        .collect();
    let mut delta = 0i64;
    for ((was, is), size) in before.iter().zip(&after).zip(&sizes) {
        match (was, is) {
            (true, false) => delta += size,
            (false, true) => delta -= size,
            _ => {}
        }
    }
    if delta != 0
        && let Some(count) = unread.get_mut("count")
    {
        *count = json!((count.as_i64().unwrap_or_default() + delta).max(0));
    }
}

/// Files an unread message in `unread_msgs` as register groups it: a muted conversation's
/// messages are listed but not counted, and their wildcard mentions are not mentions.
pub(super) fn add_unread(state: &mut Map<String, Value>, message: &Value, flags: &[&str], user_id: u64) {
    let muted = muted_in_state(state, message);
    let Some(Value::Object(unread)) = state.get_mut("unread_msgs") else { return };
    let id = message["id"].clone();
    // Ids stay in ascending order; a conversation is spelled as its oldest unread message
    // spells it, so a moved message older than the rest brings its spelling.
    let push = |list: &mut Value, matches: &dyn Fn(&Value) -> bool, fresh: Value| {
        let Some(entries) = list.as_array_mut() else { return };
        let Some(entry) = entries.iter_mut().find(|e| matches(e)) else { return entries.push(fresh) };
        let Some(ids) = entry["unread_message_ids"].as_array_mut() else { return };
        let at = ids.iter().position(|other| other.as_u64() > id.as_u64()).unwrap_or(ids.len());
        ids.insert(at, id.clone());
        if at == 0 && fresh.get("topic").is_some() {
            entry["topic"] = fresh["topic"].clone();
        }
    };
    if str_of(message, "type") == "stream" {
        let stream_id = message["stream_id"].clone();
        let topic = str_of(message, "subject").to_owned();
        let lower = topic.to_lowercase();
        let fresh = json!({"stream_id": stream_id, "topic": topic, "unread_message_ids": [id]});
        if let Some(list) = unread.get_mut("streams") {
            push(list, &|e| e["stream_id"] == stream_id && str_of(e, "topic").to_lowercase() == lower, fresh);
        }
    } else {
        let recipients: Vec<u64> = message["display_recipient"]
            .as_array()
            .map(|r| r.iter().filter_map(|u| u["id"].as_u64()).collect())
            .unwrap_or_default();
        if recipients.len() <= 2 {
            // Conversations are keyed by the other participant, as this user sees them.
            let other = recipients.iter().copied().find(|u| *u != user_id).unwrap_or(user_id);
            let fresh = json!({"other_user_id": other, "sender_id": other, "unread_message_ids": [id]});
            if let Some(list) = unread.get_mut("pms") {
                push(list, &|e| e["other_user_id"] == other, fresh);
            }
        } else {
            let mut sorted = recipients.clone();
            sorted.sort_unstable();
            let key = sorted.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            let fresh = json!({"user_ids_string": key, "unread_message_ids": [id]});
            if let Some(list) = unread.get_mut("huddles") {
                push(list, &|e| str_of(e, "user_ids_string") == key, fresh);
            }
        }
    }
    let mentioned = flags.iter().any(|f| ["mentioned", "group_mentioned"].contains(f))
        || (!muted
            && flags.iter().any(|f| ["stream_wildcard_mentioned", "topic_wildcard_mentioned"].contains(f)));
    if mentioned && let Some(Value::Array(mentions)) = unread.get_mut("mentions") {
        mentions.push(id.clone());
    }
    if !muted && let Some(count) = unread.get_mut("count") {
        *count = json!(count.as_u64().unwrap_or_default() + 1);
    }
}

/// Takes messages out of `unread_msgs`, dropping groups left empty.
pub(super) fn remove_unread(state: &mut Map<String, Value>, ids: &[u64]) {
    // Muted conversations were never counted.
    let muted_streams: Vec<bool> = state
        .get("unread_msgs")
        .and_then(|unread| unread["streams"].as_array())
        .map(|entries| {
            entries.iter().map(|e| muted_conversation(state, &e["stream_id"], str_of(e, "topic"))).collect()
        })
        .unwrap_or_default();
    let Some(Value::Object(unread)) = state.get_mut("unread_msgs") else { return };
    let mut removed = 0u64;
    for key in ["streams", "pms", "huddles"] {
        let Some(Value::Array(entries)) = unread.get_mut(key) else { continue };
        for (index, entry) in entries.iter_mut().enumerate() {
            let counted = key != "streams" || !muted_streams.get(index).copied().unwrap_or_default();
            if let Some(list) = entry["unread_message_ids"].as_array_mut() {
                let before = list.len();
                list.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
                if counted {
                    removed += (before - list.len()) as u64;
                }
            }
        }
        entries.retain(|e| e["unread_message_ids"].as_array().is_some_and(|l| !l.is_empty()));
    }
    if let Some(Value::Array(mentions)) = unread.get_mut("mentions") {
        mentions.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
    }
    if let Some(count) = unread.get_mut("count") {
        *count = json!(count.as_u64().unwrap_or_default().saturating_sub(removed));
    }
}

pub(super) fn apply_flags(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    let ids: Vec<u64> = event["messages"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let adding = str_of(event, "op") == "add";
    // Changing a flag of a message the user never received gives them a (historical) copy,
    // which `max_message_id` counts.
    if let (Some(max), Some(newest)) = (state.get_mut("max_message_id"), ids.iter().max()) {
        *max = json!(max.as_i64().unwrap_or(-1).max(*newest as i64));
    }
    match str_of(event, "flag") {
        "read" if adding => remove_unread(state, &ids),
        "read" => {
            // Marking unread carries each message's conversation, and whether it is a mention
            // as register counts them (a muted conversation's wildcards are not).
            if let Some(Value::Object(details)) = event.get("message_details") {
                for id in &ids {
                    let Some(detail) = details.get(&id.to_string()) else { continue };
                    let mut message = json!({"id": id, "type": detail["type"]});
                    if detail["type"] == "stream" {
                        message["stream_id"] = detail["stream_id"].clone();
                        message["subject"] = detail["topic"].clone();
                    } else {
                        // The details name the others; the conversation includes the user.
                        let mut users = detail["user_ids"].as_array().cloned().unwrap_or_default();
                        users.push(json!(user_id));
                        message["display_recipient"] =
                            Value::Array(users.into_iter().map(|u| json!({"id": u})).collect());
                    }
                    let flags: Vec<&str> =
                        if detail["mentioned"] == true { vec!["mentioned"] } else { Vec::new() };
                    add_unread(state, &message, &flags, user_id);
                }
            }
        }
        "starred" => {
            if let Some(starred) = list_mut(state, "starred_messages") {
                if adding {
                    // Listed once, however often the event comes (a client may star at once).
                    let fresh: Vec<Value> =
                        ids.iter().map(|id| json!(id)).filter(|id| !starred.contains(id)).collect();
                    starred.extend(fresh);
                } else {
                    starred.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
                }
            }
        }
        _ => {}
    }
}

/// An edited or moved message (Zulip's `update_message`). Only unread messages are in the
/// state. A move refiles them under their new conversation, or drops them when they land in a
/// channel the state shows the user is not subscribed to (register leaves such channels out);
/// the edited message's mention follows the user's `flags` in the event.
///
/// The event carries the flags of the edited message only, so the other moved messages keep
/// their mention as it was: a wildcard mention moved across muting cannot be told from a
/// direct one, nor can a conversation's spelling be known when its oldest message leaves
/// (Zulip's per-message unread data has neither blind spot; the register shape has both).
pub(super) fn apply_update_message(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    let target = event["message_id"].as_u64();
    let mut ids = super::message_ids(event);
    ids.extend(target.filter(|id| !ids.contains(id)));
    let flags: Vec<&str> =
        event["flags"].as_array().map(|f| f.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let moving = event.get("subject").is_some() || event.get("new_stream_id").is_some();
    let mut unread: Vec<(u64, Value, bool)> = Vec::new();
    for id in ids {
        if let Some((message, mentioned)) = unread_message(state, id) {
            unread.push((id, message, mentioned));
        }
    }
    let subscribed = |state: &Map<String, Value>, stream_id: &Value| {
        state
            .get("subscriptions")
            .and_then(Value::as_array)
            .is_none_or(|subs| subs.iter().any(|s| s["stream_id"] == *stream_id))
    };
    for (id, mut message, mentioned) in unread {
        let edited = Some(id) == target;
        if !edited && !moving {
            continue;
        }
        remove_unread(state, &[id]);
        if message["type"] == "stream" {
            if let Some(stream_id) = event.get("new_stream_id") {
                message["stream_id"] = stream_id.clone();
            }
            if let Some(topic) = event.get("subject") {
                message["subject"] = topic.clone();
            }
            if !subscribed(state, &message["stream_id"]) {
                continue;
            }
        }
        let kept: &[&str] = if mentioned { &["mentioned"] } else { &[] };
        add_unread(state, &message, if edited { &flags } else { kept }, user_id);
    }
}

/// An unread message as far as the state tells: its conversation in the shape of a message
/// event, and whether it counts as a mention.
fn unread_message(state: &Map<String, Value>, id: u64) -> Option<(Value, bool)> {
    let unread = state.get("unread_msgs")?;
    let holds = |entry: &&Value| {
        entry["unread_message_ids"].as_array().is_some_and(|ids| ids.iter().any(|i| i.as_u64() == Some(id)))
    };
    let list = |key: &str| unread[key].as_array().into_iter().flatten();
    let message = if let Some(entry) = list("streams").find(holds) {
        json!({"id": id, "type": "stream", "stream_id": entry["stream_id"], "subject": entry["topic"]})
    } else if let Some(entry) = list("pms").find(holds) {
        json!({"id": id, "type": "private", "display_recipient": [{"id": entry["other_user_id"]}]})
    } else if let Some(entry) = list("huddles").find(holds) {
        let users: Vec<Value> = str_of(entry, "user_ids_string")
            .split(',')
            .filter_map(|u| u.parse::<u64>().ok())
            .map(|u| json!({"id": u}))
            .collect();
        json!({"id": id, "type": "private", "display_recipient": users})
    } else {
        return None;
    };
    let mentioned = list("mentions").any(|m| m.as_u64() == Some(id));
    Some((message, mentioned))
}

/// A reaction changes nothing register shows, except that reacting to a message one never
/// received gives one a (historical) copy, which `max_message_id` counts.
pub(super) fn apply_reaction(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    if str_of(event, "op") != "add" || event["user_id"].as_u64() != Some(user_id) {
        return;
    }
    if let (Some(max), Some(id)) = (state.get_mut("max_message_id"), event["message_id"].as_i64()) {
        *max = json!(max.as_i64().unwrap_or(-1).max(id));
    }
}
