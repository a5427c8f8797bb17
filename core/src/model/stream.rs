use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, RealmId, RecipientId, StreamId, UserId};
use crate::model::GroupSetting;

/// A channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stream {
    pub id: StreamId,
    pub realm_id: RealmId,
    pub name: String,
    pub description: String,
    pub rendered_description: String,
    pub date_created: i64,
    pub creator_id: Option<UserId>,
    pub invite_only: bool,
    pub is_web_public: bool,
    pub history_public_to_subscribers: bool,
    /// `None` inherits the organization's policy; `Some(-1)` keeps forever.
    pub message_retention_days: Option<i64>,
    pub is_archived: bool,
    pub recipient_id: RecipientId,
    pub first_message_id: Option<MessageId>,
    /// Whether a message was sent to it lately (Zulip's `is_recently_active`): true when made
    /// and whenever a message arrives, false once the weekly sweep finds none in the last 180
    /// days (see `api::channel_activity`). Channels stored before it existed start true, as
    /// the next sweep judges them.
    #[serde(default = "recently_active")]
    pub is_recently_active: bool,
    /// `inherit`, `allow_empty_topic`, `disable_empty_topic` or `empty_topic_only` (spec 2.5).
    #[serde(default = "inherit")]
    pub topics_policy: String,
    /// A default channel: new users are subscribed to it.
    #[serde(default)]
    pub is_default: bool,
    /// The channel folder it is in, if any.
    #[serde(default)]
    pub folder_id: Option<u64>,
    /// The channel's group settings; each unset one has its default (see
    /// [`ChannelPermissions`]).
    #[serde(default)]
    pub permissions: Box<ChannelPermissions>,
}

impl Stream {
    /// Public channels can be read and joined by any non-guest member of the organization.
    pub fn is_public(&self) -> bool {
        !self.invite_only
    }
}

fn recently_active() -> bool {
    true
}

fn inherit() -> String {
    "inherit".to_owned()
}

/// A channel's group settings (zulip-semantics §6.3). `None` is the default, resolved by
/// `crate::groups::channel_setting`: channels made before a setting existed need no migration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChannelPermissions {
    pub can_add_subscribers_group: Option<GroupSetting>,
    pub can_administer_channel_group: Option<GroupSetting>,
    pub can_create_topic_group: Option<GroupSetting>,
    pub can_delete_any_message_group: Option<GroupSetting>,
    pub can_delete_own_message_group: Option<GroupSetting>,
    pub can_move_messages_out_of_channel_group: Option<GroupSetting>,
    pub can_move_messages_within_channel_group: Option<GroupSetting>,
    pub can_remove_subscribers_group: Option<GroupSetting>,
    pub can_resolve_topics_group: Option<GroupSetting>,
    pub can_send_message_group: Option<GroupSetting>,
    pub can_subscribe_group: Option<GroupSetting>,
}

impl ChannelPermissions {
    /// Every setting with its name, in the order the API lists them.
    pub fn fields(&self) -> [(&'static str, &Option<GroupSetting>); 11] {
        [
            ("can_add_subscribers_group", &self.can_add_subscribers_group),
            ("can_administer_channel_group", &self.can_administer_channel_group),
            ("can_create_topic_group", &self.can_create_topic_group),
            ("can_delete_any_message_group", &self.can_delete_any_message_group),
            ("can_delete_own_message_group", &self.can_delete_own_message_group),
            ("can_move_messages_out_of_channel_group", &self.can_move_messages_out_of_channel_group),
            ("can_move_messages_within_channel_group", &self.can_move_messages_within_channel_group),
            ("can_remove_subscribers_group", &self.can_remove_subscribers_group),
            ("can_resolve_topics_group", &self.can_resolve_topics_group),
            ("can_send_message_group", &self.can_send_message_group),
            ("can_subscribe_group", &self.can_subscribe_group),
        ]
    }

    /// The setting called `name`, to change it.
    pub fn slot(&mut self, name: &str) -> Option<&mut Option<GroupSetting>> {
        let slots = [
            ("can_add_subscribers_group", &mut self.can_add_subscribers_group),
            ("can_administer_channel_group", &mut self.can_administer_channel_group),
            ("can_create_topic_group", &mut self.can_create_topic_group),
            ("can_delete_any_message_group", &mut self.can_delete_any_message_group),
            ("can_delete_own_message_group", &mut self.can_delete_own_message_group),
            ("can_move_messages_out_of_channel_group", &mut self.can_move_messages_out_of_channel_group),
            ("can_move_messages_within_channel_group", &mut self.can_move_messages_within_channel_group),
            ("can_remove_subscribers_group", &mut self.can_remove_subscribers_group),
            ("can_resolve_topics_group", &mut self.can_resolve_topics_group),
            ("can_send_message_group", &mut self.can_send_message_group),
            ("can_subscribe_group", &mut self.can_subscribe_group),
        ];
        slots.into_iter().find(|(n, _)| *n == name).map(|(_, slot)| slot)
    }
}

/// One user's membership of one channel, with the user's personal settings for it.
/// Unsubscribing keeps the row with `active = false`, as Zulip does, so settings survive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Subscription {
    pub user_id: UserId,
    pub stream_id: StreamId,
    pub active: bool,
    pub color: String,
    pub is_muted: bool,
    pub pin_to_top: bool,
    pub desktop_notifications: Option<bool>,
    pub audible_notifications: Option<bool>,
    pub push_notifications: Option<bool>,
    pub email_notifications: Option<bool>,
    pub wildcard_mentions_notify: Option<bool>,
}

impl Subscription {
    /// A new active subscription with Zulip's defaults and the given color.
    pub fn new(user_id: UserId, stream_id: StreamId, color: String) -> Self {
        Subscription {
            user_id,
            stream_id,
            active: true,
            color,
            is_muted: false,
            pin_to_top: false,
            desktop_notifications: None,
            audible_notifications: None,
            push_notifications: None,
            email_notifications: None,
            wildcard_mentions_notify: None,
        }
    }
}
