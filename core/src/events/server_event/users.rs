//! People: `realm_user`, `realm_bot`, `presence`, `user_status`, `typing`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::Rest;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RealmUserEvent {
    Add(RealmUserAdd),
    Update(RealmUserUpdate),
    /// A guest no longer sees this user (feature level 228).
    Remove(RealmUserRemove),
}

/// The user a guest lost sight of: `person` has the `user_id` (and "Unknown user" as the
/// deprecated `full_name`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmUserRemove {
    pub person: PersonUpdate,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A new user: their record goes into `realm_users` as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmUserAdd {
    pub person: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmUserUpdate {
    pub person: PersonUpdate,
    #[serde(flatten)]
    pub rest: Rest,
}

/// What changed of a user: the user's id and the changed fields, each under its own name
/// (`full_name`, `role`, `is_active`, `new_email`, `custom_profile_field`, avatar fields...),
/// which the applier copies into the user's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PersonUpdate {
    pub user_id: u64,
    #[serde(flatten)]
    pub fields: Rest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum BotOp {
    Add,
    Update,
    /// Deactivated (it stays listed).
    Remove,
    /// Gone from the list (no longer sent since feature level 222).
    Delete,
}

/// A bot the user administers: its record (whole for `add`, the changed fields otherwise; its
/// `user_id` always).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmBotEvent {
    pub op: BotOp,
    pub bot: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A user's presence: the modern form (`presences`, by user id) or the legacy one (`presence`
/// by client, with `user_id`, `server_timestamp` and, for legacy clients, `email`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PresenceEvent {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub presences: Option<serde_json::Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub presence: Option<serde_json::Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub user_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub email: Option<String>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// What changed of a user's status; an empty text or emoji name clears it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct UserStatusEvent {
    pub user_id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub status_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub emoji_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub emoji_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub reaction_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub away: Option<bool>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum TypingOp {
    Start,
    Stop,
}

/// Someone started or stopped typing, in a channel's topic or to direct message recipients.
/// Register's state keeps no typing, so the applier leaves it; the client engine shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TypingEvent {
    pub op: TypingOp,
    pub sender: TypingUser,
    /// `stream` or `direct` (`private` before feature level 215).
    pub message_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub recipients: Option<Vec<TypingUser>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub stream_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub topic: Option<String>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TypingUser {
    pub user_id: u64,
    #[serde(flatten)]
    pub rest: Rest,
}
