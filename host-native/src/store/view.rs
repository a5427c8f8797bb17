//! `confab_core::store::Store` over the store's tables (through the engine seam), for read transactions and for the writer's
//! transaction alike (one macro, so both read the same way).

use std::ops::Bound;

use confab_core::ApiError;
use confab_core::ids::MessageId;

use super::tables::{ReadTables, WriteTables};

/// Converts the bounds core asks for into an inclusive range of message ids, or `None` if empty.
pub(super) fn id_range(from: Bound<MessageId>, to: Bound<MessageId>) -> Option<(u64, u64)> {
    let low = match from {
        Bound::Unbounded => 0,
        Bound::Included(id) => id.0,
        Bound::Excluded(id) => id.0.checked_add(1)?,
    };
    let high = match to {
        Bound::Unbounded => u64::MAX,
        Bound::Included(id) => id.0,
        Bound::Excluded(id) => id.0.checked_sub(1)?,
    };
    (low <= high).then_some((low, high))
}

pub(super) fn storage(err: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("storage: {err}"))
}

/// Turns a range over keys ending in a message id into message ids, in the asked direction.
macro_rules! ids_in {
    ($table:expr, $low:expr, $high:expr, $direction:expr, $extract:expr) => {{
        let range = $table.range($low..=$high).map_err(storage)?;
        let extract = $extract;
        let iter: confab_core::store::MessageIdIter<'_> = match $direction {
            confab_core::store::Direction::Ascending => Box::new(
                range.map(move |row| row.map(|(key, _)| MessageId(extract(key.value()))).map_err(storage)),
            ),
            confab_core::store::Direction::Descending => Box::new(
                range
                    .rev()
                    .map(move |row| row.map(|(key, _)| MessageId(extract(key.value()))).map_err(storage)),
            ),
        };
        iter
    }};
}

macro_rules! impl_store {
    ($view:ty) => {
        impl confab_core::store::Store for $view {
            fn realm(&self, id: RealmId) -> ApiResult<Option<Realm>> {
                record(self.realms.get(id.0).map_err(storage)?)
            }

            fn realm_by_subdomain(&self, subdomain: &str) -> ApiResult<Option<RealmId>> {
                Ok(self.subdomains.get(subdomain).map_err(storage)?.map(|v| RealmId(v.value())))
            }

            fn realms(&self) -> ApiResult<Vec<Realm>> {
                let mut realms = Vec::new();
                for row in self.realms.iter().map_err(storage)? {
                    let (_, value) = row.map_err(storage)?;
                    realms.extend(record(Some(value))?);
                }
                Ok(realms)
            }

            fn user(&self, id: UserId) -> ApiResult<Option<User>> {
                record(self.users.get(id.0).map_err(storage)?)
            }

            fn user_by_delivery_email(&self, realm: RealmId, email: &str) -> ApiResult<Option<UserId>> {
                let email = email.trim().to_lowercase();
                Ok(self.emails.get((realm.0, email.as_str())).map_err(storage)?.map(|v| UserId(v.value())))
            }

            fn realm_users(&self, realm: RealmId) -> ApiResult<Vec<User>> {
                let mut users = Vec::new();
                for row in self.realm_users.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    let (key, _) = row.map_err(storage)?;
                    if let Some(user) = self.user(UserId(key.value().1))? {
                        users.push(user);
                    }
                }
                Ok(users)
            }

            fn deactivated_users(&self, realm: RealmId) -> ApiResult<Vec<UserId>> {
                let mut users = Vec::new();
                for row in self.deactivated.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    users.push(UserId(row.map_err(storage)?.0.value().1));
                }
                Ok(users)
            }

            fn realm_user_ids(&self, realm: RealmId) -> ApiResult<Vec<UserId>> {
                let mut ids = Vec::new();
                for row in self.realm_users.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    ids.push(UserId(row.map_err(storage)?.0.value().1));
                }
                Ok(ids)
            }

            fn credentials(&self, user: UserId) -> ApiResult<Option<Credentials>> {
                record(self.credentials.get(user.0).map_err(storage)?)
            }

            fn stream(&self, id: StreamId) -> ApiResult<Option<Stream>> {
                record(self.streams.get(id.0).map_err(storage)?)
            }

            fn stream_by_name(&self, realm: RealmId, name: &str) -> ApiResult<Option<StreamId>> {
                let name = name.trim().to_lowercase();
                Ok(self
                    .stream_names
                    .get((realm.0, name.as_str()))
                    .map_err(storage)?
                    .map(|v| StreamId(v.value())))
            }

            fn realm_streams(&self, realm: RealmId) -> ApiResult<Vec<Stream>> {
                let mut streams = Vec::new();
                for row in self.realm_streams.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    let (key, _) = row.map_err(storage)?;
                    if let Some(stream) = self.stream(StreamId(key.value().1))? {
                        streams.push(stream);
                    }
                }
                Ok(streams)
            }

            fn subscription(&self, user: UserId, stream: StreamId) -> ApiResult<Option<Subscription>> {
                record(self.subscriptions.get((user.0, stream.0)).map_err(storage)?)
            }

            fn user_subscriptions(&self, user: UserId) -> ApiResult<Vec<Subscription>> {
                let mut subs = Vec::new();
                for row in self.subscriptions.range((user.0, 0)..=(user.0, u64::MAX)).map_err(storage)? {
                    let (_, value) = row.map_err(storage)?;
                    subs.push(codec::decode(value.value())?);
                }
                Ok(subs)
            }

            fn stream_subscribers(&self, stream: StreamId) -> ApiResult<Vec<UserId>> {
                let mut users = Vec::new();
                for row in self.subscribers.range((stream.0, 0)..=(stream.0, u64::MAX)).map_err(storage)? {
                    let (key, _) = row.map_err(storage)?;
                    users.push(UserId(key.value().1));
                }
                Ok(users)
            }

            fn recipient(&self, id: RecipientId) -> ApiResult<Option<Recipient>> {
                record(self.recipients.get(id.0).map_err(storage)?)
            }

            fn direct_group(&self, key: &str) -> ApiResult<Option<RecipientId>> {
                Ok(self.direct_groups.get(key).map_err(storage)?.map(|v| RecipientId(v.value())))
            }

            fn message(&self, id: MessageId) -> ApiResult<Option<Message>> {
                let row = self.messages.get(id.0).map_err(storage)?;
                row.map(|g| codec::decode_message(g.value())).transpose()
            }

            fn message_kind(&self, id: MessageId) -> ApiResult<Option<MessageKind>> {
                let row = self.messages.get(id.0).map_err(storage)?;
                let head: Option<MessageHead> =
                    row.map(|g| codec::decode_message_fields(g.value())).transpose()?;
                Ok(head.map(|head| head.kind))
            }

            fn message_flags(&self, user: UserId, message: MessageId) -> ApiResult<Option<MessageFlags>> {
                Ok(self.flags.get((user.0, message.0)).map_err(storage)?.map(|v| MessageFlags(v.value())))
            }

            fn prefetch_messages(&self, user: UserId, ids: &[MessageId]) -> ApiResult<()> {
                let messages: Vec<u64> = ids.iter().map(|id| id.0).collect();
                self.messages.prefetch(&messages).map_err(storage)?;
                let flags: Vec<(u64, u64)> = ids.iter().map(|id| (user.0, id.0)).collect();
                self.flags.prefetch(&flags).map_err(storage)
            }

            fn prefetch_message_extras(&self, ids: &[MessageId]) -> ApiResult<()> {
                // The bounds `reactions` and `submessages` read.
                let ranges: Vec<((u64, u64), (u64, u64))> =
                    ids.iter().map(|id| ((id.0, 0), (id.0, u64::MAX))).collect();
                self.reactions.prefetch_ranges(&ranges).map_err(storage)?;
                self.submessages.prefetch_ranges(&ranges).map_err(storage)
            }

            fn message_users(&self, message: MessageId) -> ApiResult<Vec<UserId>> {
                let mut users = Vec::new();
                for row in
                    self.message_users.range((message.0, 0)..=(message.0, u64::MAX)).map_err(storage)?
                {
                    users.push(UserId(row.map_err(storage)?.0.value().1));
                }
                Ok(users)
            }

            fn sent_message(&self, origin: &SendOrigin) -> ApiResult<Option<MessageId>> {
                let key = (origin.sender.0, origin.queue_id.as_str(), origin.local_id.as_str());
                Ok(self.sent.get(key).map_err(storage)?.map(|v| MessageId(v.value())))
            }

            fn reactions(&self, message: MessageId) -> ApiResult<Vec<Reaction>> {
                let mut reactions = Vec::new();
                for row in self.reactions.range((message.0, 0)..=(message.0, u64::MAX)).map_err(storage)? {
                    reactions.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(reactions)
            }

            fn submessages(&self, message: MessageId) -> ApiResult<Vec<Submessage>> {
                let mut submessages = Vec::new();
                for row in self.submessages.range((message.0, 0)..=(message.0, u64::MAX)).map_err(storage)? {
                    submessages.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(submessages)
            }

            fn linkifiers(&self, realm: RealmId) -> ApiResult<Vec<Linkifier>> {
                let mut linkifiers: Vec<Linkifier> = Vec::new();
                for row in self.linkifiers.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    linkifiers.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                linkifiers.sort_by_key(|l| (l.order, l.id));
                Ok(linkifiers)
            }

            fn muters(&self, user: UserId) -> ApiResult<Vec<UserId>> {
                let mut muters = Vec::new();
                for row in self.muters.range((user.0, 0)..=(user.0, u64::MAX)).map_err(storage)? {
                    muters.push(UserId(row.map_err(storage)?.0.value().1));
                }
                Ok(muters)
            }

            fn attachment(&self, id: u64) -> ApiResult<Option<confab_core::model::Attachment>> {
                record(self.attachments.get(id).map_err(storage)?)
            }

            fn attachment_by_path(&self, path_id: &str) -> ApiResult<Option<confab_core::model::Attachment>> {
                let Some(id) = self.attachment_paths.get(path_id).map_err(storage)? else { return Ok(None) };
                record(self.attachments.get(id.value()).map_err(storage)?)
            }

            fn user_attachments(&self, user: UserId) -> ApiResult<Vec<confab_core::model::Attachment>> {
                let mut found = Vec::new();
                for row in self.user_attachments.range((user.0, 0)..=(user.0, u64::MAX)).map_err(storage)? {
                    let id = row.map_err(storage)?.0.value().1;
                    if let Some(attachment) = record(self.attachments.get(id).map_err(storage)?)? {
                        found.push(attachment);
                    }
                }
                Ok(found)
            }

            fn records(
                &self,
                user: UserId,
                kind: confab_core::model::RecordKind,
            ) -> ApiResult<Vec<(u64, serde_json::Value)>> {
                let range = (user.0, kind.key(), 0)..=(user.0, kind.key(), u64::MAX);
                let mut records = Vec::new();
                for row in self.records.range(range).map_err(storage)? {
                    let (key, value) = row.map_err(storage)?;
                    records.push((key.value().2, codec::decode(value.value())?));
                }
                Ok(records)
            }

            fn topic_preference(
                &self,
                user: UserId,
                stream: StreamId,
                topic: &str,
            ) -> ApiResult<Option<(u64, serde_json::Value)>> {
                let (_, topic) = confab_core::model::topic_preference_key(stream, topic);
                let Some(id) =
                    self.topic_preferences.get((user.0, stream.0, topic.as_str())).map_err(storage)?
                else {
                    return Ok(None);
                };
                let id = id.value();
                let kind = confab_core::model::RecordKind::UserTopic.key();
                let value = self.records.get((user.0, kind, id)).map_err(storage)?;
                Ok(value.map(|v| codec::decode(v.value())).transpose()?.map(|value| (id, value)))
            }

            fn channel_folders(&self, realm: RealmId) -> ApiResult<Vec<confab_core::model::ChannelFolder>> {
                let mut folders: Vec<confab_core::model::ChannelFolder> = Vec::new();
                for row in self.channel_folders.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    folders.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                folders.sort_by_key(|f| (f.order, f.id));
                Ok(folders)
            }

            fn invitations(&self, realm: RealmId) -> ApiResult<Vec<confab_core::model::Invitation>> {
                let mut invitations = Vec::new();
                for row in self.invitations.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    invitations.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(invitations)
            }

            fn invitation_by_key(&self, key: &str) -> ApiResult<Option<confab_core::model::Invitation>> {
                let Some(found) = self.invitation_keys.get(key).map_err(storage)? else { return Ok(None) };
                record(self.invitations.get(found.value()).map_err(storage)?)
            }

            fn bot_service(&self, bot: UserId) -> ApiResult<Option<confab_core::model::BotService>> {
                record(self.bot_services.get(bot.0).map_err(storage)?)
            }

            fn realm_emoji(&self, realm: RealmId) -> ApiResult<Vec<confab_core::model::RealmEmoji>> {
                let mut emoji = Vec::new();
                for row in self.realm_emoji.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    emoji.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(emoji)
            }

            fn alert_words(&self, user: UserId) -> ApiResult<Vec<String>> {
                Ok(record(self.alert_words.get(user.0).map_err(storage)?)?.unwrap_or_default())
            }

            fn user_settings(&self, user: UserId) -> ApiResult<serde_json::Map<String, serde_json::Value>> {
                Ok(record(self.user_settings.get(user.0).map_err(storage)?)?.unwrap_or_default())
            }

            fn user_groups(&self, realm: RealmId) -> ApiResult<Vec<UserGroup>> {
                let mut groups = Vec::new();
                for row in self.user_groups.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    groups.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(groups)
            }

            fn profile_fields(&self, realm: RealmId) -> ApiResult<Vec<ProfileField>> {
                let mut fields = Vec::new();
                for row in self.profile_fields.range((realm.0, 0)..=(realm.0, u64::MAX)).map_err(storage)? {
                    fields.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(fields)
            }

            fn profile_values(&self, user: UserId) -> ApiResult<Vec<ProfileValue>> {
                let mut values = Vec::new();
                for row in self.profile_values.range((user.0, 0)..=(user.0, u64::MAX)).map_err(storage)? {
                    values.push(codec::decode(row.map_err(storage)?.1.value())?);
                }
                Ok(values)
            }

            fn presence(&self, user: UserId) -> ApiResult<Option<Presence>> {
                record(self.presences.get(user.0).map_err(storage)?)
            }

            fn presences_changed_after(&self, realm: RealmId, after: u64) -> ApiResult<Vec<Presence>> {
                let Some(first) = after.checked_add(1) else { return Ok(Vec::new()) };
                let mut changed = Vec::new();
                for row in
                    self.presence_changes.range((realm.0, first)..=(realm.0, u64::MAX)).map_err(storage)?
                {
                    let (_, user) = row.map_err(storage)?;
                    changed.extend(self.presence(UserId(user.value()))?);
                }
                Ok(changed)
            }

            fn presence_sequence(&self, realm: RealmId) -> ApiResult<u64> {
                let latest = self
                    .presence_changes
                    .range((realm.0, 0)..=(realm.0, u64::MAX))
                    .map_err(storage)?
                    .next_back();
                Ok(latest.transpose().map_err(storage)?.map_or(0, |(key, _)| key.value().1))
            }

            fn scheduled_message(&self, id: ScheduledMessageId) -> ApiResult<Option<ScheduledMessage>> {
                record(self.scheduled.get(id.0).map_err(storage)?)
            }

            fn user_scheduled_messages(&self, user: UserId) -> ApiResult<Vec<ScheduledMessage>> {
                let mut list = Vec::new();
                for row in self.user_scheduled.range((user.0, 0)..=(user.0, u64::MAX)).map_err(storage)? {
                    let (key, _) = row.map_err(storage)?;
                    list.extend(self.scheduled_message(ScheduledMessageId(key.value().1))?);
                }
                Ok(list)
            }

            fn pending_deliveries(&self) -> ApiResult<PendingDeliveries<'_>> {
                let rows = self.deliveries.iter().map_err(storage)?;
                Ok(Box::new(rows.map(|row| {
                    row.map(|(key, _)| {
                        let (at, id) = key.value();
                        (at, ScheduledMessageId(id))
                    })
                    .map_err(storage)
                })))
            }

            fn message_ids(
                &self,
                index: &MessageIndex,
                from: Bound<MessageId>,
                to: Bound<MessageId>,
                direction: Direction,
            ) -> ApiResult<MessageIdIter<'_>> {
                let Some((low, high)) = id_range(from, to) else {
                    return Ok(Box::new(std::iter::empty()));
                };
                Ok(match index {
                    MessageIndex::UserHistory(u) => {
                        ids_in!(self.flags, (u.0, low), (u.0, high), direction, |k: (u64, u64)| k.1)
                    }
                    MessageIndex::UserFlag(u, flag) => {
                        let c = flag.code();
                        ids_in!(
                            self.flag_index,
                            (u.0, c, low),
                            (u.0, c, high),
                            direction,
                            |k: (u64, u8, u64)| k.2
                        )
                    }
                    MessageIndex::UserConversation(u, r) => {
                        ids_in!(
                            self.conversations,
                            (u.0, r.0, low),
                            (u.0, r.0, high),
                            direction,
                            |k: (u64, u64, u64)| k.2
                        )
                    }
                    MessageIndex::Recipient(r) => {
                        ids_in!(self.by_recipient, (r.0, low), (r.0, high), direction, |k: (u64, u64)| k.1)
                    }
                    MessageIndex::Topic(r, topic) => {
                        let t = topic.as_str();
                        ids_in!(self.by_topic, (r.0, t, low), (r.0, t, high), direction, |k: (
                            u64,
                            &str,
                            u64
                        )| k
                            .2)
                    }
                    MessageIndex::Sender(u) => {
                        ids_in!(self.by_sender, (u.0, low), (u.0, high), direction, |k: (u64, u64)| k.1)
                    }
                    MessageIndex::Realm(realm) => {
                        ids_in!(self.by_realm, (realm.0, low), (realm.0, high), direction, |k: (u64, u64)| k
                            .1)
                    }
                    MessageIndex::Word(realm, word) => {
                        let w = word.as_str();
                        ids_in!(
                            self.words,
                            (realm.0, w, low),
                            (realm.0, w, high),
                            direction,
                            |k: (u64, &str, u64)| k.2
                        )
                    }
                })
            }

            fn next_id(&self, kind: IdKind) -> ApiResult<u64> {
                self.counter(kind)
            }
        }
    };
}

mod impls {
    use std::ops::Bound;

    use confab_core::ApiResult;
    use confab_core::ids::{IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserId};
    use confab_core::model::{
        Credentials, Linkifier, Message, MessageFlags, MessageKind, Presence, ProfileField, ProfileValue,
        Reaction, Realm, Recipient, ScheduledMessage, SendOrigin, Stream, Submessage, Subscription, User,
        UserGroup,
    };
    use confab_core::store::{Direction, MessageIdIter, MessageIndex, PendingDeliveries};

    use super::super::codec;
    use super::super::engine::Guard;
    use super::{ReadTables, WriteTables, id_range, storage};

    /// A message record read for its `kind` alone: the decoder skips the other fields' text
    /// instead of copying it (register's unread summary reads up to 50,000 messages).
    #[derive(serde::Deserialize)]
    struct MessageHead {
        kind: MessageKind,
    }

    fn record<T: serde::de::DeserializeOwned>(
        guard: Option<Guard<'_, &'static [u8]>>,
    ) -> ApiResult<Option<T>> {
        guard.map(|g| codec::decode(g.value())).transpose()
    }

    impl_store!(ReadTables);
    impl_store!(WriteTables<'_>);
}
