//! A user's own records: drafts, snippets, navigation views, scheduled messages,
//! reminders and topic preferences.

use serde_json::{Map, Value};

use super::{list_mut, str_of};

/// Scheduled messages and reminders: kept soonest first, as register lists them (Zulip's
/// `apply_event` sorts them the same way).
pub(super) fn apply_scheduled(state: &mut Map<String, Value>, event: &Value, key: &str, id_key: &str) {
    let Some(list) = list_mut(state, key) else { return };
    match str_of(event, "op") {
        "add" => list.extend(event[key].as_array().cloned().unwrap_or_default()),
        "update" => {
            let updated = &event["scheduled_message"];
            if let Some(entry) = list.iter_mut().find(|e| e[id_key] == updated[id_key]) {
                *entry = updated.clone();
            }
        }
        "remove" => list.retain(|e| e[id_key] != event[id_key]),
        _ => {}
    }
    list.sort_by_key(|e| (e["scheduled_delivery_timestamp"].as_i64(), e[id_key].as_u64()));
}

/// Lists of records by id (drafts, saved snippets): `add` brings one (`single`) or several
/// (`plural`), `update` replaces one, `remove` names one by `removed_key`.
pub(super) fn apply_keyed(
    state: &mut Map<String, Value>,
    event: &Value,
    list: &str,
    single: &str,
    plural: &str,
    removed_key: &str,
    id_key: &str,
) {
    let Some(items) = list_mut(state, list) else { return };
    match str_of(event, "op") {
        "add" => {
            if let Some(added) = event[plural].as_array() {
                items.extend(added.iter().cloned());
            } else if !event[single].is_null() {
                items.push(event[single].clone());
            }
        }
        "update" => {
            let updated = &event[single];
            if let Some(item) = items.iter_mut().find(|i| i[id_key] == updated[id_key]) {
                *item = updated.clone();
            }
        }
        "remove" => items.retain(|i| i[id_key] != event[removed_key]),
        _ => {}
    }
}

pub(super) fn apply_navigation_view(state: &mut Map<String, Value>, event: &Value) {
    let Some(views) = list_mut(state, "navigation_views") else { return };
    match str_of(event, "op") {
        "add" => views.push(event["navigation_view"].clone()),
        "update" => {
            if let (Some(Value::Object(view)), Value::Object(data)) =
                (views.iter_mut().find(|v| v["fragment"] == event["fragment"]), &event["data"])
            {
                view.extend(data.clone());
            }
        }
        "remove" => views.retain(|v| v["fragment"] != event["fragment"]),
        _ => {}
    }
}

/// A `user_topic` event is the topic's whole preference; `inherit` (0) removes it.
pub(super) fn apply_user_topic(state: &mut Map<String, Value>, event: &Value) {
    let Some(topics) = list_mut(state, "user_topics") else { return };
    let same = |t: &Value| {
        t["stream_id"] == event["stream_id"]
            && t["topic_name"].as_str().map(str::to_lowercase)
                == event["topic_name"].as_str().map(str::to_lowercase)
    };
    let mut preference = event.clone();
    if let Value::Object(fields) = &mut preference {
        fields.remove("type");
        fields.remove("id");
    }
    match (topics.iter().position(same), event["visibility_policy"].as_i64()) {
        (Some(index), Some(0)) => {
            topics.remove(index);
        }
        (Some(index), _) => topics[index] = preference,
        (None, Some(0)) => {}
        (None, _) => topics.push(preference),
    }
}
