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
    apply_delete, apply_flags, apply_message, apply_reaction, apply_update_message, recount_after_muting,
    unread_muting,
};
use organization::{apply_channel_folder, apply_realm, apply_user_group};
use personal::{
    apply_drafts, apply_navigation_view, apply_reminders, apply_saved_snippets, apply_scheduled_messages,
    apply_user_topic,
};
use users::{apply_custom_profile_fields, apply_realm_bot, apply_realm_user, apply_user_status};

use serde_json::{Map, Value, json};

use super::server_event::{RealmEmojiEvent, ServerEvent, SettingsEvent};

/// Applies one event, as `GET /events` gives it, to a register state: reads it as a
/// [`ServerEvent`] and applies that.
pub fn apply_event(state: &mut Map<String, Value>, event: &Value, user_id: u64) {
    apply_server_event(state, &ServerEvent::parse(event.clone()), user_id);
}

/// Applies one event to a register state. `user_id` is the state's user. Events that change no
/// state (typing, submessages, attachments, heartbeats, types this version does not know) leave
/// it as it is.
pub fn apply_server_event(state: &mut Map<String, Value>, event: &ServerEvent, user_id: u64) {
    match event {
        ServerEvent::Message(event) => apply_message(state, event, user_id),
        ServerEvent::UpdateMessageFlags(event) => apply_flags(state, event, user_id),
        ServerEvent::UpdateMessage(event) => apply_update_message(state, event, user_id),
        ServerEvent::Reaction(event) => apply_reaction(state, event, user_id),
        ServerEvent::DeleteMessage(event) => apply_delete(state, &event.ids()),
        ServerEvent::Subscription(event) => {
            let muting = unread_muting(state);
            apply_subscription(state, event, user_id);
            recount_after_muting(state, &muting);
        }
        ServerEvent::Stream(event) => apply_stream(state, event),
        ServerEvent::Realm(event) => {
            apply_realm(state, event);
            own::refresh_web_public(state, user_id);
        }
        ServerEvent::RealmUser(event) => apply_realm_user(state, event, user_id),
        ServerEvent::RealmBot(event) => apply_realm_bot(state, event),
        ServerEvent::Presence(event) => presence::apply_presence(state, event),
        ServerEvent::RealmLinkifiers(event) => {
            state.insert("realm_linkifiers".into(), event.linkifiers.clone());
        }
        ServerEvent::RealmPlaygrounds(event) => {
            state.insert("realm_playgrounds".into(), event.realm_playgrounds.clone());
        }
        ServerEvent::UserGroup(event) => {
            apply_user_group(state, event);
            own::refresh_web_public(state, user_id);
        }
        ServerEvent::DefaultStreams(event) => {
            state.insert("realm_default_streams".into(), event.default_streams.clone());
        }
        ServerEvent::DefaultStreamGroups(event) => {
            state.insert("realm_default_stream_groups".into(), event.default_stream_groups.clone());
        }
        ServerEvent::ChannelFolder(event) => apply_channel_folder(state, event),
        ServerEvent::Drafts(event) => apply_drafts(state, event),
        ServerEvent::SavedSnippets(event) => apply_saved_snippets(state, event),
        ServerEvent::NavigationView(event) => apply_navigation_view(state, event),
        ServerEvent::UserStatus(event) => apply_user_status(state, event),
        ServerEvent::MutedUsers(event) => {
            state.insert("muted_users".into(), event.muted_users.clone());
        }
        ServerEvent::MutedTopics(event) => {
            let muting = unread_muting(state);
            state.insert("muted_topics".into(), event.muted_topics.clone());
            recount_after_muting(state, &muting);
        }
        ServerEvent::UserTopic(event) => {
            let muting = unread_muting(state);
            apply_user_topic(state, event);
            recount_after_muting(state, &muting);
        }
        ServerEvent::RealmUserSettingsDefaults(SettingsEvent::Update(change)) => {
            if let Some(Value::Object(defaults)) = state.get_mut("realm_user_settings_defaults") {
                defaults.insert(change.property.clone(), change.value.clone());
            }
        }
        // Older clients' copies of their settings at top level (before feature level 89).
        ServerEvent::UpdateDisplaySettings(event) => set_legacy(state, &event.setting_name, &event.setting),
        ServerEvent::UpdateGlobalNotifications(event) => {
            set_legacy(state, &event.notification_name, &event.setting)
        }
        ServerEvent::AlertWords(event) => {
            state.insert("alert_words".into(), event.alert_words.clone());
        }
        ServerEvent::RealmEmoji(RealmEmojiEvent::Update { realm_emoji, .. }) => {
            state.insert("realm_emoji".into(), realm_emoji.clone());
        }
        ServerEvent::CustomProfileFields(event) => apply_custom_profile_fields(state, event),
        ServerEvent::ScheduledMessages(event) => apply_scheduled_messages(state, event),
        ServerEvent::Reminders(event) => apply_reminders(state, event),
        ServerEvent::UserSettings(SettingsEvent::Update(change)) => {
            let property = change.property.as_str();
            if let Some(Value::Object(settings)) = state.get_mut("user_settings") {
                settings.insert(property.to_owned(), change.value.clone());
            }
            // The server forgets synchronized drafts when synchronizing is turned off.
            if property == "enable_drafts_synchronization"
                && change.value == false
                && state.contains_key("drafts")
            {
                state.insert("drafts".into(), json!([]));
            }
            // Older clients keep the legacy copies at top level.
            if state.contains_key(property) {
                state.insert(property.to_owned(), change.value.clone());
            }
        }
        ServerEvent::Typing(_) | ServerEvent::Submessage(_) | ServerEvent::Other(_) => {}
    }
}

/// A legacy top-level setting, if register gave the state one.
fn set_legacy(state: &mut Map<String, Value>, name: &str, value: &Value) {
    if let Some(field) = state.get_mut(name) {
        *field = value.clone();
    }
}

pub(super) fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

pub(super) fn list_mut<'a>(state: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    state.get_mut(key).and_then(Value::as_array_mut)
}
