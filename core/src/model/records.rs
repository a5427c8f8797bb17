//! A user's own small records — drafts, saved snippets, navigation views, push devices, bot
//! storage, status — kept as JSON values under the user, a kind and an id. Each kind's module in
//! `crate::api` gives the values their shape and rules; the store only files them, so a new
//! kind of personal record needs no new table.

/// Which kind of record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum RecordKind {
    Draft,
    SavedSnippet,
    NavigationView,
    PushDevice,
    BotStorage,
    /// A user's status text and emoji (one record, id 0).
    UserStatus,
    /// A user the user muted; the record's id is the muted user's.
    MutedUser,
    /// A topic the user muted, unmuted or follows.
    UserTopic,
    /// The server operator's grants beyond the user's role (Zulip's special permissions, such
    /// as `can_change_user_emails`); one record, id 0.
    SpecialPermissions,
    /// An organization data export the user asked for (`api::realm_export::RealmExport`).
    RealmExport,
    /// The account's outstanding password-reset link (`api::password_reset`); one record, id 0.
    PasswordReset,
    /// A message waiting in the user's batch of missed-message emails
    /// (`api::missed_messages`); the record's id is the message's.
    MissedMessageEmail,
}

impl RecordKind {
    /// The stable name the store files the kind under.
    pub fn key(self) -> &'static str {
        match self {
            RecordKind::Draft => "draft",
            RecordKind::SavedSnippet => "saved_snippet",
            RecordKind::NavigationView => "navigation_view",
            RecordKind::PushDevice => "push_device",
            RecordKind::BotStorage => "bot_storage",
            RecordKind::UserStatus => "user_status",
            RecordKind::MutedUser => "muted_user",
            RecordKind::UserTopic => "user_topic",
            RecordKind::SpecialPermissions => "special_permissions",
            RecordKind::RealmExport => "realm_export",
            RecordKind::PasswordReset => "password_reset",
            RecordKind::MissedMessageEmail => "missed_message_email",
        }
    }
}

/// What a topic preference is filed under: its channel and its topic lower-cased (topics match
/// case-insensitively, as in Zulip).
pub fn topic_preference_key(stream: crate::ids::StreamId, topic: &str) -> (crate::ids::StreamId, String) {
    (stream, topic.to_lowercase())
}

/// The channel and lower-cased topic a `UserTopic` record names, or `None` for a malformed one.
pub fn topic_preference_place(record: &serde_json::Value) -> Option<(crate::ids::StreamId, String)> {
    let stream = record["stream_id"].as_u64()?;
    let topic = record["topic_name"].as_str()?;
    Some(topic_preference_key(crate::ids::StreamId(stream), topic))
}
