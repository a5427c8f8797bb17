//! Channels and subscriptions: `streams`, `subscriptions`, `unsubscribed`,
//! `never_subscribed`.

use serde_json::{Map, Value, json};

use super::{list_mut, str_of};

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

pub(super) fn apply_subscription(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    match str_of(event, "op") {
        "add" => {
            // The event lists the subscribers whether or not the client asked for them (as
            // Zulip's `apply_event`, drop them for those that did not).
            let with_subscribers = has_subscriber_lists(state);
            for sub in event["subscriptions"].as_array().into_iter().flatten() {
                for key in ["unsubscribed", "never_subscribed"] {
                    if let Some(list) = list_mut(state, key) {
                        list.retain(|s| !stream_matches(s, &sub["stream_id"]));
                    }
                }
                let mut sub = sub.clone();
                if !with_subscribers && let Value::Object(fields) = &mut sub {
                    fields.remove("subscribers");
                }
                if let Some(list) = list_mut(state, "subscriptions") {
                    list.push(sub);
                }
            }
        }
        "remove" => {
            for gone in event["subscriptions"].as_array().into_iter().flatten() {
                let Some(list) = list_mut(state, "subscriptions") else { continue };
                if let Some(at) = list.iter().position(|s| stream_matches(s, &gone["stream_id"])) {
                    let mut sub = list.remove(at);
                    // Nobody tells the user they left the subscribers: the event is theirs.
                    if let Some(subscribers) = sub.get_mut("subscribers").and_then(Value::as_array_mut) {
                        subscribers.retain(|u| u.as_u64() != Some(user_id));
                    }
                    if let Some(unsubscribed) = list_mut(state, "unsubscribed") {
                        unsubscribed.push(sub);
                    }
                }
            }
        }
        "update" => {
            let property = str_of(event, "property").to_owned();
            if let Some(list) = list_mut(state, "subscriptions") {
                for sub in list.iter_mut().filter(|s| stream_matches(s, &event["stream_id"])) {
                    sub[property.as_str()] = event["value"].clone();
                }
            }
        }
        op @ ("peer_add" | "peer_remove") => {
            let streams = event["stream_ids"].as_array().cloned().unwrap_or_default();
            let users = event["user_ids"].as_array().cloned().unwrap_or_default();
            for key in ["subscriptions", "unsubscribed", "never_subscribed"] {
                let Some(list) = list_mut(state, key) else { continue };
                for sub in list.iter_mut().filter(|s| streams.contains(&s["stream_id"])) {
                    let Some(subscribers) = sub.get_mut("subscribers").and_then(Value::as_array_mut) else {
                        continue;
                    };
                    if op == "peer_add" {
                        for user in &users {
                            if !subscribers.contains(user) {
                                subscribers.push(user.clone());
                            }
                        }
                    } else {
                        subscribers.retain(|u| !users.contains(u));
                    }
                }
            }
        }
        _ => {}
    }
}

pub(super) fn apply_stream(state: &mut Map<String, Value>, event: &Value) {
    match str_of(event, "op") {
        "create" => {
            let created = event["streams"].as_array().cloned().unwrap_or_default();
            if let Some(list) = list_mut(state, "streams") {
                list.extend(created.iter().cloned());
            }
            // A channel one can see but did not join is "never subscribed" until a
            // subscription event says otherwise, unless the event brings the subscription the
            // user once had (Confab's `unsubscribed`, for channels a new role opens again):
            // then it is "unsubscribed". Subscribers arrive as `peer_add`.
            let with_subscribers = has_subscriber_lists(state);
            let left = event["unsubscribed"].as_array().cloned().unwrap_or_default();
            for stream in created {
                let (key, mut entry) = match left.iter().find(|s| stream_matches(s, &stream["stream_id"])) {
                    Some(sub) => ("unsubscribed", sub.clone()),
                    None => ("never_subscribed", stream),
                };
                if with_subscribers {
                    entry["subscribers"] = json!([]);
                } else if let Value::Object(fields) = &mut entry {
                    fields.remove("subscribers");
                }
                if let Some(list) = list_mut(state, key) {
                    list.push(entry);
                }
            }
        }
        "delete" => {
            let ids = event["stream_ids"].as_array().cloned().unwrap_or_default();
            for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
                if let Some(list) = list_mut(state, key) {
                    list.retain(|s| !ids.contains(&s["stream_id"]));
                }
            }
        }
        "update" => {
            let property = str_of(event, "property").to_owned();
            for key in ["streams", "subscriptions", "unsubscribed", "never_subscribed"] {
                let Some(list) = list_mut(state, key) else { continue };
                for stream in list.iter_mut().filter(|s| stream_matches(s, &event["stream_id"])) {
                    stream[property.as_str()] = event["value"].clone();
                    if let Some(rendered) = event.get("rendered_description") {
                        stream["rendered_description"] = rendered.clone();
                    }
                }
            }
        }
        _ => {}
    }
}
