use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::GroupSetting;

use crate::ids::{RealmId, StreamId, UserId};

/// An organization. Everything else belongs to exactly one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Realm {
    pub id: RealmId,
    /// Empty for the organization on the server's root host.
    pub subdomain: String,
    pub name: String,
    /// Markdown source of the organization description.
    pub description: String,
    pub date_created: i64,
    pub deactivated: bool,
    /// The bot that posts the organization's automatic notices (Zulip's Notification Bot).
    #[serde(default)]
    pub notification_bot: Option<UserId>,
    #[serde(default)]
    pub settings: RealmSettings,
}

/// Organization settings, with Zulip's defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RealmSettings {
    pub allow_message_editing: bool,
    /// `None`: no limit.
    pub message_content_edit_limit_seconds: Option<i64>,
    pub message_content_delete_limit_seconds: Option<i64>,
    pub move_messages_within_stream_limit_seconds: Option<i64>,
    pub move_messages_between_streams_limit_seconds: Option<i64>,
    /// Where message reports go; reporting is off without one.
    pub moderation_request_channel_id: Option<StreamId>,
    /// `all`, `moves` or `none` (Zulip's `message_edit_history_visibility_policy`).
    pub message_edit_history_visibility_policy: String,
    /// `allow_empty_topic` or `disable_empty_topic`: whether the empty topic ("general chat")
    /// is allowed in channels that inherit the policy.
    pub topics_policy: String,
    /// The organization's group settings that were set; the others have Zulip's defaults
    /// (see `crate::groups::realm_setting`).
    pub groups: BTreeMap<String, GroupSetting>,
    /// The plain properties the organization changed from Zulip's defaults (see
    /// `crate::model::realm_properties`).
    pub properties: serde_json::Map<String, serde_json::Value>,
    /// The personal settings new users start with, as changes from Zulip's defaults
    /// (`PATCH /realm/user_settings_defaults`).
    pub user_defaults: serde_json::Map<String, serde_json::Value>,
    /// Code playgrounds ("view in playground" links on code blocks), in the order added.
    pub playgrounds: Vec<Playground>,
    /// The id the next playground gets: ids are never reused.
    pub next_playground_id: u64,
    /// Default channel groups (Zulip's `DefaultStreamGroup`), in the order made.
    pub default_channel_groups: Vec<DefaultChannelGroup>,
    /// The id the next default channel group gets: ids are never reused.
    pub next_default_channel_group_id: u64,
    /// When a deactivated organization's data may be deleted (`deletion_delay_days` after its
    /// deactivation), if its owner said; Confab itself deletes nothing.
    pub scheduled_deletion: Option<i64>,
}

/// A code playground (Zulip's `RealmPlayground`): code blocks in `pygments_language` get a
/// link to `url_template` with the code as its `code` variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playground {
    pub id: u64,
    pub name: String,
    pub pygments_language: String,
    pub url_template: String,
}

/// A default channel group (Zulip's `DefaultStreamGroup`): channels offered together to
/// people signing up, which they may choose to join as one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefaultChannelGroup {
    pub id: u64,
    /// Unique within the organization, compared exactly (Zulip's `unique_together`).
    pub name: String,
    pub description: String,
    /// The group's channels, in the order they were added.
    pub stream_ids: Vec<StreamId>,
}

impl Default for RealmSettings {
    fn default() -> Self {
        RealmSettings {
            allow_message_editing: true,
            message_content_edit_limit_seconds: Some(600),
            message_content_delete_limit_seconds: Some(600),
            move_messages_within_stream_limit_seconds: Some(604_800),
            move_messages_between_streams_limit_seconds: Some(604_800),
            moderation_request_channel_id: None,
            message_edit_history_visibility_policy: "all".to_owned(),
            topics_policy: "allow_empty_topic".to_owned(),
            groups: BTreeMap::new(),
            properties: serde_json::Map::new(),
            user_defaults: serde_json::Map::new(),
            playgrounds: Vec::new(),
            next_playground_id: 1,
            default_channel_groups: Vec::new(),
            next_default_channel_group_id: 1,
            scheduled_deletion: None,
        }
    }
}

impl Realm {
    /// Zulip's `sender_realm_str`: the subdomain, unique only within a server.
    pub fn string_id(&self) -> &str {
        &self.subdomain
    }
}
