//! A user's own records: drafts, snippets, navigation views, scheduled messages,
//! reminders and topic preferences.

use serde_json::{Map, Value, json};

use super::list_mut;
use crate::events::server_event::{
    DraftsEvent, NavigationViewEvent, RemindersEvent, SavedSnippetsEvent, ScheduledMessagesEvent,
    UserTopicEvent,
};

/// Drafts, kept in register's order (by edit time), which an edit changes.
pub(super) fn apply_drafts(state: &mut Map<String, Value>, event: &DraftsEvent) {
    let Some(drafts) = list_mut(state, "drafts") else { return };
    match event {
        DraftsEvent::Add { drafts: added, .. } => drafts.extend(added.iter().cloned()),
        DraftsEvent::Update { draft, .. } => replace_by_id(drafts, "id", draft),
        DraftsEvent::Remove { draft_id, .. } => remove_by_id(drafts, "id", *draft_id),
    }
    drafts.sort_by_key(crate::api::drafts::draft_order);
}

/// Saved snippets, by id (new ones have the highest).
pub(super) fn apply_saved_snippets(state: &mut Map<String, Value>, event: &SavedSnippetsEvent) {
    let Some(snippets) = list_mut(state, "saved_snippets") else { return };
    match event {
        SavedSnippetsEvent::Add { saved_snippet, .. } => snippets.push(saved_snippet.clone()),
        SavedSnippetsEvent::Update { saved_snippet, .. } => replace_by_id(snippets, "id", saved_snippet),
        SavedSnippetsEvent::Remove { saved_snippet_id, .. } => {
            remove_by_id(snippets, "id", *saved_snippet_id)
        }
    }
}

/// Scheduled messages: kept soonest first, as register lists them (Zulip's `apply_event` sorts
/// them the same way).
pub(super) fn apply_scheduled_messages(state: &mut Map<String, Value>, event: &ScheduledMessagesEvent) {
    const ID: &str = "scheduled_message_id";
    let Some(list) = list_mut(state, "scheduled_messages") else { return };
    match event {
        ScheduledMessagesEvent::Add { scheduled_messages, .. } => {
            list.extend(scheduled_messages.iter().cloned())
        }
        ScheduledMessagesEvent::Update { scheduled_message, .. } => {
            replace_by_id(list, ID, scheduled_message)
        }
        ScheduledMessagesEvent::Remove { scheduled_message_id, .. } => {
            remove_by_id(list, ID, *scheduled_message_id)
        }
    }
    soonest_first(list, ID);
}

/// Reminders: kept soonest first, as scheduled messages.
pub(super) fn apply_reminders(state: &mut Map<String, Value>, event: &RemindersEvent) {
    const ID: &str = "reminder_id";
    let Some(list) = list_mut(state, "reminders") else { return };
    match event {
        RemindersEvent::Add { reminders, .. } => list.extend(reminders.iter().cloned()),
        RemindersEvent::Remove { reminder_id, .. } => remove_by_id(list, ID, *reminder_id),
    }
    soonest_first(list, ID);
}

fn soonest_first(list: &mut [Value], id_key: &str) {
    list.sort_by_key(|e| (e["scheduled_delivery_timestamp"].as_i64(), e[id_key].as_u64()));
}

fn replace_by_id(list: &mut [Value], id_key: &str, updated: &Value) {
    if let Some(entry) = list.iter_mut().find(|e| e[id_key] == updated[id_key]) {
        *entry = updated.clone();
    }
}

fn remove_by_id(list: &mut Vec<Value>, id_key: &str, id: u64) {
    list.retain(|e| e[id_key].as_u64() != Some(id));
}

pub(super) fn apply_navigation_view(state: &mut Map<String, Value>, event: &NavigationViewEvent) {
    let Some(views) = list_mut(state, "navigation_views") else { return };
    match event {
        NavigationViewEvent::Add { navigation_view, .. } => views.push(navigation_view.clone()),
        NavigationViewEvent::Update { fragment, data, .. } => {
            if let Some(Value::Object(view)) = views.iter_mut().find(|v| v["fragment"] == fragment.as_str()) {
                view.extend(data.clone());
            }
        }
        NavigationViewEvent::Remove { fragment, .. } => views.retain(|v| v["fragment"] != fragment.as_str()),
    }
}

/// A `user_topic` event is the topic's whole preference; `inherit` (0) removes it.
pub(super) fn apply_user_topic(state: &mut Map<String, Value>, event: &UserTopicEvent) {
    let Some(topics) = list_mut(state, "user_topics") else { return };
    let topic = event.topic_name.to_lowercase();
    let same = |t: &Value| {
        t["stream_id"].as_u64() == Some(event.stream_id)
            && t["topic_name"].as_str().map(str::to_lowercase).as_deref() == Some(topic.as_str())
    };
    // The preference is the event's fields but the event's own id (`last_updated` among them).
    let mut preference = event.rest.clone();
    preference.remove("id");
    preference.insert("stream_id".into(), json!(event.stream_id));
    preference.insert("topic_name".into(), json!(event.topic_name));
    preference.insert("visibility_policy".into(), json!(event.visibility_policy));
    let preference = Value::Object(preference);
    match (topics.iter().position(same), event.visibility_policy) {
        (Some(index), 0) => {
            topics.remove(index);
        }
        (Some(index), _) => topics[index] = preference,
        (None, 0) => {}
        (None, _) => topics.push(preference),
    }
}
