//! One query's reads, remembered: a query that names the same channel, sender or organization
//! many times (100 messages of one channel, register's several passes over the users) reads and
//! decodes each once.
//!
//! Only for reads of one snapshot: a query on a read transaction, where nothing changes under
//! it. Commands must not use it: the writer applies a command's changes to the transaction the
//! next command reads.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Bound;

use crate::error::ApiResult;
use crate::ids::{IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserId};
use crate::model::{
    Credentials, Linkifier, Message, MessageFlags, Presence, ProfileField, ProfileValue, Reaction, Realm,
    Recipient, ScheduledMessage, SendOrigin, Stream, Subscription, User, UserGroup,
};
use crate::store::{Direction, MessageIdIter, MessageIndex, PendingDeliveries, Store};

/// A store that remembers the records queries name most often.
pub struct Memo<'s, S: Store> {
    store: &'s S,
    users: RefCell<HashMap<UserId, Option<User>>>,
    streams: RefCell<HashMap<StreamId, Option<Stream>>>,
    realm_users: RefCell<HashMap<RealmId, Vec<User>>>,
    user_groups: RefCell<HashMap<RealmId, Vec<UserGroup>>>,
    /// Register counts every channel's subscribers for `streams` and again for the
    /// subscriptions (`subscriber_count`).
    stream_subscribers: RefCell<HashMap<StreamId, Vec<UserId>>>,
}

impl<'s, S: Store> Memo<'s, S> {
    pub fn new(store: &'s S) -> Self {
        Memo {
            store,
            users: RefCell::default(),
            streams: RefCell::default(),
            realm_users: RefCell::default(),
            user_groups: RefCell::default(),
            stream_subscribers: RefCell::default(),
        }
    }
}

/// `read`'s answer for `key`, read once.
fn remembered<K: Hash + Eq + Copy, V: Clone>(
    memory: &RefCell<HashMap<K, V>>,
    key: K,
    read: impl FnOnce() -> ApiResult<V>,
) -> ApiResult<V> {
    if let Some(value) = memory.borrow().get(&key) {
        return Ok(value.clone());
    }
    let value = read()?;
    memory.borrow_mut().insert(key, value.clone());
    Ok(value)
}

macro_rules! pass_through {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $name(&self, $($arg: $ty),*) -> $ret { self.store.$name($($arg),*) })*
    };
}

impl<S: Store> Store for Memo<'_, S> {
    fn user(&self, id: UserId) -> ApiResult<Option<User>> {
        remembered(&self.users, id, || self.store.user(id))
    }

    fn stream(&self, id: StreamId) -> ApiResult<Option<Stream>> {
        remembered(&self.streams, id, || self.store.stream(id))
    }

    fn realm_users(&self, realm: RealmId) -> ApiResult<Vec<User>> {
        remembered(&self.realm_users, realm, || self.store.realm_users(realm))
    }

    fn user_groups(&self, realm: RealmId) -> ApiResult<Vec<UserGroup>> {
        remembered(&self.user_groups, realm, || self.store.user_groups(realm))
    }

    fn stream_subscribers(&self, stream: StreamId) -> ApiResult<Vec<UserId>> {
        remembered(&self.stream_subscribers, stream, || self.store.stream_subscribers(stream))
    }

    fn pending_deliveries(&self) -> ApiResult<PendingDeliveries<'_>> {
        self.store.pending_deliveries()
    }

    fn message_ids(
        &self,
        index: &MessageIndex,
        from: Bound<MessageId>,
        to: Bound<MessageId>,
        direction: Direction,
    ) -> ApiResult<MessageIdIter<'_>> {
        self.store.message_ids(index, from, to, direction)
    }

    pass_through! {
        realm(id: RealmId) -> ApiResult<Option<Realm>>;
        realm_by_subdomain(subdomain: &str) -> ApiResult<Option<RealmId>>;
        realms() -> ApiResult<Vec<Realm>>;
        user_by_delivery_email(realm: RealmId, email: &str) -> ApiResult<Option<UserId>>;
        deactivated_users(realm: RealmId) -> ApiResult<Vec<UserId>>;
        realm_user_ids(realm: RealmId) -> ApiResult<Vec<UserId>>;
        credentials(user: UserId) -> ApiResult<Option<Credentials>>;
        stream_by_name(realm: RealmId, name: &str) -> ApiResult<Option<StreamId>>;
        realm_streams(realm: RealmId) -> ApiResult<Vec<Stream>>;
        subscription(user: UserId, stream: StreamId) -> ApiResult<Option<Subscription>>;
        user_subscriptions(user: UserId) -> ApiResult<Vec<Subscription>>;
        recipient(id: RecipientId) -> ApiResult<Option<Recipient>>;
        direct_group(key: &str) -> ApiResult<Option<RecipientId>>;
        message(id: MessageId) -> ApiResult<Option<Message>>;
        message_kind(id: MessageId) -> ApiResult<Option<crate::model::MessageKind>>;
        message_flags(user: UserId, message: MessageId) -> ApiResult<Option<MessageFlags>>;
        prefetch_messages(user: UserId, ids: &[MessageId]) -> ApiResult<()>;
        prefetch_message_extras(ids: &[MessageId]) -> ApiResult<()>;
        message_users(message: MessageId) -> ApiResult<Vec<UserId>>;
        sent_message(origin: &SendOrigin) -> ApiResult<Option<MessageId>>;
        reactions(message: MessageId) -> ApiResult<Vec<Reaction>>;
        submessages(message: MessageId) -> ApiResult<Vec<crate::model::Submessage>>;
        linkifiers(realm: RealmId) -> ApiResult<Vec<Linkifier>>;
        presence(user: UserId) -> ApiResult<Option<Presence>>;
        presences_changed_after(realm: RealmId, after: u64) -> ApiResult<Vec<Presence>>;
        presence_sequence(realm: RealmId) -> ApiResult<u64>;
        user_settings(user: UserId) -> ApiResult<serde_json::Map<String, serde_json::Value>>;
        bot_service(bot: UserId) -> ApiResult<Option<crate::model::BotService>>;
        alert_words(user: UserId) -> ApiResult<Vec<String>>;
        attachment(id: u64) -> ApiResult<Option<crate::model::Attachment>>;
        attachment_by_path(path_id: &str) -> ApiResult<Option<crate::model::Attachment>>;
        user_attachments(user: UserId) -> ApiResult<Vec<crate::model::Attachment>>;
        muters(user: UserId) -> ApiResult<Vec<UserId>>;
        realm_emoji(realm: RealmId) -> ApiResult<Vec<crate::model::RealmEmoji>>;
        records(user: UserId, kind: crate::model::RecordKind) -> ApiResult<Vec<(u64, serde_json::Value)>>;
        topic_preference(user: UserId, stream: StreamId, topic: &str) -> ApiResult<Option<(u64, serde_json::Value)>>;
        channel_folders(realm: RealmId) -> ApiResult<Vec<crate::model::ChannelFolder>>;
        invitations(realm: RealmId) -> ApiResult<Vec<crate::model::Invitation>>;
        invitation_by_key(key: &str) -> ApiResult<Option<crate::model::Invitation>>;
        profile_fields(realm: RealmId) -> ApiResult<Vec<ProfileField>>;
        profile_values(user: UserId) -> ApiResult<Vec<ProfileValue>>;
        scheduled_message(id: ScheduledMessageId) -> ApiResult<Option<ScheduledMessage>>;
        user_scheduled_messages(user: UserId) -> ApiResult<Vec<ScheduledMessage>>;
        next_id(kind: IdKind) -> ApiResult<u64>;
    }
}
