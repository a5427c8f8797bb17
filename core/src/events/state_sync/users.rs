//! The organization's users: `realm_users`, `realm_non_active_users`, the user's own
//! fields, custom profile fields and statuses.

use serde_json::{Map, Value, json};

use super::list_mut;
use crate::events::server_event::{
    BotOp, CustomProfileFieldsEvent, RealmBotEvent, RealmUserEvent, UserStatusEvent,
};

/// Whether the state's user records leave default avatars to the client: register gave some
/// record a null `avatar_url`, which it does only with `client_gravatar`.
pub(super) fn computes_default_avatars(state: &Map<String, Value>) -> bool {
    ["realm_users", "realm_non_active_users"].iter().any(|key| {
        state
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|users| users.iter().any(|u| u["avatar_url"].is_null()))
    })
}

pub(super) fn apply_realm_user(state: &mut Map<String, Value>, event: &RealmUserEvent, user_id: u64) {
    match event {
        RealmUserEvent::Add(added) => {
            // Zulip sends the URL of a default avatar whatever the client computes, and its
            // `apply_event` leaves it to clients that compute them, as register does.
            let mut person = added.person.clone();
            if person["avatar_url"].as_str().is_some_and(crate::wire::is_default_avatar_url)
                && computes_default_avatars(state)
            {
                person["avatar_url"] = Value::Null;
            }
            // A user a guest comes to see replaces their "Unknown user" placeholder.
            let id = person["user_id"].clone();
            if let Some(users) = list_mut(state, "realm_users") {
                users.retain(|u| u["user_id"] != id);
                users.push(person);
            }
        }
        RealmUserEvent::Remove(removed) => {
            // Out of sight: gone from the lists, as for a client with `user_list_incomplete`.
            let id = json!(removed.person.user_id);
            for key in ["realm_users", "realm_non_active_users"] {
                if let Some(list) = list_mut(state, key) {
                    list.retain(|u| u["user_id"] != id);
                }
            }
        }
        RealmUserEvent::Update(update) => {
            let person = &update.person;
            let id = &json!(person.user_id);
            let own = &person.fields;
            // Deactivation moves the user between the two lists.
            if let Some(active) = own.get("is_active").and_then(Value::as_bool) {
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
                if !active {
                    drop_from_anonymous_settings(state, person.user_id);
                }
            }
            let mut fields = own.clone();
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
                    for (field, value) in &fields {
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
            if person.user_id == user_id {
                // The user's own fields at top level; their own avatar URL is never null.
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
                if let Some(role) = own.get("role").and_then(Value::as_u64) {
                    super::own::apply_own_role(state, role, user_id);
                }
                if let (Some(active), Some(deactivated)) =
                    (own.get("is_active").and_then(Value::as_bool), state.get_mut("user_is_deactivated"))
                {
                    *deactivated = json!(!active);
                }
            }
        }
    }
}

/// A deactivated user holds no setting: the organization's and the user groups' anonymous
/// values lose them, as register would now show those values (Zulip's `apply_event` does the
/// same; reactivation brings them back by events of its own).
fn drop_from_anonymous_settings(state: &mut Map<String, Value>, user_id: u64) {
    let drop = |value: &mut Value| {
        if let Some(members) = value.get_mut("direct_members").and_then(Value::as_array_mut) {
            members.retain(|m| m.as_u64() != Some(user_id));
        }
    };
    for (name, _, _) in crate::groups::REALM_GROUP_SETTINGS {
        if let Some(value) = state.get_mut(&format!("realm_{name}")) {
            drop(value);
        }
    }
    for group in list_mut(state, "realm_user_groups").into_iter().flatten() {
        let Some(fields) = group.as_object_mut() else { continue };
        for (key, value) in fields.iter_mut() {
            if key.starts_with("can_") {
                drop(value);
            }
        }
    }
}

/// The organization's fields, after any change: values of fields that are gone go with them.
pub(super) fn apply_custom_profile_fields(state: &mut Map<String, Value>, event: &CustomProfileFieldsEvent) {
    state.insert("custom_profile_fields".into(), Value::Array(event.fields.clone()));
    let ids: Vec<String> =
        event.fields.iter().filter_map(|f| f["id"].as_u64()).map(|id| id.to_string()).collect();
    for key in ["realm_users", "realm_non_active_users"] {
        for user in list_mut(state, key).into_iter().flatten() {
            if let Some(data) = user.get_mut("profile_data").and_then(Value::as_object_mut) {
                data.retain(|id, _| ids.contains(id));
            }
        }
    }
}

/// One custom profile field value of a user: set, or removed when `value` is null.
pub(super) fn set_profile_value(user: &mut Value, change: &Value) {
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

/// A `user_status` event carries only what changed; cleared text or emoji leave the status.
pub(super) fn apply_user_status(state: &mut Map<String, Value>, event: &UserStatusEvent) {
    let Some(Value::Object(all)) = state.get_mut("user_status") else { return };
    let key = event.user_id.to_string();
    let mut status = match all.remove(&key) {
        Some(Value::Object(status)) => status,
        _ => Map::new(),
    };
    if let Some(text) = &event.status_text {
        if text.is_empty() {
            status.remove("status_text");
        } else {
            status.insert("status_text".into(), text.as_str().into());
        }
    }
    if let Some(name) = &event.emoji_name {
        let emoji = [
            ("emoji_name", Some(name)),
            ("emoji_code", event.emoji_code.as_ref()),
            ("reaction_type", event.reaction_type.as_ref()),
        ];
        for (field, value) in emoji {
            if name.is_empty() {
                status.remove(field);
            } else {
                status.insert(field.into(), value.map_or(Value::Null, |v| v.as_str().into()));
            }
        }
    }
    match event.away {
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

/// The bots the user administers (`realm_bots`). Deactivated bots stay listed, with
/// `is_active` false; `delete` (no longer sent since feature level 222) takes one out.
pub(super) fn apply_realm_bot(state: &mut Map<String, Value>, event: &RealmBotEvent) {
    let Some(bots) = list_mut(state, "realm_bots") else { return };
    let changed = &event.bot;
    let id = &changed["user_id"];
    match event.op {
        BotOp::Add => {
            bots.retain(|b| b["user_id"] != *id);
            bots.push(changed.clone());
        }
        BotOp::Update => {
            if let (Some(Value::Object(bot)), Value::Object(fields)) =
                (bots.iter_mut().find(|b| b["user_id"] == *id), changed)
            {
                bot.extend(fields.clone());
            }
        }
        BotOp::Remove => {
            for bot in bots.iter_mut().filter(|b| b["user_id"] == *id) {
                bot["is_active"] = false.into();
            }
        }
        BotOp::Delete => bots.retain(|b| b["user_id"] != *id),
    }
}
