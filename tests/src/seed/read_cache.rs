//! The seeder's reads of what its commands never change, kept between commands.
//!
//! Core's commands read the organization's users again for every command: a channel's
//! creation decodes all 10,000 of them three times (its notices, its peers, its groups). That
//! was two thirds of seeding a channel. Seeding runs one command after another on one thread and sends no
//! command that changes a user, a realm or a group once users exist; so those records are read
//! once and cloned after, and any command whose changes touch them empties the cache.

use std::collections::HashMap;
use std::ops::Bound;
use std::sync::{Arc, Mutex};

use confab_core::ApiResult;
use confab_core::ids::{IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserId};
use confab_core::model::{
    Credentials, Message, MessageFlags, Presence, ProfileField, ProfileValue, Reaction, Realm, Recipient,
    ScheduledMessage, SendOrigin, Stream, Subscription, User, UserGroup,
};
use confab_core::store::{Change, Direction, MessageIdIter, MessageIndex, PendingDeliveries, Store};
use confab_server::store::WriteTables;

/// Users, realms and groups as last read; shared by the jobs of a seeding run.
#[derive(Default)]
pub(super) struct ReadCache {
    users: Mutex<HashMap<UserId, Option<User>>>,
    realm_users: Mutex<HashMap<RealmId, Vec<User>>>,
    realms: Mutex<HashMap<RealmId, Option<Realm>>>,
    groups: Mutex<HashMap<RealmId, Vec<UserGroup>>>,
}

impl ReadCache {
    pub fn shared() -> Arc<ReadCache> {
        Arc::new(ReadCache::default())
    }

    /// Forgets everything if `changes` write what the cache holds.
    pub fn forget_if_changed(&self, changes: &[Change]) {
        let touches = changes
            .iter()
            .any(|c| matches!(c, Change::PutUser(_) | Change::PutRealm(_) | Change::PutUserGroup(_)));
        if touches {
            lock(&self.users).clear();
            lock(&self.realm_users).clear();
            lock(&self.realms).clear();
            lock(&self.groups).clear();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Memoizes `read` under `key`.
fn memo<K: std::hash::Hash + Eq + Copy, V: Clone>(
    map: &Mutex<HashMap<K, V>>,
    key: K,
    read: impl FnOnce() -> ApiResult<V>,
) -> ApiResult<V> {
    if let Some(value) = lock(map).get(&key) {
        return Ok(value.clone());
    }
    let value = read()?;
    lock(map).insert(key, value.clone());
    Ok(value)
}

/// The writer's tables, with the cache in front of the records it holds.
pub(super) struct Cached<'a, 't> {
    pub tables: &'a WriteTables<'t>,
    pub cache: &'a ReadCache,
}

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $name(&self, $($arg: $ty),*) -> $ret { self.tables.$name($($arg),*) })*
    };
}

impl Store for Cached<'_, '_> {
    fn realm(&self, id: RealmId) -> ApiResult<Option<Realm>> {
        memo(&self.cache.realms, id, || self.tables.realm(id))
    }

    fn user(&self, id: UserId) -> ApiResult<Option<User>> {
        memo(&self.cache.users, id, || self.tables.user(id))
    }

    fn realm_users(&self, realm: RealmId) -> ApiResult<Vec<User>> {
        memo(&self.cache.realm_users, realm, || self.tables.realm_users(realm))
    }

    fn user_groups(&self, realm: RealmId) -> ApiResult<Vec<UserGroup>> {
        memo(&self.cache.groups, realm, || self.tables.user_groups(realm))
    }

    fn pending_deliveries(&self) -> ApiResult<PendingDeliveries<'_>> {
        self.tables.pending_deliveries()
    }

    fn message_ids(
        &self,
        index: &MessageIndex,
        from: Bound<MessageId>,
        to: Bound<MessageId>,
        direction: Direction,
    ) -> ApiResult<MessageIdIter<'_>> {
        self.tables.message_ids(index, from, to, direction)
    }

    delegate! {
        realm_by_subdomain(subdomain: &str) -> ApiResult<Option<RealmId>>;
        realms() -> ApiResult<Vec<Realm>>;
        user_by_delivery_email(realm: RealmId, email: &str) -> ApiResult<Option<UserId>>;
        credentials(user: UserId) -> ApiResult<Option<Credentials>>;
        stream(id: StreamId) -> ApiResult<Option<Stream>>;
        stream_by_name(realm: RealmId, name: &str) -> ApiResult<Option<StreamId>>;
        realm_streams(realm: RealmId) -> ApiResult<Vec<Stream>>;
        subscription(user: UserId, stream: StreamId) -> ApiResult<Option<Subscription>>;
        user_subscriptions(user: UserId) -> ApiResult<Vec<Subscription>>;
        stream_subscribers(stream: StreamId) -> ApiResult<Vec<UserId>>;
        recipient(id: RecipientId) -> ApiResult<Option<Recipient>>;
        direct_group(key: &str) -> ApiResult<Option<RecipientId>>;
        message(id: MessageId) -> ApiResult<Option<Message>>;
        message_kind(id: MessageId) -> ApiResult<Option<confab_core::model::MessageKind>>;
        message_flags(user: UserId, message: MessageId) -> ApiResult<Option<MessageFlags>>;
        message_users(message: MessageId) -> ApiResult<Vec<UserId>>;
        sent_message(origin: &SendOrigin) -> ApiResult<Option<MessageId>>;
        reactions(message: MessageId) -> ApiResult<Vec<Reaction>>;
        submessages(message: MessageId) -> ApiResult<Vec<confab_core::model::Submessage>>;
        linkifiers(realm: RealmId) -> ApiResult<Vec<confab_core::model::Linkifier>>;
        presence(user: UserId) -> ApiResult<Option<Presence>>;
        user_settings(user: UserId) -> ApiResult<serde_json::Map<String, serde_json::Value>>;
        bot_service(bot: UserId) -> ApiResult<Option<confab_core::model::BotService>>;
        invitations(realm: RealmId) -> ApiResult<Vec<confab_core::model::Invitation>>;
        invitation_by_key(key: &str) -> ApiResult<Option<confab_core::model::Invitation>>;
        alert_words(user: UserId) -> ApiResult<Vec<String>>;
        attachment(id: u64) -> ApiResult<Option<confab_core::model::Attachment>>;
        attachment_by_path(path_id: &str) -> ApiResult<Option<confab_core::model::Attachment>>;
        user_attachments(user: UserId) -> ApiResult<Vec<confab_core::model::Attachment>>;
        muters(user: UserId) -> ApiResult<Vec<UserId>>;
        realm_emoji(realm: RealmId) -> ApiResult<Vec<confab_core::model::RealmEmoji>>;
        records(user: UserId, kind: confab_core::model::RecordKind) -> ApiResult<Vec<(u64, serde_json::Value)>>;
        topic_preference(user: UserId, stream: StreamId, topic: &str) -> ApiResult<Option<(u64, serde_json::Value)>>;
        deactivated_users(realm: RealmId) -> ApiResult<Vec<UserId>>;
        realm_user_ids(realm: RealmId) -> ApiResult<Vec<UserId>>;
        presences_changed_after(realm: RealmId, after: u64) -> ApiResult<Vec<Presence>>;
        presence_sequence(realm: RealmId) -> ApiResult<u64>;
        channel_folders(realm: RealmId) -> ApiResult<Vec<confab_core::model::ChannelFolder>>;
        profile_fields(realm: RealmId) -> ApiResult<Vec<ProfileField>>;
        profile_values(user: UserId) -> ApiResult<Vec<ProfileValue>>;
        scheduled_message(id: ScheduledMessageId) -> ApiResult<Option<ScheduledMessage>>;
        user_scheduled_messages(user: UserId) -> ApiResult<Vec<ScheduledMessage>>;
        next_id(kind: IdKind) -> ApiResult<u64>;
    }
}
