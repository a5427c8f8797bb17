//! An in-memory [`Store`]: the browser's cache in `confab-web`, and the store core's own tests
//! run commands against. It applies [`Change`]s with the same meaning as the server's redb
//! store; indexes are computed by filtering, which is fine at cache sizes.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use crate::error::ApiResult;
use crate::ids::{
    IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserGroupId, UserId,
};
use crate::model::{
    Credentials, Linkifier, Message, MessageFlags, MessageKind, Presence, ProfileField, ProfileValue,
    Reaction, Realm, Recipient, RecipientKind, ScheduledMessage, SendOrigin, Stream, Submessage,
    Subscription, User, UserGroup, direct_group_key,
};
use crate::store::{Change, Direction, MessageIdIter, MessageIndex, PendingDeliveries, Store};

/// Everything, in ordered maps.
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    realms: BTreeMap<RealmId, Realm>,
    users: BTreeMap<UserId, User>,
    credentials: BTreeMap<UserId, Credentials>,
    recipients: BTreeMap<RecipientId, Recipient>,
    streams: BTreeMap<StreamId, Stream>,
    subscriptions: BTreeMap<(UserId, StreamId), Subscription>,
    messages: BTreeMap<MessageId, Message>,
    flags: BTreeMap<(UserId, MessageId), MessageFlags>,
    sent: BTreeMap<SendOrigin, MessageId>,
    reactions: BTreeMap<MessageId, Vec<Reaction>>,
    submessages: BTreeMap<MessageId, Vec<Submessage>>,
    linkifiers: BTreeMap<(RealmId, u64), Linkifier>,
    user_groups: BTreeMap<(RealmId, UserGroupId), UserGroup>,
    channel_folders: BTreeMap<(RealmId, u64), crate::model::ChannelFolder>,
    records: BTreeMap<(UserId, crate::model::RecordKind, u64), serde_json::Value>,
    attachments: BTreeMap<u64, crate::model::Attachment>,
    realm_emoji: BTreeMap<(RealmId, u64), crate::model::RealmEmoji>,
    user_settings: BTreeMap<UserId, serde_json::Map<String, serde_json::Value>>,
    alert_words: BTreeMap<UserId, Vec<String>>,
    bot_services: BTreeMap<UserId, crate::model::BotService>,
    presences: BTreeMap<UserId, Presence>,
    profile_fields: BTreeMap<(RealmId, u64), ProfileField>,
    profile_values: BTreeMap<(UserId, u64), ProfileValue>,
    scheduled_messages: BTreeMap<ScheduledMessageId, ScheduledMessage>,
    invitations: BTreeMap<(RealmId, u64), crate::model::Invitation>,
    counters: BTreeMap<&'static str, u64>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A store holding one organization on the root, whose owner is `ada@example.com` with
    /// this password hash: the fixture of core's unit tests.
    #[cfg(test)]
    pub fn with_one_organization(password_hash: Option<&str>) -> (MemoryStore, crate::model::Realm) {
        use crate::api::realm::{NewRealm, create_realm};
        use crate::api::users::NewUser;
        let mut store = MemoryStore::new();
        let owner = NewUser {
            email: "ada@example.com".into(),
            full_name: "Ada".into(),
            role: crate::model::Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: "k".repeat(32),
            password_hash: password_hash.map(str::to_owned),
        };
        let created = create_realm(&store, NewRealm { subdomain: String::new(), name: "T".into(), owner }, 1)
            .expect("an organization");
        store.apply_all(&created.changes);
        let realm = store.realm_by_subdomain("").ok().flatten().and_then(|id| store.realm(id).ok().flatten());
        (store, realm.expect("its record"))
    }

    fn bump(&mut self, kind: IdKind, used: u64) {
        let next = self.counters.entry(kind.key()).or_insert(1);
        *next = (*next).max(used + 1);
    }

    /// Applies one change, as the server's store does.
    pub fn apply(&mut self, change: &Change) {
        match change {
            Change::PutRealm(realm) => {
                self.bump(IdKind::Realm, realm.id.0);
                self.realms.insert(realm.id, realm.clone());
            }
            Change::PutUser(user) => {
                self.bump(IdKind::User, user.id.0);
                self.users.insert(user.id, user.clone());
            }
            Change::PutCredentials(user, credentials) => {
                self.credentials.insert(*user, credentials.clone());
            }
            Change::PutRecipient(recipient) => {
                self.bump(IdKind::Recipient, recipient.id.0);
                self.recipients.insert(recipient.id, recipient.clone());
            }
            Change::PutStream(stream) => {
                self.bump(IdKind::Stream, stream.id.0);
                self.streams.insert(stream.id, stream.clone());
            }
            Change::PutSubscription(sub) => {
                self.subscriptions.insert((sub.user_id, sub.stream_id), sub.clone());
            }
            Change::InsertMessage { message, receivers } => {
                self.bump(IdKind::Message, message.id.0);
                for (user, flags) in receivers {
                    self.flags.insert((*user, message.id), *flags);
                }
                self.messages.insert(message.id, message.clone());
            }
            Change::PutSentMessage { origin, message } => {
                self.sent.insert(origin.clone(), *message);
            }
            Change::SetMessageFlags { user, message, flags } => {
                self.flags.insert((*user, *message), *flags);
            }
            Change::DeleteMessageFlags { user, message } => {
                self.flags.remove(&(*user, *message));
            }
            Change::UpdateMessage(message) => {
                self.messages.insert(message.id, message.clone());
            }
            Change::DeleteMessage(id) => {
                self.messages.remove(id);
                self.reactions.remove(id);
                self.submessages.remove(id);
                self.flags.retain(|(_, message), _| message != id);
            }
            Change::AddReaction(reaction) => {
                self.reactions.entry(reaction.message_id).or_default().push(reaction.clone());
            }
            Change::RemoveReaction(reaction) => {
                if let Some(list) = self.reactions.get_mut(&reaction.message_id) {
                    list.retain(|r| r != reaction);
                }
            }
            Change::AddSubmessage(submessage) => {
                self.bump(IdKind::Submessage, submessage.id.0);
                let list = self.submessages.entry(submessage.message_id).or_default();
                list.retain(|s| s.id != submessage.id);
                list.push(submessage.clone());
                list.sort_by_key(|s| s.id);
            }
            Change::PutInvitation(invitation) => {
                self.bump(IdKind::Invitation, invitation.id);
                self.invitations.insert((invitation.realm_id, invitation.id), invitation.clone());
            }
            Change::PutLinkifier(linkifier) => {
                self.bump(IdKind::Linkifier, linkifier.id);
                self.linkifiers.insert((linkifier.realm_id, linkifier.id), linkifier.clone());
            }
            Change::PutBotService(service) => {
                self.bot_services.insert(service.bot_id, service.clone());
            }
            Change::PutAlertWords(user, words) => {
                self.alert_words.insert(*user, words.clone());
            }
            Change::PutUserSettings(user, settings) => {
                self.user_settings.insert(*user, settings.clone());
            }
            Change::PutUserGroup(group) => {
                self.bump(IdKind::UserGroup, group.id.0);
                self.user_groups.insert((group.realm_id, group.id), UserGroup::clone(group));
            }
            Change::PutAttachment(attachment) => {
                self.bump(IdKind::Attachment, attachment.id);
                self.attachments.insert(attachment.id, attachment.clone());
            }
            Change::DeleteAttachment(attachment) => {
                self.attachments.remove(&attachment.id);
            }
            Change::PutRealmEmoji(emoji) => {
                self.bump(IdKind::RealmEmoji, emoji.id);
                self.realm_emoji.insert((emoji.realm_id, emoji.id), emoji.clone());
            }
            Change::PutRecord { user, kind, id, value } => {
                self.bump(IdKind::Record, *id);
                self.records.insert((*user, *kind, *id), value.clone());
            }
            Change::DeleteRecord { user, kind, id } => {
                self.records.remove(&(*user, *kind, *id));
            }
            Change::PutChannelFolder(folder) => {
                self.bump(IdKind::ChannelFolder, folder.id);
                self.channel_folders.insert((folder.realm_id, folder.id), folder.clone());
            }
            Change::DeleteLinkifier { realm, id } => {
                self.linkifiers.remove(&(*realm, *id));
            }
            Change::PutPresence(presence) => {
                self.presences.insert(presence.user_id, *presence);
            }
            Change::PutProfileField(field) => {
                self.bump(IdKind::ProfileField, field.id);
                self.profile_fields.insert((field.realm_id, field.id), field.clone());
            }
            Change::DeleteProfileField { realm, id } => {
                self.profile_fields.remove(&(*realm, *id));
            }
            Change::PutProfileValue { user, field, value } => match value {
                Some(value) => {
                    self.profile_values.insert((*user, *field), value.clone());
                }
                None => {
                    self.profile_values.remove(&(*user, *field));
                }
            },
            Change::PutScheduledMessage(scheduled) => {
                self.bump(IdKind::ScheduledMessage, scheduled.id.0);
                self.scheduled_messages.insert(scheduled.id, scheduled.clone());
            }
            Change::DeleteScheduledMessage(id) => {
                self.scheduled_messages.remove(id);
            }
        }
    }

    /// Applies changes in order.
    pub fn apply_all(&mut self, changes: &[Change]) {
        for change in changes {
            self.apply(change);
        }
    }

    /// The conversation a direct message is filed under for `user` (see the server's store).
    fn conversation_of(&self, message: &Message, user: UserId) -> Option<RecipientId> {
        let MessageKind::Direct { participants } = &message.kind else { return None };
        if participants.len() == 2 && user != message.sender_id {
            return self.users.get(&message.sender_id).map(|s| s.personal_recipient);
        }
        Some(message.recipient_id)
    }

    fn in_index(&self, index: &MessageIndex, message: &Message) -> bool {
        let flags = |user: &UserId| self.flags.get(&(*user, message.id)).copied();
        match index {
            MessageIndex::UserHistory(user) => flags(user).is_some(),
            MessageIndex::UserFlag(user, flag) => flags(user).is_some_and(|f| flag.holds(f)),
            MessageIndex::UserConversation(user, recipient) => {
                flags(user).is_some() && self.conversation_of(message, *user) == Some(*recipient)
            }
            MessageIndex::Recipient(recipient) => message.recipient_id == *recipient,
            MessageIndex::Topic(recipient, topic) => {
                message.recipient_id == *recipient
                    && !message.is_direct()
                    && message.topic().to_lowercase() == *topic
            }
            MessageIndex::Sender(user) => message.sender_id == *user,
            MessageIndex::Realm(realm) => message.realm_id == *realm,
            MessageIndex::Word(realm, word) => {
                message.realm_id == *realm
                    && crate::search::message_words(&message.content, message.topic()).contains(word)
            }
        }
    }
}

impl Store for MemoryStore {
    fn realm(&self, id: RealmId) -> ApiResult<Option<Realm>> {
        Ok(self.realms.get(&id).cloned())
    }

    fn realm_by_subdomain(&self, subdomain: &str) -> ApiResult<Option<RealmId>> {
        Ok(self.realms.values().find(|r| r.subdomain == subdomain).map(|r| r.id))
    }

    fn realms(&self) -> ApiResult<Vec<Realm>> {
        Ok(self.realms.values().cloned().collect())
    }

    fn user(&self, id: UserId) -> ApiResult<Option<User>> {
        Ok(self.users.get(&id).cloned())
    }

    fn user_by_delivery_email(&self, realm: RealmId, email: &str) -> ApiResult<Option<UserId>> {
        let email = email.trim().to_lowercase();
        Ok(self
            .users
            .values()
            .find(|u| u.realm_id == realm && u.delivery_email.to_lowercase() == email)
            .map(|u| u.id))
    }

    fn realm_users(&self, realm: RealmId) -> ApiResult<Vec<User>> {
        Ok(self.users.values().filter(|u| u.realm_id == realm).cloned().collect())
    }

    fn deactivated_users(&self, realm: RealmId) -> ApiResult<Vec<UserId>> {
        Ok(self.users.values().filter(|u| u.realm_id == realm && !u.is_active).map(|u| u.id).collect())
    }

    fn realm_user_ids(&self, realm: RealmId) -> ApiResult<Vec<UserId>> {
        Ok(self.users.values().filter(|u| u.realm_id == realm).map(|u| u.id).collect())
    }

    fn credentials(&self, user: UserId) -> ApiResult<Option<Credentials>> {
        Ok(self.credentials.get(&user).cloned())
    }

    fn stream(&self, id: StreamId) -> ApiResult<Option<Stream>> {
        Ok(self.streams.get(&id).cloned())
    }

    fn stream_by_name(&self, realm: RealmId, name: &str) -> ApiResult<Option<StreamId>> {
        let name = name.trim().to_lowercase();
        Ok(self.streams.values().find(|s| s.realm_id == realm && s.name.to_lowercase() == name).map(|s| s.id))
    }

    fn realm_streams(&self, realm: RealmId) -> ApiResult<Vec<Stream>> {
        Ok(self.streams.values().filter(|s| s.realm_id == realm).cloned().collect())
    }

    fn subscription(&self, user: UserId, stream: StreamId) -> ApiResult<Option<Subscription>> {
        Ok(self.subscriptions.get(&(user, stream)).cloned())
    }

    fn user_subscriptions(&self, user: UserId) -> ApiResult<Vec<Subscription>> {
        Ok(self.subscriptions.values().filter(|s| s.user_id == user).cloned().collect())
    }

    fn stream_subscribers(&self, stream: StreamId) -> ApiResult<Vec<UserId>> {
        Ok(self
            .subscriptions
            .values()
            .filter(|s| s.stream_id == stream && s.active)
            .map(|s| s.user_id)
            .collect())
    }

    fn recipient(&self, id: RecipientId) -> ApiResult<Option<Recipient>> {
        Ok(self.recipients.get(&id).cloned())
    }

    fn direct_group(&self, key: &str) -> ApiResult<Option<RecipientId>> {
        Ok(self
            .recipients
            .values()
            .find(|r| matches!(&r.kind, RecipientKind::DirectGroup(members) if direct_group_key(members) == key))
            .map(|r| r.id))
    }

    fn message(&self, id: MessageId) -> ApiResult<Option<Message>> {
        Ok(self.messages.get(&id).cloned())
    }

    fn message_flags(&self, user: UserId, message: MessageId) -> ApiResult<Option<MessageFlags>> {
        Ok(self.flags.get(&(user, message)).copied())
    }

    fn message_users(&self, message: MessageId) -> ApiResult<Vec<UserId>> {
        let users: BTreeSet<UserId> =
            self.flags.keys().filter(|(_, m)| *m == message).map(|(u, _)| *u).collect();
        Ok(users.into_iter().collect())
    }

    fn sent_message(&self, origin: &SendOrigin) -> ApiResult<Option<MessageId>> {
        Ok(self.sent.get(origin).copied())
    }

    fn reactions(&self, message: MessageId) -> ApiResult<Vec<Reaction>> {
        Ok(self.reactions.get(&message).cloned().unwrap_or_default())
    }

    fn submessages(&self, message: MessageId) -> ApiResult<Vec<Submessage>> {
        Ok(self.submessages.get(&message).cloned().unwrap_or_default())
    }

    fn linkifiers(&self, realm: RealmId) -> ApiResult<Vec<Linkifier>> {
        let mut list: Vec<Linkifier> =
            self.linkifiers.values().filter(|l| l.realm_id == realm).cloned().collect();
        list.sort_by_key(|l| (l.order, l.id));
        Ok(list)
    }

    fn muters(&self, user: UserId) -> ApiResult<Vec<UserId>> {
        Ok(self
            .records
            .keys()
            .filter(|(_, kind, id)| *kind == crate::model::RecordKind::MutedUser && *id == user.0)
            .map(|(muter, _, _)| *muter)
            .collect())
    }

    fn attachment(&self, id: u64) -> ApiResult<Option<crate::model::Attachment>> {
        Ok(self.attachments.get(&id).cloned())
    }

    fn attachment_by_path(&self, path_id: &str) -> ApiResult<Option<crate::model::Attachment>> {
        Ok(self.attachments.values().find(|a| a.path_id == path_id).cloned())
    }

    fn user_attachments(&self, user: UserId) -> ApiResult<Vec<crate::model::Attachment>> {
        Ok(self.attachments.values().filter(|a| a.owner_id == user).cloned().collect())
    }

    fn realm_emoji(&self, realm: RealmId) -> ApiResult<Vec<crate::model::RealmEmoji>> {
        Ok(self.realm_emoji.range((realm, 0)..=(realm, u64::MAX)).map(|(_, e)| e.clone()).collect())
    }

    fn records(
        &self,
        user: UserId,
        kind: crate::model::RecordKind,
    ) -> ApiResult<Vec<(u64, serde_json::Value)>> {
        let range = (user, kind, 0)..=(user, kind, u64::MAX);
        Ok(self.records.range(range).map(|((_, _, id), value)| (*id, value.clone())).collect())
    }

    fn topic_preference(
        &self,
        user: UserId,
        stream: StreamId,
        topic: &str,
    ) -> ApiResult<Option<(u64, serde_json::Value)>> {
        let kind = crate::model::RecordKind::UserTopic;
        let key = crate::model::topic_preference_key(stream, topic);
        Ok(self
            .records
            .range((user, kind, 0)..=(user, kind, u64::MAX))
            .find(|(_, value)| crate::model::topic_preference_place(value).as_ref() == Some(&key))
            .map(|((_, _, id), value)| (*id, value.clone())))
    }

    fn invitations(&self, realm: RealmId) -> ApiResult<Vec<crate::model::Invitation>> {
        Ok(self.invitations.range((realm, 0)..=(realm, u64::MAX)).map(|(_, i)| i.clone()).collect())
    }

    fn invitation_by_key(&self, key: &str) -> ApiResult<Option<crate::model::Invitation>> {
        Ok(self.invitations.values().find(|i| i.key == key).cloned())
    }

    fn channel_folders(&self, realm: RealmId) -> ApiResult<Vec<crate::model::ChannelFolder>> {
        let mut list: Vec<_> =
            self.channel_folders.values().filter(|f| f.realm_id == realm).cloned().collect();
        list.sort_by_key(|f| (f.order, f.id));
        Ok(list)
    }

    fn bot_service(&self, bot: UserId) -> ApiResult<Option<crate::model::BotService>> {
        Ok(self.bot_services.get(&bot).cloned())
    }

    fn profile_fields(&self, realm: RealmId) -> ApiResult<Vec<ProfileField>> {
        Ok(self.profile_fields.range((realm, 0)..=(realm, u64::MAX)).map(|(_, f)| f.clone()).collect())
    }

    fn profile_values(&self, user: UserId) -> ApiResult<Vec<ProfileValue>> {
        Ok(self.profile_values.range((user, 0)..=(user, u64::MAX)).map(|(_, v)| v.clone()).collect())
    }

    fn alert_words(&self, user: UserId) -> ApiResult<Vec<String>> {
        Ok(self.alert_words.get(&user).cloned().unwrap_or_default())
    }

    fn user_settings(&self, user: UserId) -> ApiResult<serde_json::Map<String, serde_json::Value>> {
        Ok(self.user_settings.get(&user).cloned().unwrap_or_default())
    }

    fn user_groups(&self, realm: RealmId) -> ApiResult<Vec<UserGroup>> {
        Ok(self
            .user_groups
            .range((realm, UserGroupId(0))..=(realm, UserGroupId(u64::MAX)))
            .map(|(_, g)| g.clone())
            .collect())
    }

    fn presence(&self, user: UserId) -> ApiResult<Option<Presence>> {
        Ok(self.presences.get(&user).copied())
    }

    fn presences_changed_after(&self, realm: RealmId, after: u64) -> ApiResult<Vec<Presence>> {
        let mut changed: Vec<Presence> = self
            .presences
            .values()
            .filter(|p| p.realm_id == realm && p.last_update_id > after)
            .copied()
            .collect();
        changed.sort_by_key(|p| p.last_update_id);
        Ok(changed)
    }

    fn presence_sequence(&self, realm: RealmId) -> ApiResult<u64> {
        Ok(self
            .presences
            .values()
            .filter(|p| p.realm_id == realm)
            .map(|p| p.last_update_id)
            .max()
            .unwrap_or(0))
    }

    fn scheduled_message(&self, id: ScheduledMessageId) -> ApiResult<Option<ScheduledMessage>> {
        Ok(self.scheduled_messages.get(&id).cloned())
    }

    fn user_scheduled_messages(&self, user: UserId) -> ApiResult<Vec<ScheduledMessage>> {
        Ok(self
            .scheduled_messages
            .values()
            .filter(|s| s.sender_id == user && s.is_undelivered())
            .cloned()
            .collect())
    }

    fn pending_deliveries(&self) -> ApiResult<PendingDeliveries<'_>> {
        let mut pending: Vec<(i64, ScheduledMessageId)> = self
            .scheduled_messages
            .values()
            .filter(|s| s.is_pending())
            .map(|s| (s.deliver_at, s.id))
            .collect();
        pending.sort_unstable();
        Ok(Box::new(pending.into_iter().map(Ok)))
    }

    fn message_ids(
        &self,
        index: &MessageIndex,
        from: Bound<MessageId>,
        to: Bound<MessageId>,
        direction: Direction,
    ) -> ApiResult<MessageIdIter<'_>> {
        // BTreeMap::range panics on inverted or doubly-excluded empty ranges.
        if let (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) = (from, to)
            && (a > b || (a == b && (matches!(from, Bound::Excluded(_)) || matches!(to, Bound::Excluded(_)))))
        {
            return Ok(Box::new(std::iter::empty()));
        }
        let ids: Vec<MessageId> = self
            .messages
            .range((from, to))
            .filter(|(_, message)| self.in_index(index, message))
            .map(|(id, _)| *id)
            .collect();
        Ok(match direction {
            Direction::Ascending => Box::new(ids.into_iter().map(Ok)),
            Direction::Descending => Box::new(ids.into_iter().rev().map(Ok)),
        })
    }

    fn next_id(&self, kind: IdKind) -> ApiResult<u64> {
        Ok(self.counters.get(kind.key()).copied().unwrap_or(1))
    }
}
