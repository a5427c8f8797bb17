use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, RealmId, ScheduledMessageId, StreamId, UserId};

/// A message waiting for its time: one a user scheduled ("send later"), or a reminder that
/// Notification Bot sends them about a message. Zulip keeps both in one table with one id
/// sequence; so does Confab.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScheduledMessage {
    pub id: ScheduledMessageId,
    pub realm_id: RealmId,
    /// Who scheduled it: the sender of a scheduled message, the user a reminder is for.
    pub sender_id: UserId,
    pub target: ScheduledTarget,
    /// Markdown source, as checked when scheduled (a reminder's is the text Notification Bot
    /// will send).
    pub content: String,
    pub rendered_content: String,
    /// The client that scheduled or last edited it; the sent message carries its name.
    pub client: String,
    /// When to send, in UNIX seconds.
    pub deliver_at: i64,
    /// Whether the sent message starts read for its sender.
    pub read_by_sender: bool,
    /// Set for reminders.
    pub reminder: Option<ReminderOf>,
    pub state: DeliveryState,
}

/// Where a scheduled message goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ScheduledTarget {
    Stream {
        stream_id: StreamId,
        topic: String,
    },
    /// The other participants, sorted (the sender alone for a message to oneself): Zulip's
    /// `to` of a scheduled direct message.
    Direct {
        to: Vec<UserId>,
    },
}

/// What a reminder is about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReminderOf {
    pub message_id: MessageId,
    pub note: Option<String>,
}

/// Where a scheduled message is in its life.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DeliveryState {
    /// Waiting for its time.
    Pending,
    /// The server tried at its time and could not send it; a new time makes it pending again.
    Failed { message: String },
    /// Sent, as this message. Kept (as Zulip keeps it) so that a late edit is told so.
    Delivered { message_id: MessageId },
}

impl ScheduledMessage {
    pub fn is_reminder(&self) -> bool {
        self.reminder.is_some()
    }

    /// Not yet sent: listed to its owner, failed ones included.
    pub fn is_undelivered(&self) -> bool {
        !matches!(self.state, DeliveryState::Delivered { .. })
    }

    pub fn is_failed(&self) -> bool {
        matches!(self.state, DeliveryState::Failed { .. })
    }

    /// Waiting for the server to send it at `deliver_at`.
    pub fn is_pending(&self) -> bool {
        self.state == DeliveryState::Pending
    }
}
