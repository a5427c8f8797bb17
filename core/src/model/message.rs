use serde::{Deserialize, Serialize};

use super::StoredHtml;
use crate::ids::{MessageId, RealmId, RecipientId, StreamId, SubmessageId, UserId};

/// Where a message was sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MessageKind {
    /// A channel message. `topic` may be empty (Zulip's "general chat").
    Stream { stream_id: StreamId, topic: String },
    /// A direct message; `participants` are every user in the conversation, sender included,
    /// sorted by id.
    Direct { participants: Vec<UserId> },
}

/// Where a send came from, as the client names it (Zulip's `queue_id` and `local_id`): the
/// sender, the event queue their client had registered and the client's own id for the message
/// (the web app sends ids like `"12.01"`). The queue learns which new message is its local echo;
/// the store remembers the send, so that a retry is answered with the message it posted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SendOrigin {
    pub sender: UserId,
    pub queue_id: String,
    pub local_id: String,
}

impl SendOrigin {
    /// The longest `queue_id` or `local_id`, in bytes, that the store remembers. Confab's queue
    /// ids have 36 characters and the clients' local ids a few; longer ones (the 25 MiB body
    /// limit allows megabytes) would make index keys of that size, so such a send is echoed
    /// but not remembered.
    pub const MAX_REMEMBERED_BYTES: usize = 255;

    /// Whether the store remembers this send: both ids non-empty (an empty id names no one
    /// send; a client sending `""` every time must not have its later messages swallowed) and
    /// within [`Self::MAX_REMEMBERED_BYTES`].
    pub fn is_remembered(&self) -> bool {
        let fits = |id: &str| !id.is_empty() && id.len() <= Self::MAX_REMEMBERED_BYTES;
        fits(&self.queue_id) && fits(&self.local_id)
    }
}

/// A stored message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: MessageId,
    pub realm_id: RealmId,
    pub sender_id: UserId,
    /// Stored recipient: the channel's, the receiver's personal one for a 1:1 message, the
    /// sender's own for a message to oneself, or the group's.
    pub recipient_id: RecipientId,
    pub kind: MessageKind,
    /// Markdown source.
    pub content: String,
    pub rendered_content: StoredHtml,
    pub timestamp: i64,
    /// The sending client's name, as Zulip reports it in `client`.
    pub client: String,
    pub is_me_message: bool,
    pub has_link: bool,
    pub has_image: bool,
    pub has_attachment: bool,
    pub last_edit_timestamp: Option<i64>,
    pub last_moved_timestamp: Option<i64>,
    /// Edits and moves, oldest first (the API shows them newest first).
    #[serde(default)]
    pub edit_history: Vec<EditRecord>,
}

/// One edit or move of a message, as Zulip's `edit_history` entries (spec 2.4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EditRecord {
    pub user_id: UserId,
    pub timestamp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_rendered_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_stream: Option<StreamId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_topic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
}

/// An emoji reaction (spec 1.7's emoji triple, and who reacted).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Reaction {
    pub message_id: MessageId,
    pub user_id: UserId,
    pub emoji_name: String,
    pub emoji_code: String,
    /// `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`.
    pub reaction_type: String,
}

/// Data attached to a message after it was sent (Zulip's `SubMessage`): what widgets are made
/// of. A `/poll` or `/todo` message gets a `widget` submessage from its sender when it is sent,
/// and each vote, new option or struck task is one more (see [`crate::widgets`]). Never changed
/// or removed but with their message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submessage {
    pub id: SubmessageId,
    pub message_id: MessageId,
    pub sender_id: UserId,
    /// `widget` for widgets; any string a client sends.
    pub msg_type: String,
    /// JSON text, kept as sent.
    pub content: String,
}

impl Message {
    pub fn stream_id(&self) -> Option<StreamId> {
        match &self.kind {
            MessageKind::Stream { stream_id, .. } => Some(*stream_id),
            MessageKind::Direct { .. } => None,
        }
    }

    /// The topic, or the empty string for direct messages.
    pub fn topic(&self) -> &str {
        match &self.kind {
            MessageKind::Stream { topic, .. } => topic,
            MessageKind::Direct { .. } => "",
        }
    }

    pub fn is_direct(&self) -> bool {
        matches!(self.kind, MessageKind::Direct { .. })
    }
}
