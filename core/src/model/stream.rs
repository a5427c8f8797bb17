use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, RealmId, RecipientId, StreamId, UserId};

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
}

impl Stream {
    /// Public channels can be read and joined by any non-guest member of the organization.
    pub fn is_public(&self) -> bool {
        !self.invite_only
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
