//! Keeping a client's copy of register's state up to date with events (Zulip's
//! `apply_event` in `zerver/lib/events.py`): what a browser cache built on confab-web does, and
//! what the consistency tests check against a fresh register after every change.

use serde_json::{Map, Value, json};

use crate::api::narrow::TopicVisibility;

/// Applies one event to a register state. `user_id` is the state's user. Events that change no
/// state (typing, reactions, heartbeats) leave it as it is.
pub fn apply_event(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    match str_of(event, "type") {
        "message" => apply_message(state, event, user_id),
        "update_message_flags" => apply_flags(state, event, user_id),
        "delete_message" => remove_unread(state, &message_ids(event)),
        "subscription" => apply_subscription(state, event),
        "stream" => apply_stream(state, event),
        "realm" => apply_realm(state, event),
        "realm_user" => apply_realm_user(state, event, user_id),
        "realm_linkifiers" => {
            state.insert("realm_linkifiers".into(), event["linkifiers"].clone());
        }
        "user_group" => apply_user_group(state, event),
        "default_streams" => {
            state.insert("realm_default_streams".into(), event["default_streams"].clone());
        }
        "channel_folder" => apply_channel_folder(state, event),
        "drafts" => apply_keyed(state, event, "drafts", "draft", "drafts", "draft_id", "id"),
        "saved_snippets" => apply_keyed(
            state,
            event,
            "saved_snippets",
            "saved_snippet",
            "saved_snippets",
            "saved_snippet_id",
            "id",
        ),
        "navigation_view" => apply_navigation_view(state, event),
        "user_status" => apply_user_status(state, event),
        "muted_users" => {
            state.insert("muted_users".into(), event["muted_users"].clone());
        }
        "muted_topics" => {
            state.insert("muted_topics".into(), event["muted_topics"].clone());
        }
        "user_topic" => apply_user_topic(state, event),
        "realm_user_settings_defaults" if str_of(event, "op") == "update" => {
            if let Some(Value::Object(defaults)) = state.get_mut("realm_user_settings_defaults") {
                defaults.insert(str_of(event, "property").to_owned(), event["value"].clone());
            }
        }
        "alert_words" => {
            state.insert("alert_words".into(), event["alert_words"].clone());
        }
        "realm_emoji" if str_of(event, "op") == "update" => {
            state.insert("realm_emoji".into(), event["realm_emoji"].clone());
        }
        "custom_profile_fields" => apply_custom_profile_fields(state, event),
        "scheduled_messages" => apply_scheduled(state, event, "scheduled_messages", "scheduled_message_id"),
        "reminders" => apply_scheduled(state, event, "reminders", "reminder_id"),
        "user_settings" if str_of(event, "op") == "update" => {
            let property = str_of(event, "property").to_owned();
            if let Some(Value::Object(settings)) = state.get_mut("user_settings") {
                settings.insert(property.clone(), event["value"].clone());
            }
            // The server forgets synchronized drafts when synchronizing is turned off.
            if property == "enable_drafts_synchronization"
                && event["value"] == false
                && state.contains_key("drafts")
            {
                state.insert("drafts".into(), json!([]));
            }
            // Older clients keep the legacy copies at top level.
            if state.contains_key(&property) {
                state.insert(property, event["value"].clone());
            }
        }
        _ => {}
    }
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn list_mut<'a>(state: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    state.get_mut(key).and_then(Value::as_array_mut)
}

fn message_ids(event: &Value) -> Vec<u64> {
    match event.get("message_ids") {
        Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_u64).collect(),
        _ => event.get("message_id").and_then(Value::as_u64).into_iter().collect(),
    }
}

/// A new message. `max_message_id` only grows: after a deletion a client cannot know which
/// message is now the newest, so it keeps the old maximum (Zulip's asks its database).
fn apply_message(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
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
}

/// Whether the state's user muted a channel message's conversation, as far as the state
/// knows: its `subscriptions` (muted channels) and `user_topics` (muted, unmuted and followed
/// topics, matched case-insensitively). Without them nothing counts as muted.
fn muted_in_state(state: &Map<String, Value>, message: &Value) -> bool {
    str_of(message, "type") == "stream"
        && muted_conversation(state, &message["stream_id"], str_of(message, "subject"))
}

fn muted_conversation(state: &Map<String, Value>, stream_id: &Value, topic: &str) -> bool {
    let list = |key: &str| state.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let channel_muted =
        list("subscriptions").iter().any(|s| s["stream_id"] == *stream_id && s["is_muted"] == true);
    let topic = topic.to_lowercase();
    let policy = list("user_topics")
        .iter()
        .find(|t| t["stream_id"] == *stream_id && str_of(t, "topic_name").to_lowercase() == topic)
        .and_then(|t| t["visibility_policy"].as_i64())
        .unwrap_or_default();
    TopicVisibility::from_policy(policy).mutes(channel_muted)
}

/// Files an unread message in `unread_msgs` as register groups it: a muted conversation's
/// messages are listed but not counted, and their wildcard mentions are not mentions.
fn add_unread(state: &mut Map<String, Value>, message: &Value, flags: &[&str], user_id: u64) {
    let muted = muted_in_state(state, message);
    let Some(Value::Object(unread)) = state.get_mut("unread_msgs") else { return };
    let id = message["id"].clone();
    let push = |list: &mut Value, matches: &dyn Fn(&Value) -> bool, fresh: Value| {
        let Some(entries) = list.as_array_mut() else { return };
        match entries.iter_mut().find(|e| matches(e)) {
            Some(entry) => {
                if let Some(ids) = entry["unread_message_ids"].as_array_mut() {
                    ids.push(id.clone());
                }
            }
            None => entries.push(fresh),
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
fn remove_unread(state: &mut Map<String, Value>, ids: &[u64]) {
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

fn apply_flags(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    let ids: Vec<u64> = event["messages"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let adding = str_of(event, "op") == "add";
    match str_of(event, "flag") {
        "read" if adding => remove_unread(state, &ids),
        "read" => {
            // Marking unread carries each message's conversation.
            if let Some(Value::Object(details)) = event.get("message_details") {
                for id in &ids {
                    let Some(detail) = details.get(&id.to_string()) else { continue };
                    let mut message = json!({"id": id, "type": detail["type"]});
                    if detail["type"] == "stream" {
                        message["stream_id"] = detail["stream_id"].clone();
                        message["subject"] = detail["topic"].clone();
                    } else {
                        let users = detail["user_ids"].as_array().cloned().unwrap_or_default();
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
                    starred.extend(ids.iter().map(|id| json!(id)));
                } else {
                    starred.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
                }
            }
        }
        _ => {}
    }
}

fn stream_matches(entry: &Value, id: &Value) -> bool {
    entry["stream_id"] == *id
}

fn apply_subscription(state: &mut Map<String, Value>, event: &Value) {
    match str_of(event, "op") {
        "add" => {
            for sub in event["subscriptions"].as_array().into_iter().flatten() {
                for key in ["unsubscribed", "never_subscribed"] {
                    if let Some(list) = list_mut(state, key) {
                        list.retain(|s| !stream_matches(s, &sub["stream_id"]));
                    }
                }
                if let Some(list) = list_mut(state, "subscriptions") {
                    list.push(sub.clone());
                }
            }
        }
        "remove" => {
            for gone in event["subscriptions"].as_array().into_iter().flatten() {
                let Some(list) = list_mut(state, "subscriptions") else { continue };
                if let Some(at) = list.iter().position(|s| stream_matches(s, &gone["stream_id"])) {
                    let sub = list.remove(at);
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

fn apply_stream(state: &mut Map<String, Value>, event: &Value) {
    match str_of(event, "op") {
        "create" => {
            let created = event["streams"].as_array().cloned().unwrap_or_default();
            if let Some(list) = list_mut(state, "streams") {
                list.extend(created.iter().cloned());
            }
            // A channel one can see but did not join is "never subscribed" until a
            // subscription event says otherwise; its subscribers arrive as `peer_add`.
            let with_subscribers = ["subscriptions", "unsubscribed", "never_subscribed"]
                .iter()
                .filter_map(|key| state.get(*key).and_then(Value::as_array))
                .flatten()
                .any(|s| s.get("subscribers").is_some());
            if let Some(list) = list_mut(state, "never_subscribed") {
                for mut stream in created {
                    if with_subscribers {
                        stream["subscribers"] = json!([]);
                    }
                    list.push(stream);
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

fn apply_realm(state: &mut Map<String, Value>, event: &Value) {
    match str_of(event, "op") {
        "update_dict" => {
            for (key, value) in event["data"].as_object().into_iter().flatten() {
                state.insert(format!("realm_{key}"), value.clone());
            }
        }
        "update" => {
            state.insert(format!("realm_{}", str_of(event, "property")), event["value"].clone());
        }
        _ => {}
    }
}

/// Whether the state's user records leave default avatars to the client: register gave some
/// record a null `avatar_url`, which it does only with `client_gravatar`.
fn computes_default_avatars(state: &Map<String, Value>) -> bool {
    ["realm_users", "realm_non_active_users"].iter().any(|key| {
        state
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|users| users.iter().any(|u| u["avatar_url"].is_null()))
    })
}

fn apply_realm_user(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    let person = &event["person"];
    match str_of(event, "op") {
        "add" => {
            if let Some(users) = list_mut(state, "realm_users") {
                users.push(person.clone());
            }
        }
        "update" => {
            let id = &person["user_id"];
            let fields = person.as_object().cloned().unwrap_or_default();
            // Deactivation moves the user between the two lists.
            if let Some(active) = person.get("is_active").and_then(Value::as_bool) {
                let (from, to) = if active {
                    ("realm_non_active_users", "realm_users")
                } else {
                    ("realm_users", "realm_non_active_users")
                };
                let moved = list_mut(state, from)
                    .and_then(|list| list.iter().position(|u| u["user_id"] == *id).map(|at| list.remove(at)));
                if let (Some(mut user), Some(list)) = (moved, list_mut(state, to)) {
                    user["is_active"] = active.into();
                    list.push(user);
                }
            }
            let mut fields = fields;
            // User records carry neither of these; the user's own top-level fields do.
            let own_only: Vec<(String, Value)> = ["avatar_source", "avatar_url_medium"]
                .iter()
                .filter_map(|f| fields.remove(*f).map(|v| ((*f).to_owned(), v)))
                .collect();
            // A client that computes default avatars (`client_gravatar`) has them as null, as
            // Zulip's `apply_event` keeps them; its state shows that by its null URLs.
            let default_avatar = own_only.iter().any(|(f, v)| f == "avatar_source" && v == "G");
            if default_avatar && computes_default_avatars(state) {
                fields.insert("avatar_url".into(), Value::Null);
            }
            for key in ["realm_users", "realm_non_active_users"] {
                let Some(list) = list_mut(state, key) else { continue };
                for user in list.iter_mut().filter(|u| u["user_id"] == *id) {
                    for (field, value) in fields.iter().filter(|(f, _)| f.as_str() != "user_id") {
                        match field.as_str() {
                            "custom_profile_field" => set_profile_value(user, value),
                            "new_email" => user["email"] = value.clone(),
                            _ => user[field.as_str()] = value.clone(),
                        }
                    }
                    if let Some(role) = fields.get("role") {
                        user["is_admin"] = json!(role.as_u64().is_some_and(|r| r <= 200));
                        user["is_owner"] = json!(role.as_u64() == Some(100));
                        user["is_guest"] = json!(role.as_u64() == Some(600));
                    }
                }
            }
            if id.as_u64() == Some(user_id) {
                // The user's own fields at top level; their own avatar URL is never null.
                let own: Map<String, Value> = person.as_object().cloned().unwrap_or_default();
                for field in
                    ["full_name", "avatar_url", "avatar_url_medium", "avatar_source", "avatar_version"]
                {
                    if let Some(value) = own.get(field)
                        && state.contains_key(field)
                    {
                        state.insert(field.into(), value.clone());
                    }
                }
                for field in ["delivery_email", "email"] {
                    if let Some(value) = own.get(field) {
                        state.insert(field.into(), value.clone());
                    }
                }
                if let Some(email) = own.get("new_email") {
                    state.insert("email".into(), email.clone());
                }
            }
        }
        _ => {}
    }
}

/// The organization's fields, after any change: values of fields that are gone go with them.
fn apply_custom_profile_fields(state: &mut Map<String, Value>, event: &Value) {
    state.insert("custom_profile_fields".into(), event["fields"].clone());
    let ids: Vec<String> = event["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["id"].as_u64())
        .map(|id| id.to_string())
        .collect();
    for key in ["realm_users", "realm_non_active_users"] {
        for user in list_mut(state, key).into_iter().flatten() {
            if let Some(data) = user.get_mut("profile_data").and_then(Value::as_object_mut) {
                data.retain(|id, _| ids.contains(id));
            }
        }
    }
}

/// One custom profile field value of a user: set, or removed when `value` is null.
fn set_profile_value(user: &mut Value, change: &Value) {
    let Some(data) = user.get_mut("profile_data").and_then(Value::as_object_mut) else { return };
    let id = change["id"].as_u64().unwrap_or_default().to_string();
    if change["value"].is_null() {
        data.remove(&id);
        return;
    }
    let mut shown = json!({"value": change["value"]});
    if let Some(rendered) = change.get("rendered_value") {
        shown["rendered_value"] = rendered.clone();
    }
    data.insert(id, shown);
}

fn apply_user_group(state: &mut Map<String, Value>, event: &Value) {
    let Some(groups) = list_mut(state, "realm_user_groups") else { return };
    let id = &event["group_id"];
    let group = groups.iter_mut().find(|g| g["id"] == *id);
    match (str_of(event, "op"), group) {
        ("add", _) => groups.push(event["group"].clone()),
        ("remove", _) => groups.retain(|g| g["id"] != *id),
        ("update", Some(group)) => {
            for (key, value) in event["data"].as_object().into_iter().flatten() {
                group[key.as_str()] = value.clone();
            }
        }
        (op @ ("add_members" | "remove_members"), Some(group)) => {
            edit_list(&mut group["members"], &event["user_ids"], op == "add_members")
        }
        (op @ ("add_subgroups" | "remove_subgroups"), Some(group)) => {
            edit_list(
                &mut group["direct_subgroup_ids"],
                &event["direct_subgroup_ids"],
                op == "add_subgroups",
            );
        }
        _ => {}
    }
}

/// Adds ids to (or removes them from) a sorted id list.
fn edit_list(list: &mut Value, ids: &Value, adding: bool) {
    let Some(list) = list.as_array_mut() else { return };
    let ids = ids.as_array().cloned().unwrap_or_default();
    if adding {
        list.extend(ids);
    } else {
        list.retain(|id| !ids.contains(id));
    }
    list.sort_by_key(|id| id.as_u64());
}

/// Scheduled messages and reminders: kept soonest first, as register lists them (Zulip's
/// `apply_event` sorts them the same way).
fn apply_scheduled(state: &mut Map<String, Value>, event: &Value, key: &str, id_key: &str) {
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

fn apply_channel_folder(state: &mut Map<String, Value>, event: &Value) {
    let Some(folders) = list_mut(state, "channel_folders") else { return };
    match str_of(event, "op") {
        "add" => folders.push(event["channel_folder"].clone()),
        "update" => {
            let id = &event["channel_folder_id"];
            if let (Some(Value::Object(folder)), Value::Object(data)) =
                (folders.iter_mut().find(|f| &f["id"] == id), &event["data"])
            {
                folder.extend(data.clone());
            }
        }
        "reorder" => {
            let order: Vec<&Value> =
                event["order"].as_array().map(|o| o.iter().collect()).unwrap_or_default();
            for folder in folders.iter_mut() {
                if let Some(position) = order.iter().position(|id| **id == folder["id"]) {
                    folder["order"] = position.into();
                }
            }
            folders.sort_by_key(|f| (f["order"].as_u64(), f["id"].as_u64()));
        }
        _ => {}
    }
}

/// Lists of records by id (drafts, saved snippets): `add` brings one (`single`) or several
/// (`plural`), `update` replaces one, `remove` names one by `removed_key`.
fn apply_keyed(
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

fn apply_navigation_view(state: &mut Map<String, Value>, event: &Value) {
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

/// A `user_status` event carries only what changed; cleared text or emoji leave the status.
fn apply_user_status(state: &mut Map<String, Value>, event: &Value) {
    let Some(Value::Object(all)) = state.get_mut("user_status") else { return };
    let key = event["user_id"].to_string();
    let mut status = match all.remove(&key) {
        Some(Value::Object(status)) => status,
        _ => Map::new(),
    };
    if let Some(text) = event.get("status_text").and_then(Value::as_str) {
        if text.is_empty() {
            status.remove("status_text");
        } else {
            status.insert("status_text".into(), text.into());
        }
    }
    if let Some(name) = event.get("emoji_name").and_then(Value::as_str) {
        for field in ["emoji_name", "emoji_code", "reaction_type"] {
            if name.is_empty() {
                status.remove(field);
            } else {
                status.insert(field.into(), event[field].clone());
            }
        }
    }
    match event.get("away").and_then(Value::as_bool) {
        Some(true) => {
            status.insert("away".into(), true.into());
        }
        Some(false) => {
            status.remove("away");
        }
        None => {}
    }
    if !status.is_empty() {
        all.insert(key, Value::Object(status));
    }
}

/// A `user_topic` event is the topic's whole preference; `inherit` (0) removes it.
fn apply_user_topic(state: &mut Map<String, Value>, event: &Value) {
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
