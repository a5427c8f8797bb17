//! New messages, flags, deletions and edits: `max_message_id`, `unread_msgs` and
//! `starred_messages`.

use serde_json::{Map, Value, json};

use super::{list_mut, str_of};
use crate::api::narrow::TopicVisibility;
use crate::events::server_event::{
    EventMessage, FlagOp, MessageEvent, ReactionEvent, ReactionOp, UpdateMessageEvent,
    UpdateMessageFlagsEvent,
};

/// Where an unread message is, as far as `unread_msgs` tells: a channel's topic, or a direct
/// conversation by all its participants (the user included).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Conversation {
    Channel { stream_id: u64, topic: String },
    Direct { user_ids: Vec<u64> },
}

impl Conversation {
    fn of(message: &EventMessage) -> Conversation {
        match message.stream_id {
            Some(stream_id) if message.is_channel_message() => {
                Conversation::Channel { stream_id, topic: message.subject.clone() }
            }
            _ => Conversation::Direct { user_ids: message.display_recipient.user_ids() },
        }
    }
}

/// A new message. `max_message_id` only grows here: after a deletion a client cannot know which
/// message is now the newest, so it keeps the old maximum (Zulip's asks its database; the
/// client engine asks the server, see `client::repairs`).
pub(super) fn apply_message(state: &mut Map<String, Value>, event: &MessageEvent, user_id: u64) {
    let message = &event.message;
    raise_max_message_id(state, message.id);
    let flags: Vec<&str> = event.flags.iter().map(String::as_str).collect();
    if !flags.contains(&"read") {
        add_unread(state, message.id, &Conversation::of(message), &flags, user_id);
    }
    if !message.is_channel_message() {
        note_recent_conversation(state, &message.display_recipient.user_ids(), message.id, user_id);
    }
}

fn raise_max_message_id(state: &mut Map<String, Value>, id: u64) {
    if let Some(max) = state.get_mut("max_message_id") {
        *max = json!(max.as_i64().unwrap_or(-1).max(id as i64));
    }
}

/// A direct message makes its conversation the most recent one (register lists them newest
/// first, each with the other participants, sorted, and its newest message).
fn note_recent_conversation(state: &mut Map<String, Value>, participants: &[u64], id: u64, user_id: u64) {
    let Some(conversations) = list_mut(state, "recent_private_conversations") else { return };
    let mut others: Vec<u64> = participants.iter().copied().filter(|id| *id != user_id).collect();
    others.sort_unstable();
    others.dedup();
    let previous = conversations.iter().position(|c| c["user_ids"] == json!(others));
    let max =
        previous.map_or(id, |at| conversations[at]["max_message_id"].as_u64().unwrap_or_default().max(id));
    if let Some(at) = previous {
        conversations.remove(at);
    }
    let at = conversations
        .iter()
        .position(|c| c["max_message_id"].as_u64().unwrap_or_default() < max)
        .unwrap_or(conversations.len());
    conversations.insert(at, json!({"user_ids": others, "max_message_id": max}));
}

/// Whether the state's user muted a conversation, as far as the state knows: its
/// `subscriptions` (muted channels) and `user_topics` (muted, unmuted and followed topics,
/// matched case-insensitively), or for older clients the legacy `muted_topics` (channel
/// names). Without them nothing counts as muted; direct conversations never are.
fn muted_in_state(state: &Map<String, Value>, conversation: &Conversation) -> bool {
    match conversation {
        Conversation::Channel { stream_id, topic } => muted_conversation(state, &json!(stream_id), topic),
        Conversation::Direct { .. } => false,
    }
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
pub(super) fn add_unread(
    state: &mut Map<String, Value>,
    id: u64,
    conversation: &Conversation,
    flags: &[&str],
    user_id: u64,
) {
    let muted = muted_in_state(state, conversation);
    let Some(Value::Object(unread)) = state.get_mut("unread_msgs") else { return };
    match conversation {
        Conversation::Channel { stream_id, topic } => {
            let fresh = json!({"stream_id": stream_id, "topic": topic, "unread_message_ids": [id]});
            let key = |e: &Value| (e["stream_id"].as_u64(), str_of(e, "topic").to_lowercase());
            file_unread(unread.get_mut("streams"), key, fresh);
        }
        Conversation::Direct { user_ids } if user_ids.len() <= 2 => {
            // Conversations are keyed by the other participant, as this user sees them.
            let other = user_ids.iter().copied().find(|u| *u != user_id).unwrap_or(user_id);
            let fresh = json!({"other_user_id": other, "sender_id": other, "unread_message_ids": [id]});
            file_unread(unread.get_mut("pms"), |e| e["other_user_id"].as_u64(), fresh);
        }
        Conversation::Direct { user_ids } => {
            let mut sorted = user_ids.clone();
            sorted.sort_unstable();
            let key = sorted.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            let fresh = json!({"user_ids_string": key, "unread_message_ids": [id]});
            file_unread(unread.get_mut("huddles"), |e| str_of(e, "user_ids_string").to_owned(), fresh);
        }
    }
    let mentioned = flags.iter().any(|f| ["mentioned", "group_mentioned"].contains(f))
        || (!muted
            && flags.iter().any(|f| ["stream_wildcard_mentioned", "topic_wildcard_mentioned"].contains(f)));
    if mentioned && let Some(Value::Array(mentions)) = unread.get_mut("mentions") {
        mentions.push(json!(id));
    }
    if !muted && let Some(count) = unread.get_mut("count") {
        *count = json!(count.as_u64().unwrap_or_default() + 1);
    }
}

/// Files the one id of `fresh` (a group of one unread message) in a group list of
/// `unread_msgs`, kept as register sorts it: by `key` (the conversation), ids ascending. A
/// conversation is spelled as its oldest unread message spells it, so a moved message older
/// than the rest brings its spelling.
fn file_unread<K: Ord>(entries: Option<&mut Value>, key: impl Fn(&Value) -> K, fresh: Value) {
    let Some(entries) = entries.and_then(Value::as_array_mut) else { return };
    let wanted = key(&fresh);
    let Some(entry) = entries.iter_mut().find(|e| key(e) == wanted) else {
        let at = entries.iter().position(|e| key(e) > wanted).unwrap_or(entries.len());
        return entries.insert(at, fresh);
    };
    let id = fresh["unread_message_ids"][0].clone();
    let Some(ids) = entry["unread_message_ids"].as_array_mut() else { return };
    let at = ids.iter().position(|other| other.as_u64() > id.as_u64()).unwrap_or(ids.len());
    ids.insert(at, id);
    if at == 0 && fresh.get("topic").is_some() {
        entry["topic"] = fresh["topic"].clone();
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

/// Deleted messages leave the unread and the starred (register reads both from the messages
/// the user still has). What was the newest message, overall or of a direct conversation,
/// stays: only the server can tell which is now (see [`apply_message`]).
pub(super) fn apply_delete(state: &mut Map<String, Value>, ids: &[u64]) {
    remove_unread(state, ids);
    if let Some(starred) = list_mut(state, "starred_messages") {
        starred.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
    }
}

pub(super) fn apply_flags(state: &mut Map<String, Value>, event: &UpdateMessageFlagsEvent, user_id: u64) {
    let ids = &event.messages;
    let adding = event.op == FlagOp::Add;
    // Changing a flag of a message the user never received gives them a (historical) copy,
    // which `max_message_id` counts.
    if let Some(newest) = ids.iter().max() {
        raise_max_message_id(state, *newest);
    }
    match event.flag.as_str() {
        "read" if adding => remove_unread(state, ids),
        "read" => {
            // Marking unread carries each message's conversation, and whether it is a mention
            // as register counts them (a muted conversation's wildcards are not).
            let Some(details) = &event.message_details else { return };
            for id in ids {
                let Some(detail) = details.get(&id.to_string()) else { continue };
                let conversation = match (detail.kind.as_str(), detail.stream_id) {
                    ("stream", Some(stream_id)) => {
                        Conversation::Channel { stream_id, topic: detail.topic.clone().unwrap_or_default() }
                    }
                    // The details name the others; the conversation includes the user.
                    _ => {
                        let mut user_ids = detail.user_ids.clone().unwrap_or_default();
                        user_ids.push(user_id);
                        Conversation::Direct { user_ids }
                    }
                };
                let flags: &[&str] = if detail.mentioned == Some(true) { &["mentioned"] } else { &[] };
                add_unread(state, *id, &conversation, flags, user_id);
            }
        }
        "starred" => {
            if let Some(starred) = list_mut(state, "starred_messages") {
                if adding {
                    // Register lists them ascending, once each (a client may star at once, then hear the event).
                    starred.extend(ids.iter().map(|id| json!(id)));
                    starred.sort_by_key(Value::as_u64);
                    starred.dedup();
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
pub(super) fn apply_update_message(state: &mut Map<String, Value>, event: &UpdateMessageEvent, user_id: u64) {
    let target = event.message_id;
    let mut ids = event.message_ids.clone();
    if !ids.contains(&target) {
        ids.push(target);
    }
    let flags: Vec<&str> = event.flags.iter().map(String::as_str).collect();
    let moving = event.moves();
    let unread: Vec<(u64, Conversation, bool)> = ids
        .into_iter()
        .filter_map(|id| {
            unread_message(state, id).map(|(conversation, mentioned)| (id, conversation, mentioned))
        })
        .collect();
    let subscribed = |state: &Map<String, Value>, stream_id: u64| {
        state
            .get("subscriptions")
            .and_then(Value::as_array)
            .is_none_or(|subs| subs.iter().any(|s| s["stream_id"].as_u64() == Some(stream_id)))
    };
    for (id, mut conversation, mentioned) in unread {
        let edited = id == target;
        if !edited && !moving {
            continue;
        }
        remove_unread(state, &[id]);
        if let Conversation::Channel { stream_id, topic } = &mut conversation {
            if let Some(new_stream_id) = event.new_stream_id {
                *stream_id = new_stream_id;
            }
            if let Some(new_topic) = &event.subject {
                topic.clone_from(new_topic);
            }
            if !subscribed(state, *stream_id) {
                continue;
            }
        }
        let kept: &[&str] = if mentioned { &["mentioned"] } else { &[] };
        add_unread(state, id, &conversation, if edited { &flags } else { kept }, user_id);
    }
}

/// An unread message as far as the state tells: its conversation, and whether it counts as a
/// mention.
fn unread_message(state: &Map<String, Value>, id: u64) -> Option<(Conversation, bool)> {
    let unread = state.get("unread_msgs")?;
    let holds = |entry: &&Value| {
        entry["unread_message_ids"].as_array().is_some_and(|ids| ids.iter().any(|i| i.as_u64() == Some(id)))
    };
    let list = |key: &str| unread[key].as_array().into_iter().flatten();
    let conversation = if let Some(entry) = list("streams").find(holds) {
        Conversation::Channel {
            stream_id: entry["stream_id"].as_u64().unwrap_or_default(),
            topic: str_of(entry, "topic").to_owned(),
        }
    } else if let Some(entry) = list("pms").find(holds) {
        Conversation::Direct { user_ids: entry["other_user_id"].as_u64().into_iter().collect() }
    } else if let Some(entry) = list("huddles").find(holds) {
        let user_ids =
            str_of(entry, "user_ids_string").split(',').filter_map(|u| u.parse::<u64>().ok()).collect();
        Conversation::Direct { user_ids }
    } else {
        return None;
    };
    let mentioned = list("mentions").any(|m| m.as_u64() == Some(id));
    Some((conversation, mentioned))
}

/// A reaction changes nothing register shows, except that reacting to a message one never
/// received gives one a (historical) copy, which `max_message_id` counts.
pub(super) fn apply_reaction(state: &mut Map<String, Value>, event: &ReactionEvent, user_id: u64) {
    if event.op == ReactionOp::Add && event.user_id == user_id {
        raise_max_message_id(state, event.message_id);
    }
}
