//! The user's own records and settings: `drafts`, `saved_snippets`, `navigation_view`,
//! `scheduled_messages`, `reminders`, `user_topic`, `muted_users`, `muted_topics`,
//! `alert_words`, and the legacy settings events.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::Rest;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum DraftsEvent {
    Add {
        drafts: Vec<Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    Update {
        draft: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        draft_id: u64,
        #[serde(flatten)]
        rest: Rest,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum SavedSnippetsEvent {
    Add {
        saved_snippet: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Update {
        saved_snippet: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        saved_snippet_id: u64,
        #[serde(flatten)]
        rest: Rest,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum NavigationViewEvent {
    Add {
        navigation_view: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    /// The view's changed fields.
    Update {
        fragment: String,
        data: serde_json::Map<String, Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        fragment: String,
        #[serde(flatten)]
        rest: Rest,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ScheduledMessagesEvent {
    Add {
        scheduled_messages: Vec<Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    Update {
        scheduled_message: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        scheduled_message_id: u64,
        #[serde(flatten)]
        rest: Rest,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RemindersEvent {
    Add {
        reminders: Vec<Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        reminder_id: u64,
        #[serde(flatten)]
        rest: Rest,
    },
}

/// A topic's whole visibility preference; `visibility_policy` 0 (inherit) removes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct UserTopicEvent {
    pub stream_id: u64,
    pub topic_name: String,
    pub visibility_policy: i64,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The users the user muted, all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct MutedUsersEvent {
    pub muted_users: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The topics the user muted, all of them (the legacy form of `user_topic`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct MutedTopicsEvent {
    pub muted_topics: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The user's alert words, all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct AlertWordsEvent {
    pub alert_words: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A display setting, for clients before feature level 89 (`update_display_settings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct LegacySetting {
    pub setting_name: String,
    pub setting: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A notification setting, for clients before feature level 89
/// (`update_global_notifications`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct LegacyNotificationSetting {
    pub notification_name: String,
    pub setting: Value,
    #[serde(flatten)]
    pub rest: Rest,
}
