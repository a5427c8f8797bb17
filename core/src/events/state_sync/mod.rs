//! Keeping a client's copy of register's state up to date with events (Zulip's
//! `apply_event` in `zerver/lib/events.py`): what a browser cache built on confab-web does, and
//! what the consistency tests check against a fresh register after every change.

mod channels;
mod messages;
mod organization;
mod own;
mod personal;
mod presence;
mod users;

use channels::{apply_stream, apply_subscription};
use messages::{
    apply_flags, apply_message, apply_reaction, apply_update_message, recount_after_muting, remove_unread,
    unread_muting,
};
use organization::{apply_channel_folder, apply_realm, apply_user_group};
use personal::{apply_keyed, apply_navigation_view, apply_scheduled, apply_user_topic};
use users::{apply_custom_profile_fields, apply_realm_bot, apply_realm_user, apply_user_status};

use serde_json::{Map, Value, json};

/// Applies one event to a register state. `user_id` is the state's user. Events that change no
/// state (typing, attachments, heartbeats) leave it as it is.
pub fn apply_event(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    match str_of(event, "type") {
        "message" => apply_message(state, event, user_id),
        "update_message_flags" => apply_flags(state, event, user_id),
        "update_message" => apply_update_message(state, event, user_id),
        "reaction" => apply_reaction(state, event, user_id),
        "delete_message" => remove_unread(state, &message_ids(event)),
        "subscription" => {
            let muting = unread_muting(state);
            apply_subscription(state, event, user_id);
            recount_after_muting(state, &muting);
        }
        "stream" => apply_stream(state, event),
        "realm" => {
            apply_realm(state, event);
            own::refresh_web_public(state, user_id);
        }
        "realm_user" => apply_realm_user(state, event, user_id),
        "realm_bot" => apply_realm_bot(state, event),
        "presence" => presence::apply_presence(state, event),
        "realm_linkifiers" => {
            state.insert("realm_linkifiers".into(), event["linkifiers"].clone());
        }
        "user_group" => {
            apply_user_group(state, event);
            own::refresh_web_public(state, user_id);
        }
        "default_streams" => {
            state.insert("realm_default_streams".into(), event["default_streams"].clone());
        }
        "channel_folder" => apply_channel_folder(state, event),
        "drafts" => {
            apply_keyed(state, event, "drafts", "draft", "drafts", "draft_id", "id");
            // An edit moves a draft: register lists them by edit time.
            if let Some(drafts) = list_mut(state, "drafts") {
                drafts.sort_by_key(crate::api::drafts::draft_order);
            }
        }
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
            let muting = unread_muting(state);
            state.insert("muted_topics".into(), event["muted_topics"].clone());
            recount_after_muting(state, &muting);
        }
        "user_topic" => {
            let muting = unread_muting(state);
            apply_user_topic(state, event);
            recount_after_muting(state, &muting);
        }
        "realm_user_settings_defaults" if str_of(event, "op") == "update" => {
            if let Some(Value::Object(defaults)) = state.get_mut("realm_user_settings_defaults") {
                defaults.insert(str_of(event, "property").to_owned(), event["value"].clone());
            }
        }
        // Older clients' copies of their settings at top level (before feature level 89).
        "update_display_settings" => set_legacy(state, &event["setting_name"], &event["setting"]),
        "update_global_notifications" => set_legacy(state, &event["notification_name"], &event["setting"]),
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

/// A legacy top-level setting, if register gave the state one.
fn set_legacy(state: &mut Map<String, Value>, name: &Value, value: &Value) {
    if let Some(field) = name.as_str().and_then(|name| state.get_mut(name)) {
        *field = value.clone();
    }
}

pub(super) fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

pub(super) fn list_mut<'a>(state: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    state.get_mut(key).and_then(Value::as_array_mut)
}

pub(super) fn message_ids(event: &Value) -> Vec<u64> {
    match event.get("message_ids") {
        Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_u64).collect(),
        _ => event.get("message_id").and_then(Value::as_u64).into_iter().collect(),
    }
}
