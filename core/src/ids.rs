//! Identifier newtypes, so that a user id can never be passed where a channel id is meant.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// An organization (Zulip's "realm").
    RealmId
);
id_type!(
    /// A human or bot account. Unique across the server, as in Zulip.
    UserId
);
id_type!(
    /// A channel (Zulip's "stream"). Unique across the server.
    StreamId
);
id_type!(
    /// A message. Increasing in send order, unique across the server.
    MessageId
);
id_type!(
    /// A set of recipients: one channel, one user's personal inbox, or one direct-message group.
    RecipientId
);

id_type!(
    /// A user group, system or user-defined. Unique across the server.
    UserGroupId
);

id_type!(
    /// A scheduled message or reminder (one sequence, as in Zulip). Not the id the message
    /// gets when it is sent.
    ScheduledMessageId
);

id_type!(
    /// A submessage (a widget, or one change to it). Increasing in the order they were added,
    /// unique across the server, as Zulip's.
    SubmessageId
);

/// Which id sequence a new object draws from. The store keeps one counter per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    Realm,
    User,
    Stream,
    Message,
    Recipient,
    Linkifier,
    UserGroup,
    ChannelFolder,
    /// Personal records (`model::RecordKind`): one sequence for every kind.
    Record,
    Attachment,
    RealmEmoji,
    ProfileField,
    ScheduledMessage,
    Submessage,
    /// Invitations: email invitations and reusable links share one sequence.
    Invitation,
}

impl IdKind {
    /// The stable name under which the store keeps this counter.
    pub fn key(self) -> &'static str {
        match self {
            IdKind::Realm => "realm",
            IdKind::User => "user",
            IdKind::Stream => "stream",
            IdKind::Message => "message",
            IdKind::Recipient => "recipient",
            IdKind::Linkifier => "linkifier",
            IdKind::UserGroup => "user_group",
            IdKind::ChannelFolder => "channel_folder",
            IdKind::Record => "record",
            IdKind::Attachment => "attachment",
            IdKind::RealmEmoji => "realm_emoji",
            IdKind::ProfileField => "profile_field",
            IdKind::ScheduledMessage => "scheduled_message",
            IdKind::Submessage => "submessage",
            IdKind::Invitation => "invitation",
        }
    }
}
