//! Channels and subscriptions: `streams`, `subscriptions`, `unsubscribed`,
//! `never_subscribed`.

use serde_json::{Map, Value, json};

use super::list_mut;
use crate::events::server_event::{PeerChange, StreamEvent, SubscriptionEvent};

pub(super) fn stream_matches(entry: &Value, id: &Value) -> bool {
    entry["stream_id"] == *id
}

/// Whether register gave the state subscriber lists (`include_subscribers`), as its channels
/// show. A state with no channel at all is taken to have none.
fn has_subscriber_lists(state: &Map<String, Value>) -> bool {
    ["subscriptions", "unsubscribed", "never_subscribed"]
        .iter()
        .filter_map(|key| state.get(*key).and_then(Value::as_array))
        .flatten()
        .any(|s| s.get("subscribers").is_some())
}

/// Where an entry holds its channel's whole subscriber list, `subscriber_count` is its length.
fn count_subscribers(entry: &mut Value) {
    if let Some(count) = entry.get("subscribers").and_then(Value::as_array).map(Vec::len) {
        entry["subscriber_count"] = json!(count);
    }
}

/// The user's own subscription changed a channel's count: its `streams` entry follows.
fn set_stream_count(state: &mut Map<String, Value>, sub: &Value) {
    let Some(count) = sub.get("subscriber_count").cloned() else { return };
    if let Some(list) = list_mut(state, "streams") {
        for stream in list.iter_mut().filter(|s| stream_matches(s, &sub["stream_id"])) {
            stream["subscriber_count"] = count.clone();
        }
    }
}

/// Puts a channel in a list where register lists it: register goes through the organization's
/// channels by id.
fn insert_by_stream_id(list: &mut Vec<Value>, channel: Value) {
    let id = channel["stream_id"].as_u64();
    let at = list.iter().position(|c| c["stream_id"].as_u64() > id).unwrap_or(list.len());
    list.insert(at, channel);
}

pub(super) fn apply_subscription(state: &mut Map<String, Value>, event: &SubscriptionEvent, user_id: u64) {
    match event {
        SubscriptionEvent::Add(added) => {
            // The event lists the subscribers whether or not the client asked for them (as
            // Zulip's `apply_event`, drop them for those that did not).
            let with_subscribers = has_subscriber_lists(state);
            for sub in &added.subscriptions {
                for key in ["unsubscribed", "never_subscribed"] {
                    if let Some(list) = list_mut(state, key) {
                        list.retain(|s| !stream_matches(s, &sub["stream_id"]));
                    }
                }
                let mut sub = sub.clone();
                if !with_subscribers && let Value::Object(fields) = &mut sub {
                    fields.remove("subscribers");
                }
                set_stream_count(state, &sub);
                if let Some(list) = list_mut(state, "subscriptions") {
                    insert_by_stream_id(list, sub);
                }
            }
        }
        SubscriptionEvent::Remove(removed) => {
            for gone in &removed.subscriptions {
                let Some(list) = list_mut(state, "subscriptions") else { continue };
                if let Some(at) = list.iter().position(|s| s["stream_id"].as_u64() == Some(gone.stream_id)) {
                    let mut sub = list.remove(at);
                    // Nobody tells the user they left the subscribers: the event is theirs.
                    if let Some(subscribers) = sub.get_mut("subscribers").and_then(Value::as_array_mut) {
                        subscribers.retain(|u| u.as_u64() != Some(user_id));
                        count_subscribers(&mut sub);
                    } else if let Some(count) = sub.get("subscriber_count").and_then(Value::as_u64) {
                        sub["subscriber_count"] = json!(count.saturating_sub(1));
                    }
                    set_stream_count(state, &sub);
                    if let Some(unsubscribed) = list_mut(state, "unsubscribed") {
                        insert_by_stream_id(unsubscribed, sub);
                    }
                }
            }
        }
        SubscriptionEvent::Update(update) => {
            if let Some(list) = list_mut(state, "subscriptions") {
                for sub in list.iter_mut().filter(|s| s["stream_id"].as_u64() == Some(update.stream_id)) {
                    sub[update.property.as_str()] = update.value.clone();
                }
            }
        }
        SubscriptionEvent::PeerAdd(change) => edit_subscribers(state, change, true),
        SubscriptionEvent::PeerRemove(change) => edit_subscribers(state, change, false),
    }
}

/// Other users joined (or left) channels: their subscriber lists follow, where the state has
/// them, and so do the counts. An entry without the list (and every `streams` entry) moves its
/// count by the users the event names: the server sends peer events only for real changes.
fn edit_subscribers(state: &mut Map<String, Value>, change: &PeerChange, joined: bool) {
    for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
        let Some(list) = list_mut(state, key) else { continue };
        let changed =
            |s: &&mut Value| s["stream_id"].as_u64().is_some_and(|id| change.stream_ids.contains(&id));
        for sub in list.iter_mut().filter(changed) {
            let Some(subscribers) = sub.get_mut("subscribers").and_then(Value::as_array_mut) else {
                if let Some(count) = sub.get("subscriber_count").and_then(Value::as_u64) {
                    let moved = change.user_ids.len() as u64;
                    let count = if joined { count + moved } else { count.saturating_sub(moved) };
                    sub["subscriber_count"] = json!(count);
                }
                continue;
            };
            if joined {
                for user in &change.user_ids {
                    if !subscribers.iter().any(|u| u.as_u64() == Some(*user)) {
                        subscribers.push(json!(user));
                    }
                }
            } else {
                subscribers.retain(|u| !u.as_u64().is_some_and(|u| change.user_ids.contains(&u)));
            }
            count_subscribers(sub);
        }
    }
}

pub(super) fn apply_stream(state: &mut Map<String, Value>, event: &StreamEvent) {
    match event {
        StreamEvent::Create(create) => {
            if let Some(list) = list_mut(state, "streams") {
                list.extend(create.streams.iter().cloned());
            }
            // A channel one can see but did not join is "never subscribed" until a
            // subscription event says otherwise, unless the event brings the subscription the
            // user once had (Confab's `unsubscribed`, for channels a new role opens again):
            // then it is "unsubscribed". Subscribers arrive as `peer_add`.
            let with_subscribers = has_subscriber_lists(state);
            let left = create.unsubscribed.as_deref().unwrap_or_default();
            for stream in &create.streams {
                let (key, mut entry) = match left.iter().find(|s| stream_matches(s, &stream["stream_id"])) {
                    Some(sub) => ("unsubscribed", sub.clone()),
                    None => ("never_subscribed", stream.clone()),
                };
                if with_subscribers {
                    entry["subscribers"] = json!([]);
                    count_subscribers(&mut entry);
                } else if let Value::Object(fields) = &mut entry {
                    fields.remove("subscribers");
                }
                if let Some(list) = list_mut(state, key) {
                    list.push(entry);
                }
            }
        }
        StreamEvent::Delete(delete) => {
            for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
                if let Some(list) = list_mut(state, key) {
                    list.retain(|s| {
                        !s["stream_id"].as_u64().is_some_and(|id| delete.stream_ids.contains(&id))
                    });
                }
            }
        }
        StreamEvent::Update(update) => {
            for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
                let Some(list) = list_mut(state, key) else { continue };
                for stream in list.iter_mut().filter(|s| s["stream_id"].as_u64() == Some(update.stream_id)) {
                    stream[update.property.as_str()] = update.value.clone();
                    if let Some(rendered) = &update.rendered_description {
                        stream["rendered_description"] = rendered.as_str().into();
                    }
                }
            }
        }
    }
}
