//! Messages and what happens to them: `message`, `update_message`, `delete_message`,
//! `update_message_flags`, `reaction`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::Rest;

/// A new message, with the user's flags on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct MessageEvent {
    pub message: EventMessage,
    #[serde(default)]
    pub flags: Vec<String>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A message as events carry it: its conversation typed, the rest as sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct EventMessage {
    pub id: u64,
    /// `stream` or `private`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub stream_id: Option<u64>,
    /// The topic (Zulip's wire name).
    #[serde(default)]
    pub subject: String,
    pub display_recipient: Recipients,
    #[serde(flatten)]
    pub rest: Rest,
}

impl EventMessage {
    pub fn is_channel_message(&self) -> bool {
        self.kind == "stream"
    }
}

/// A channel message's channel name, or a direct message's participants (the user included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(untagged)]
pub enum Recipients {
    Channel(String),
    Users(Vec<RecipientRef>),
}

impl Recipients {
    pub fn user_ids(&self) -> Vec<u64> {
        match self {
            Recipients::Channel(_) => Vec::new(),
            Recipients::Users(users) => users.iter().map(|u| u.id).collect(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RecipientRef {
    pub id: u64,
    #[serde(flatten)]
    pub rest: Rest,
}

/// An edited or moved message (and, for a move, the others it took along).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct UpdateMessageEvent {
    pub message_id: u64,
    /// Every message changed (sorted), the edited one included.
    #[serde(default)]
    pub message_ids: Vec<u64>,
    /// The user's flags on the edited message.
    #[serde(default)]
    pub flags: Vec<String>,
    /// The new topic, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub subject: Option<String>,
    /// The new channel, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub new_stream_id: Option<u64>,
    #[serde(flatten)]
    pub rest: Rest,
}

impl UpdateMessageEvent {
    pub fn moves(&self) -> bool {
        self.subject.is_some() || self.new_stream_id.is_some()
    }
}

/// Deleted messages: one (`message_id`, for clients without `bulk_message_deletion`) or several.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct DeleteMessageEvent {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub message_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub message_ids: Option<Vec<u64>>,
    #[serde(flatten)]
    pub rest: Rest,
}

impl DeleteMessageEvent {
    pub fn ids(&self) -> Vec<u64> {
        match &self.message_ids {
            Some(ids) => ids.clone(),
            None => self.message_id.into_iter().collect(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum FlagOp {
    Add,
    Remove,
}

/// A flag added to or removed from messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct UpdateMessageFlagsEvent {
    pub op: FlagOp,
    pub flag: String,
    #[serde(default)]
    pub messages: Vec<u64>,
    /// With `remove` `read`: each message's conversation, keyed by message id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub message_details: Option<BTreeMap<String, MessageDetail>>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// A message marked unread, as `message_details` tells its conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct MessageDetail {
    /// `stream` or `private`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub stream_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub topic: Option<String>,
    /// A direct message's other participants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub user_ids: Option<Vec<u64>>,
    /// Whether it counts as a mention (sent only when it does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub mentioned: Option<bool>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum ReactionOp {
    Add,
    Remove,
}

/// A submessage added to a message: a widget's change (a vote, a new option, a struck task).
/// Register's state has no widgets, so it changes nothing there; clients add it to the cached
/// message's `submessages`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SubmessageEvent {
    pub message_id: u64,
    pub submessage_id: u64,
    pub sender_id: u64,
    pub msg_type: String,
    /// JSON text, as its sender sent it.
    pub content: String,
    #[serde(flatten)]
    pub rest: Rest,
}

/// An emoji reaction added or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ReactionEvent {
    pub op: ReactionOp,
    pub message_id: u64,
    pub user_id: u64,
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: String,
    #[serde(flatten)]
    pub rest: Rest,
}
