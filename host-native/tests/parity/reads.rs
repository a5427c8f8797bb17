//! Asks two stores every `Store` read, with arguments from the ids that exist (and one past
//! them) and from the vocabulary in its spellings, and lists where their answers differ.

use std::fmt::Debug;
use std::ops::Bound;

use confab_core::ApiResult;
use confab_core::ids::{IdKind, MessageId, RealmId, RecipientId, ScheduledMessageId, StreamId, UserId};
use confab_core::model::{IndexedFlag, SendOrigin, direct_group_key};
use confab_core::search::message_words;
use confab_core::store::{Direction, MessageIndex, Store};

use super::script::{RECORD_KINDS, attachment_path};
use super::vocabulary::{
    CONTENTS, EMAIL_DOMAIN, EMAIL_NAMES, LOCAL_IDS, QUEUE_IDS, STREAM_NAMES, SUBDOMAINS, TOPICS,
};

/// Every id kind, for `next_id`.
const ID_KINDS: [IdKind; 14] = [
    IdKind::Realm,
    IdKind::User,
    IdKind::Stream,
    IdKind::Message,
    IdKind::Recipient,
    IdKind::Linkifier,
    IdKind::UserGroup,
    IdKind::ChannelFolder,
    IdKind::Record,
    IdKind::Attachment,
    IdKind::RealmEmoji,
    IdKind::ProfileField,
    IdKind::ScheduledMessage,
    IdKind::Submessage,
];

/// Each read on which `redb` answers differently from `memory`, naming the call and both
/// answers. `memory` also supplies the ids to ask about.
pub fn differences(memory: &dyn Store, redb: &dyn Store) -> Vec<String> {
    let mut comparison = Comparison { memory, redb, found: Vec::new() };
    comparison.all();
    comparison.found
}

struct Comparison<'a> {
    memory: &'a dyn Store,
    redb: &'a dyn Store,
    found: Vec<String>,
}

/// The ids `0..=next` of a kind: every one in use, the never-used 0 and the next one.
fn ids_of(store: &dyn Store, kind: IdKind) -> Vec<u64> {
    (0..=store.next_id(kind).expect("the in-memory store answers every read")).collect()
}

/// A name as given, shouting, and with the padding a client might send.
fn spellings(name: &str) -> [String; 3] {
    [name.to_owned(), name.to_uppercase(), format!(" {name} ")]
}

impl Comparison<'_> {
    /// Asks both stores one read and records a difference.
    fn same<T: PartialEq + Debug>(
        &mut self,
        call: impl Fn() -> String,
        read: impl Fn(&dyn Store) -> ApiResult<T>,
    ) {
        let (memory, redb) = (read(self.memory), read(self.redb));
        if memory != redb {
            self.found.push(format!("{}:\n    memory: {memory:?}\n    redb:   {redb:?}", call()));
        }
    }

    fn all(&mut self) {
        for kind in ID_KINDS {
            self.same(|| format!("next_id({kind:?})"), |s| s.next_id(kind));
        }
        let realms: Vec<RealmId> = ids_of(self.memory, IdKind::Realm).into_iter().map(RealmId).collect();
        let users: Vec<UserId> = ids_of(self.memory, IdKind::User).into_iter().map(UserId).collect();
        let streams: Vec<StreamId> = ids_of(self.memory, IdKind::Stream).into_iter().map(StreamId).collect();
        let recipients: Vec<RecipientId> =
            ids_of(self.memory, IdKind::Recipient).into_iter().map(RecipientId).collect();
        let messages: Vec<MessageId> =
            ids_of(self.memory, IdKind::Message).into_iter().map(MessageId).collect();
        self.organizations(&realms);
        self.people(&realms, &users);
        self.channels(&realms, &users, &streams);
        self.conversations(&users, &recipients);
        self.messages(&users, &messages);
        self.organization_settings(&realms);
        self.personal(&realms, &users);
        self.scheduled(&users);
        self.indexes(&realms, &users, &recipients, &messages);
    }

    fn organizations(&mut self, realms: &[RealmId]) {
        self.same(|| "realms()".into(), |s| s.realms());
        for &realm in realms {
            self.same(|| format!("realm({realm:?})"), |s| s.realm(realm));
        }
        for subdomain in SUBDOMAINS.iter().flat_map(|s| spellings(s)) {
            self.same(|| format!("realm_by_subdomain({subdomain:?})"), |s| s.realm_by_subdomain(&subdomain));
        }
    }

    fn people(&mut self, realms: &[RealmId], users: &[UserId]) {
        for &user in users {
            self.same(|| format!("user({user:?})"), |s| s.user(user));
            self.same(|| format!("credentials({user:?})"), |s| s.credentials(user));
        }
        for &realm in realms {
            self.same(|| format!("realm_users({realm:?})"), |s| s.realm_users(realm));
            self.same(|| format!("deactivated_users({realm:?})"), |s| s.deactivated_users(realm));
            self.same(|| format!("realm_user_ids({realm:?})"), |s| s.realm_user_ids(realm));
            for name in EMAIL_NAMES {
                for email in spellings(&format!("{name}@{EMAIL_DOMAIN}")) {
                    self.same(
                        || format!("user_by_delivery_email({realm:?}, {email:?})"),
                        |s| s.user_by_delivery_email(realm, &email),
                    );
                }
            }
        }
    }

    fn channels(&mut self, realms: &[RealmId], users: &[UserId], streams: &[StreamId]) {
        for &realm in realms {
            self.same(|| format!("realm_streams({realm:?})"), |s| s.realm_streams(realm));
            for name in STREAM_NAMES.iter().flat_map(|n| spellings(n)) {
                self.same(
                    || format!("stream_by_name({realm:?}, {name:?})"),
                    |s| s.stream_by_name(realm, &name),
                );
            }
        }
        for &stream in streams {
            self.same(|| format!("stream({stream:?})"), |s| s.stream(stream));
            self.same(|| format!("stream_subscribers({stream:?})"), |s| s.stream_subscribers(stream));
            for &user in users {
                self.same(|| format!("subscription({user:?}, {stream:?})"), |s| s.subscription(user, stream));
            }
        }
        for &user in users {
            self.same(|| format!("user_subscriptions({user:?})"), |s| s.user_subscriptions(user));
        }
    }

    fn conversations(&mut self, users: &[UserId], recipients: &[RecipientId]) {
        for &recipient in recipients {
            self.same(|| format!("recipient({recipient:?})"), |s| s.recipient(recipient));
        }
        // Every group of three or four people, whether or not they ever talked.
        let mut keys = Vec::new();
        for (i, a) in users.iter().enumerate() {
            for (j, b) in users.iter().enumerate().skip(i + 1) {
                for c in users.iter().skip(j + 1) {
                    keys.push(direct_group_key(&[*a, *b, *c]));
                    keys.extend(users.last().filter(|d| *d > c).map(|d| direct_group_key(&[*a, *b, *c, *d])));
                }
            }
        }
        for key in keys {
            self.same(|| format!("direct_group({key:?})"), |s| s.direct_group(&key));
        }
    }

    fn messages(&mut self, users: &[UserId], messages: &[MessageId]) {
        for &message in messages {
            self.same(|| format!("message({message:?})"), |s| s.message(message));
            self.same(|| format!("message_kind({message:?})"), |s| s.message_kind(message));
            self.same(|| format!("message_users({message:?})"), |s| s.message_users(message));
            self.same(|| format!("reactions({message:?})"), |s| s.reactions(message));
            self.same(|| format!("submessages({message:?})"), |s| s.submessages(message));
            for &user in users {
                self.same(
                    || format!("message_flags({user:?}, {message:?})"),
                    |s| s.message_flags(user, message),
                );
            }
        }
        for &sender in users {
            for queue_id in QUEUE_IDS {
                for local_id in LOCAL_IDS {
                    let origin = SendOrigin { sender, queue_id: queue_id.into(), local_id: local_id.into() };
                    self.same(|| format!("sent_message({origin:?})"), |s| s.sent_message(&origin));
                }
            }
        }
    }

    fn organization_settings(&mut self, realms: &[RealmId]) {
        for &realm in realms {
            self.same(|| format!("linkifiers({realm:?})"), |s| s.linkifiers(realm));
            self.same(|| format!("user_groups({realm:?})"), |s| s.user_groups(realm));
            self.same(|| format!("realm_emoji({realm:?})"), |s| s.realm_emoji(realm));
            self.same(|| format!("channel_folders({realm:?})"), |s| s.channel_folders(realm));
            self.same(|| format!("profile_fields({realm:?})"), |s| s.profile_fields(realm));
            self.same(|| format!("presence_sequence({realm:?})"), |s| s.presence_sequence(realm));
            for after in [0, 1, 2, 5, u64::MAX] {
                self.same(
                    || format!("presences_changed_after({realm:?}, {after})"),
                    |s| s.presences_changed_after(realm, after),
                );
            }
        }
    }

    fn personal(&mut self, realms: &[RealmId], users: &[UserId]) {
        for &user in users {
            self.same(|| format!("presence({user:?})"), |s| s.presence(user));
            self.same(|| format!("user_settings({user:?})"), |s| s.user_settings(user));
            self.same(|| format!("bot_service({user:?})"), |s| s.bot_service(user));
            self.same(|| format!("alert_words({user:?})"), |s| s.alert_words(user));
            self.same(|| format!("user_attachments({user:?})"), |s| s.user_attachments(user));
            self.same(|| format!("muters({user:?})"), |s| s.muters(user));
            self.same(|| format!("profile_values({user:?})"), |s| s.profile_values(user));
            for kind in RECORD_KINDS {
                self.same(|| format!("records({user:?}, {kind:?})"), |s| s.records(user, kind));
            }
            for stream in ids_of(self.memory, IdKind::Stream).into_iter().map(StreamId) {
                for topic in TOPICS.iter().flat_map(|topic| spellings(topic)) {
                    self.same(
                        || format!("topic_preference({user:?}, {stream:?}, {topic:?})"),
                        |s| s.topic_preference(user, stream, &topic),
                    );
                }
            }
        }
        for id in ids_of(self.memory, IdKind::Attachment) {
            self.same(|| format!("attachment({id})"), |s| s.attachment(id));
            for &realm in realms {
                let path = attachment_path(realm, id);
                self.same(|| format!("attachment_by_path({path:?})"), |s| s.attachment_by_path(&path));
            }
        }
    }

    fn scheduled(&mut self, users: &[UserId]) {
        for id in ids_of(self.memory, IdKind::ScheduledMessage).into_iter().map(ScheduledMessageId) {
            self.same(|| format!("scheduled_message({id:?})"), |s| s.scheduled_message(id));
        }
        for &user in users {
            self.same(|| format!("user_scheduled_messages({user:?})"), |s| s.user_scheduled_messages(user));
        }
        self.same(
            || "pending_deliveries()".into(),
            |s| s.pending_deliveries()?.collect::<ApiResult<Vec<_>>>(),
        );
    }

    /// Every index, walked both ways over whole, half-open, single-id, empty and inverted
    /// ranges.
    fn indexes(
        &mut self,
        realms: &[RealmId],
        users: &[UserId],
        recipients: &[RecipientId],
        messages: &[MessageId],
    ) {
        let mut indexes = Vec::new();
        for &user in users {
            indexes.push(MessageIndex::UserHistory(user));
            indexes.push(MessageIndex::Sender(user));
            indexes.extend(IndexedFlag::ALL.map(|flag| MessageIndex::UserFlag(user, flag)));
            indexes
                .extend(recipients.iter().map(|&recipient| MessageIndex::UserConversation(user, recipient)));
        }
        let topics: Vec<String> = TOPICS.iter().flat_map(|t| [t.to_lowercase(), (*t).to_owned()]).collect();
        for &recipient in recipients {
            indexes.push(MessageIndex::Recipient(recipient));
            indexes.extend(topics.iter().map(|t| MessageIndex::Topic(recipient, t.clone())));
        }
        let mut words: Vec<String> =
            CONTENTS.iter().zip(TOPICS).flat_map(|(c, t)| message_words(c, t)).collect();
        words.sort();
        words.dedup();
        words.push("absent".into());
        for &realm in realms {
            indexes.push(MessageIndex::Realm(realm));
            indexes.extend(words.iter().map(|w| MessageIndex::Word(realm, w.clone())));
        }
        let last = messages.last().copied().unwrap_or(MessageId(0));
        let middle = MessageId(last.0 / 2);
        let ranges = [
            (Bound::Unbounded, Bound::Unbounded),
            (Bound::Included(middle), Bound::Unbounded),
            (Bound::Unbounded, Bound::Excluded(middle)),
            (Bound::Excluded(MessageId(1)), Bound::Included(last)),
            (Bound::Included(middle), Bound::Included(middle)),
            (Bound::Excluded(middle), Bound::Excluded(MessageId(middle.0 + 1))),
            (Bound::Included(last), Bound::Included(middle)),
        ];
        for index in &indexes {
            for (from, to) in ranges {
                for direction in [Direction::Ascending, Direction::Descending] {
                    self.same(
                        || format!("message_ids({index:?}, {from:?}, {to:?}, {direction:?})"),
                        |s| s.message_ids(index, from, to, direction)?.collect::<ApiResult<Vec<_>>>(),
                    );
                }
            }
        }
    }
}
