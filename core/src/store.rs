//! The boundary between rules and storage.
//!
//! Core reads through [`Store`] and writes by returning [`Change`]s. The native host implements
//! `Store` over a redb transaction (read-only for queries, the writer's own transaction for
//! commands, so a command sees the changes of the commands committed before it in the same
//! batch); host-web can implement it over memory. Nothing here knows how rows are laid out.

use std::ops::Bound;

use crate::error::ApiResult;
use crate::ids::{IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserId};
use crate::model::{
    Credentials, IndexedFlag, Invitation, Linkifier, Message, MessageFlags, MessageKind, Presence,
    ProfileField, ProfileValue, Reaction, Realm, Recipient, ScheduledMessage, SendOrigin, Stream, Submessage,
    Subscription, User, UserGroup,
};

/// An ordered set of message ids the store can walk without scanning all messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageIndex {
    /// Every message the user has received (has flags for).
    UserHistory(UserId),
    /// The user's messages in one flag index.
    UserFlag(UserId, IndexedFlag),
    /// The user's direct messages in one conversation, keyed by the conversation's recipient id
    /// as that user sees it (the other user's personal recipient for a 1:1 conversation).
    UserConversation(UserId, RecipientId),
    /// Every message to one recipient (a channel's whole history).
    Recipient(RecipientId),
    /// Every message to one recipient in one topic; the topic is lower-cased.
    Topic(RecipientId, String),
    /// Every message one user sent.
    Sender(UserId),
    /// Every message of an organization.
    Realm(RealmId),
    /// Every message of an organization whose content or topic has this word
    /// (see [`crate::search::words`]).
    Word(RealmId, String),
}

/// Which way to walk an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Ascending,
    Descending,
}

/// A boxed iterator of message ids, as the store yields them.
pub type MessageIdIter<'a> = Box<dyn Iterator<Item = ApiResult<MessageId>> + 'a>;

/// A boxed iterator of pending deliveries, as the store yields them.
pub type PendingDeliveries<'a> = Box<dyn Iterator<Item = ApiResult<(i64, ScheduledMessageId)>> + 'a>;

/// Read access to stored state. Every lookup is scoped by the caller: core checks that the
/// object belongs to the caller's organization, so ids of other organizations act as missing.
pub trait Store {
    fn realm(&self, id: RealmId) -> ApiResult<Option<Realm>>;
    fn realm_by_subdomain(&self, subdomain: &str) -> ApiResult<Option<RealmId>>;
    /// Every organization on the server, by id.
    fn realms(&self) -> ApiResult<Vec<Realm>>;

    fn user(&self, id: UserId) -> ApiResult<Option<User>>;
    /// Looks up a real (delivery) email, compared case-insensitively. API emails, which differ
    /// for users who hide their address, are resolved by `api::users::user_by_api_email`.
    fn user_by_delivery_email(&self, realm: RealmId, email: &str) -> ApiResult<Option<UserId>>;
    fn realm_users(&self, realm: RealmId) -> ApiResult<Vec<User>>;
    /// The organization's deactivated users, bots included, by id. Few, and read on every
    /// channel send, whose subscribers among them receive nothing.
    fn deactivated_users(&self, realm: RealmId) -> ApiResult<Vec<UserId>>;
    /// The ids of an organization's users, active or not, in id order, without reading their
    /// records.
    fn realm_user_ids(&self, realm: RealmId) -> ApiResult<Vec<UserId>>;
    fn credentials(&self, user: UserId) -> ApiResult<Option<Credentials>>;

    fn stream(&self, id: StreamId) -> ApiResult<Option<Stream>>;
    /// Looks up a channel name, compared case-insensitively.
    fn stream_by_name(&self, realm: RealmId, name: &str) -> ApiResult<Option<StreamId>>;
    fn realm_streams(&self, realm: RealmId) -> ApiResult<Vec<Stream>>;

    fn subscription(&self, user: UserId, stream: StreamId) -> ApiResult<Option<Subscription>>;
    /// All of a user's subscription rows, active or not.
    fn user_subscriptions(&self, user: UserId) -> ApiResult<Vec<Subscription>>;
    /// Users with an active subscription.
    fn stream_subscribers(&self, stream: StreamId) -> ApiResult<Vec<UserId>>;

    fn recipient(&self, id: RecipientId) -> ApiResult<Option<Recipient>>;
    /// The recipient of a direct-message group, by [`crate::model::direct_group_key`].
    fn direct_group(&self, key: &str) -> ApiResult<Option<RecipientId>>;

    fn message(&self, id: MessageId) -> ApiResult<Option<Message>>;
    /// Where a message was sent, without the rest of it: what the unread summary needs of each
    /// unread message. A store may read it more cheaply than the whole message (its content and
    /// rendering are most of the record).
    fn message_kind(&self, id: MessageId) -> ApiResult<Option<MessageKind>> {
        Ok(self.message(id)?.map(|message| message.kind))
    }
    /// The user's flags for a message, or `None` if the user never received it.
    fn message_flags(&self, user: UserId, message: MessageId) -> ApiResult<Option<MessageFlags>>;
    /// A hint: these messages and `user`'s flags for them are read next. A store whose every
    /// read is a round trip (PostgreSQL) reads them together; one that reads memory ignores it.
    fn prefetch_messages(&self, _user: UserId, _ids: &[MessageId]) -> ApiResult<()> {
        Ok(())
    }
    /// A hint: these messages' reactions and submessages are read next (a page rendering).
    fn prefetch_message_extras(&self, _ids: &[MessageId]) -> ApiResult<()> {
        Ok(())
    }
    /// Every user with flags for the message (who received it, or touched it as history).
    fn message_users(&self, message: MessageId) -> ApiResult<Vec<UserId>>;
    /// The message a remembered send posted (see [`SendOrigin::is_remembered`]). The record
    /// outlives the message: a deleted message's id is still answered.
    fn sent_message(&self, origin: &SendOrigin) -> ApiResult<Option<MessageId>>;
    /// The message's reactions, in the order they were added.
    fn reactions(&self, message: MessageId) -> ApiResult<Vec<Reaction>>;
    /// The message's submessages, by id (the order they were added).
    fn submessages(&self, message: MessageId) -> ApiResult<Vec<Submessage>>;
    /// The organization's linkifiers, in order.
    fn linkifiers(&self, realm: RealmId) -> ApiResult<Vec<Linkifier>>;
    fn presence(&self, user: UserId) -> ApiResult<Option<Presence>>;
    /// The organization's presences whose latest change came after `after` in its presence
    /// sequence (`Presence::last_update_id > after`), in sequence order. Reads only those.
    fn presences_changed_after(&self, realm: RealmId, after: u64) -> ApiResult<Vec<Presence>>;
    /// Where the organization's presence sequence stands: the `last_update_id` of its latest
    /// presence change, 0 before any. Presences are never deleted, so it never goes back.
    fn presence_sequence(&self, realm: RealmId) -> ApiResult<u64>;
    /// The settings a user changed from Zulip's defaults (see `model::settings`).
    fn user_settings(&self, user: UserId) -> ApiResult<serde_json::Map<String, serde_json::Value>>;
    /// An outgoing-webhook bot's service.
    fn bot_service(&self, bot: UserId) -> ApiResult<Option<crate::model::BotService>>;
    /// A user's alert words, as they added them.
    fn alert_words(&self, user: UserId) -> ApiResult<Vec<String>>;
    /// The organization's user groups (system groups included), by id.
    fn user_groups(&self, realm: RealmId) -> ApiResult<Vec<UserGroup>>;
    fn attachment(&self, id: u64) -> ApiResult<Option<crate::model::Attachment>>;
    /// An uploaded file by its path (`Attachment::path_id`).
    fn attachment_by_path(&self, path_id: &str) -> ApiResult<Option<crate::model::Attachment>>;
    /// The files a user uploaded, by id.
    fn user_attachments(&self, user: UserId) -> ApiResult<Vec<crate::model::Attachment>>;
    /// The users who muted `user` (their `MutedUser` records name `user`).
    fn muters(&self, user: UserId) -> ApiResult<Vec<UserId>>;
    /// The organization's custom emoji, deactivated ones included, by id.
    fn realm_emoji(&self, realm: RealmId) -> ApiResult<Vec<crate::model::RealmEmoji>>;
    /// A user's records of one kind, by id.
    fn records(
        &self,
        user: UserId,
        kind: crate::model::RecordKind,
    ) -> ApiResult<Vec<(u64, serde_json::Value)>>;
    /// A user's topic preference (the `UserTopic` record naming the channel and the topic,
    /// compared case-insensitively), with its record id. Read on every channel send: looking it
    /// up must not cost as many reads as the user has preferences.
    fn topic_preference(
        &self,
        user: UserId,
        stream: StreamId,
        topic: &str,
    ) -> ApiResult<Option<(u64, serde_json::Value)>>;
    /// The organization's channel folders, archived ones included, in display order.
    fn channel_folders(&self, realm: RealmId) -> ApiResult<Vec<crate::model::ChannelFolder>>;
    /// The organization's custom profile fields, by id.
    fn profile_fields(&self, realm: RealmId) -> ApiResult<Vec<ProfileField>>;
    /// A user's custom profile field values, by field id.
    fn profile_values(&self, user: UserId) -> ApiResult<Vec<ProfileValue>>;
    /// A scheduled message or reminder, delivered ones included.
    fn scheduled_message(&self, id: ScheduledMessageId) -> ApiResult<Option<ScheduledMessage>>;
    /// A user's undelivered scheduled messages and reminders (failed ones included), by id.
    fn user_scheduled_messages(&self, user: UserId) -> ApiResult<Vec<ScheduledMessage>>;
    /// The organization's invitations, email ones and reusable links, used and revoked ones
    /// included, by id.
    fn invitations(&self, realm: RealmId) -> ApiResult<Vec<Invitation>>;
    /// The invitation whose link carries this confirmation key.
    fn invitation_by_key(&self, key: &str) -> ApiResult<Option<Invitation>>;
    /// Every pending scheduled message and reminder on the server as `(deliver_at, id)`,
    /// soonest first (ties by id).
    fn pending_deliveries(&self) -> ApiResult<PendingDeliveries<'_>>;
    /// Walks an index between two bounds.
    fn message_ids(
        &self,
        index: &MessageIndex,
        from: Bound<MessageId>,
        to: Bound<MessageId>,
        direction: Direction,
    ) -> ApiResult<MessageIdIter<'_>>;

    /// The next unused id of a kind. Core hands out ids from here; storing an object with an id
    /// moves the counter past it.
    fn next_id(&self, kind: IdKind) -> ApiResult<u64>;
}

/// A write, as a command asks for it. The host applies a command's changes in order, in one
/// transaction, keeping every index in step with the primary row. Changes serialize so that a
/// host can log them before applying them (the native host's write-ahead log replays them after
/// a crash); applying the same changes to the same state gives the same state.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Change {
    PutRealm(Realm),
    PutUser(User),
    PutCredentials(UserId, Credentials),
    PutRecipient(Recipient),
    PutStream(Stream),
    PutSubscription(Subscription),
    /// A new message and the users who receive it, with each one's initial flags.
    InsertMessage {
        message: Message,
        receivers: Vec<(UserId, MessageFlags)>,
    },
    /// Remembers which message a send posted, written with the message itself. Never removed,
    /// not even with the message.
    PutSentMessage {
        origin: SendOrigin,
        message: MessageId,
    },
    /// Sets a user's flags on a message, creating the row for a message the user never
    /// received (Zulip's `historical` rows).
    SetMessageFlags {
        user: UserId,
        message: MessageId,
        flags: MessageFlags,
    },
    /// Removes a user's row for a message (a user who lost access when it moved).
    DeleteMessageFlags {
        user: UserId,
        message: MessageId,
    },
    /// Replaces a message after an edit or move; the indexes follow its new channel, topic and
    /// words.
    UpdateMessage(Message),
    /// Deletes a message with its flags, reactions, submessages and index rows.
    DeleteMessage(MessageId),
    AddReaction(Reaction),
    RemoveReaction(Reaction),
    /// Adds a submessage to its message; the id counter moves past its id.
    AddSubmessage(Submessage),
    PutLinkifier(Linkifier),
    DeleteLinkifier {
        realm: RealmId,
        id: u64,
    },
    /// Stores a user's presence; the organization's sequence index follows its
    /// `last_update_id`.
    PutPresence(Presence),
    PutUserGroup(Box<UserGroup>),
    PutChannelFolder(crate::model::ChannelFolder),
    PutAttachment(crate::model::Attachment),
    DeleteAttachment(crate::model::Attachment),
    /// Adds or replaces (deactivates) a custom emoji.
    PutRealmEmoji(crate::model::RealmEmoji),
    /// Stores a personal record (see `model::RecordKind`), replacing one with the same id.
    PutRecord {
        user: UserId,
        kind: crate::model::RecordKind,
        id: u64,
        value: serde_json::Value,
    },
    DeleteRecord {
        user: UserId,
        kind: crate::model::RecordKind,
        id: u64,
    },
    PutBotService(crate::model::BotService),
    /// Replaces a user's alert words.
    PutAlertWords(UserId, Vec<String>),
    /// Replaces the settings a user changed from the defaults.
    PutUserSettings(UserId, serde_json::Map<String, serde_json::Value>),
    PutProfileField(ProfileField),
    /// Deletes a custom profile field (its values are deleted by their own changes).
    DeleteProfileField {
        realm: RealmId,
        id: u64,
    },
    /// Sets (`Some`) or clears (`None`) a user's value for a custom profile field.
    PutProfileValue {
        user: UserId,
        field: u64,
        value: Option<ProfileValue>,
    },
    /// Stores a scheduled message or reminder; the owner's list and the delivery queue follow
    /// its state.
    PutScheduledMessage(ScheduledMessage),
    DeleteScheduledMessage(ScheduledMessageId),
    /// Stores an invitation, replacing one with the same id; its key indexes it. The id
    /// counter moves past its id.
    PutInvitation(Invitation),
}

/// Hands out ids of one kind within a command, starting at the store's next id.
#[derive(Debug)]
pub struct IdAllocator {
    next: u64,
}

impl IdAllocator {
    pub fn new(store: &impl Store, kind: IdKind) -> ApiResult<Self> {
        Ok(IdAllocator { next: store.next_id(kind)? })
    }

    pub fn take(&mut self) -> u64 {
        let id = self.next;
        self.next += 1;
        id
    }
}
