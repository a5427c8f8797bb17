//! Organization settings, personal records and scheduled messages: small objects, each put,
//! replaced or removed whole.

use confab_core::ids::{IdKind, MessageId, ScheduledMessageId, UserGroupId, UserId};
use confab_core::model::{
    Attachment, BotService, ChannelFolder, DeliveryState, Linkifier, Presence, ProfileField,
    ProfileFieldType, ProfileValue, RealmEmoji, RecordKind, ReminderOf, ScheduledMessage, ScheduledTarget,
    User, UserGroup,
};
use confab_core::store::{Change, Store};
use serde_json::json;

use super::{RECORD_KINDS, World, attachment_path, ok, pick, pick_or_new};
use crate::parity::ops::Op;
use crate::parity::vocabulary::{ALERT_WORDS, DELIVERY_TIMES, SETTINGS, TOPICS, one};

impl<S: Store> World<'_, S> {
    pub(super) fn settings_and_records(&self, op: &Op, now: i64) -> Option<Vec<Change>> {
        let store = self.store;
        Some(match *op {
            Op::PutLinkifier { realm, pick: n, order } => {
                let realm = self.realm(realm)?;
                let existing = ok(store.linkifiers(realm.id));
                let linkifier = pick_or_new(&existing, n).unwrap_or_else(|| Linkifier {
                    id: self.next(IdKind::Linkifier),
                    realm_id: realm.id,
                    pattern: format!("#(?P<id>[0-9]+){n}"),
                    url_template: "https://example.com/{id}".into(),
                    order: 0,
                });
                vec![Change::PutLinkifier(Linkifier { order: u64::from(order % 4), ..linkifier })]
            }
            Op::DeleteLinkifier { pick: n } => {
                let linkifiers: Vec<Linkifier> =
                    self.realms().iter().flat_map(|r| ok(store.linkifiers(r.id))).collect();
                let linkifier = pick(&linkifiers, n)?;
                vec![Change::DeleteLinkifier { realm: linkifier.realm_id, id: linkifier.id }]
            }
            Op::PutPresence { user, at } => {
                let user = self.user(user)?;
                let at = now - i64::from(at);
                // Each change takes the organization's next number, as a check-in does.
                let sequence = ok(store.presence_sequence(user.realm_id));
                vec![Change::PutPresence(Presence {
                    user_id: user.id,
                    realm_id: user.realm_id,
                    last_active_time: at,
                    last_connected_time: now,
                    last_update_id: sequence + 1,
                })]
            }
            Op::PutUserGroup { realm, pick: n, members, deactivated } => {
                let realm = self.realm(realm)?;
                let groups = ok(store.user_groups(realm.id));
                let users = ok(store.realm_users(realm.id));
                let direct_members = users
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| members & (1 << (i % 8)) != 0)
                    .map(|(_, u)| u.id);
                let group = match pick_or_new(&groups, n) {
                    Some(group) => group,
                    // Every organization has its system groups: a new group copies one's settings.
                    None => UserGroup {
                        id: UserGroupId(self.next(IdKind::UserGroup)),
                        name: format!("team {n}"),
                        system: None,
                        creator_id: None,
                        date_created: Some(now),
                        direct_subgroups: Vec::new(),
                        ..pick(&groups, 0)?
                    },
                };
                let group = UserGroup { direct_members: direct_members.collect(), deactivated, ..group };
                vec![Change::PutUserGroup(Box::new(group))]
            }
            Op::PutChannelFolder { realm, pick: n, order, archived } => {
                let realm = self.realm(realm)?;
                let folders = ok(store.channel_folders(realm.id));
                let folder = pick_or_new(&folders, n).unwrap_or_else(|| ChannelFolder {
                    id: self.next(IdKind::ChannelFolder),
                    realm_id: realm.id,
                    name: format!("folder {n}"),
                    description: String::new(),
                    rendered_description: String::new(),
                    order: 0,
                    date_created: now,
                    creator_id: None,
                    is_archived: false,
                });
                vec![Change::PutChannelFolder(ChannelFolder {
                    order: u64::from(order % 4),
                    is_archived: archived,
                    ..folder
                })]
            }
            Op::PutAttachment { user, pick: n, message } => {
                let user = self.user(user)?;
                let owned = ok(store.user_attachments(user.id));
                let mut attachment = pick_or_new(&owned, n).unwrap_or_else(|| {
                    let id = self.next(IdKind::Attachment);
                    Attachment {
                        id,
                        realm_id: user.realm_id,
                        owner_id: user.id,
                        path_id: attachment_path(user.realm_id, id),
                        file_name: "notes.txt".into(),
                        size: 42,
                        content_type: "text/plain".into(),
                        create_time: now,
                        message_ids: Vec::new(),
                        image: None,
                    }
                });
                // Sending a message that links the file claims it for that message.
                if let Some(linked) = self.message(message).filter(|m| m.sender_id == user.id) {
                    attachment.message_ids.push(linked.id);
                }
                vec![Change::PutAttachment(attachment)]
            }
            Op::DeleteAttachment { pick: n } => {
                let attachments: Vec<Attachment> =
                    self.users().iter().flat_map(|u| ok(store.user_attachments(u.id))).collect();
                vec![Change::DeleteAttachment(pick(&attachments, n)?)]
            }
            Op::PutRealmEmoji { realm, pick: n, deactivated } => {
                let realm = self.realm(realm)?;
                let emoji = ok(store.realm_emoji(realm.id));
                let emoji = pick_or_new(&emoji, n).unwrap_or_else(|| {
                    let id = self.next(IdKind::RealmEmoji);
                    RealmEmoji {
                        id,
                        realm_id: realm.id,
                        name: format!("party_{n}"),
                        file_name: format!("{id}.png"),
                        author_id: None,
                        deactivated: false,
                    }
                });
                vec![Change::PutRealmEmoji(RealmEmoji { deactivated, ..emoji })]
            }
            Op::PutRecord { user, kind, pick: n, value } => {
                let user = self.user(user)?;
                let kind = one(&RECORD_KINDS, kind);
                let id = match kind {
                    // One status per user; a muted user's record is filed under that user's id.
                    RecordKind::UserStatus => 0,
                    RecordKind::MutedUser => {
                        let others: Vec<User> = ok(store.realm_users(user.realm_id))
                            .into_iter()
                            .filter(|u| u.id != user.id)
                            .collect();
                        pick(&others, n)?.id.0
                    }
                    // At most one preference per channel and topic (the `Store` contract): a
                    // topic that has one is changed under its id.
                    RecordKind::UserTopic => {
                        let streams = self.streams(user.realm_id);
                        let stream = pick(&streams, value)?;
                        let topic = one(&TOPICS, value / 4);
                        let preference = json!({"stream_id": stream.id, "topic_name": topic, "last_updated": now, "visibility_policy": value % 4});
                        let id = match ok(store.topic_preference(user.id, stream.id, topic)) {
                            Some((id, _)) => id,
                            None => {
                                let existing = ok(store.records(user.id, kind));
                                pick_or_new(&existing, n)
                                    .map_or_else(|| self.next(IdKind::Record), |(id, _)| id)
                            }
                        };
                        return Some(vec![Change::PutRecord { user: user.id, kind, id, value: preference }]);
                    }
                    _ => {
                        let existing = ok(store.records(user.id, kind));
                        pick_or_new(&existing, n).map_or_else(|| self.next(IdKind::Record), |(id, _)| id)
                    }
                };
                vec![Change::PutRecord { user: user.id, kind, id, value: json!({ "value": value }) }]
            }
            Op::DeleteRecord { pick: n } => {
                let mut records = Vec::new();
                for user in self.users() {
                    for kind in RECORD_KINDS {
                        records.extend(
                            ok(store.records(user.id, kind)).into_iter().map(|(id, _)| (user.id, kind, id)),
                        );
                    }
                }
                let (user, kind, id) = pick(&records, n)?;
                vec![Change::DeleteRecord { user, kind, id }]
            }
            Op::PutBotService { bot, url } => {
                let bots: Vec<User> = self.users().into_iter().filter(|u| u.bot_type.is_some()).collect();
                let bot = pick(&bots, bot)?;
                vec![Change::PutBotService(BotService {
                    bot_id: bot.id,
                    base_url: format!("https://bots.example.com/{url}"),
                    interface: 1,
                    token: "t".repeat(32),
                })]
            }
            Op::PutAlertWords { user, words } => {
                let user = self.user(user)?;
                let words = ALERT_WORDS.iter().enumerate().filter(|(i, _)| words & (1 << i) != 0);
                vec![Change::PutAlertWords(user.id, words.map(|(_, w)| (*w).to_owned()).collect())]
            }
            Op::PutUserSettings { user, settings } => {
                let user = self.user(user)?;
                let mut map = serde_json::Map::new();
                for (i, (name, value)) in SETTINGS.iter().enumerate() {
                    if settings & (1 << i) != 0 {
                        map.insert((*name).into(), serde_json::from_str(value).ok()?);
                    }
                }
                vec![Change::PutUserSettings(user.id, map)]
            }
            Op::PutProfileField { realm, pick: n, order } => {
                let realm = self.realm(realm)?;
                let fields = ok(store.profile_fields(realm.id));
                let field = pick_or_new(&fields, n).unwrap_or_else(|| ProfileField {
                    id: self.next(IdKind::ProfileField),
                    realm_id: realm.id,
                    name: format!("Field {n}"),
                    hint: String::new(),
                    field_type: ProfileFieldType::ShortText,
                    field_data: String::new(),
                    order: 0,
                    display_in_profile_summary: false,
                    required: false,
                    editable_by_user: true,
                });
                vec![Change::PutProfileField(ProfileField { order: i64::from(order % 4), ..field })]
            }
            Op::DeleteProfileField { pick: n } => {
                let fields: Vec<ProfileField> =
                    self.realms().iter().flat_map(|r| ok(store.profile_fields(r.id))).collect();
                let field = pick(&fields, n)?;
                // As core does: the field's values go with it, each by its own change.
                let mut changes: Vec<Change> = ok(store.realm_users(field.realm_id))
                    .into_iter()
                    .filter(|u| ok(store.profile_values(u.id)).iter().any(|v| v.field_id == field.id))
                    .map(|u| Change::PutProfileValue { user: u.id, field: field.id, value: None })
                    .collect();
                changes.push(Change::DeleteProfileField { realm: field.realm_id, id: field.id });
                changes
            }
            Op::PutProfileValue { pair, value } => {
                let pairs: Vec<(User, ProfileField)> = self
                    .users()
                    .into_iter()
                    .flat_map(|u| {
                        ok(store.profile_fields(u.realm_id)).into_iter().map(move |f| (u.clone(), f))
                    })
                    .collect();
                let (user, field) = pick(&pairs, pair)?;
                let value = value.map(|v| ProfileValue {
                    field_id: field.id,
                    value: format!("value {v}"),
                    rendered_value: None,
                });
                vec![Change::PutProfileValue { user: user.id, field: field.id, value }]
            }
            Op::Schedule { user, pick: n, state, at, direct } => {
                let user = self.user(user)?;
                let own = self.scheduled_by(user.id);
                let stream = self.streams(user.realm_id).into_iter().next()?;
                let scheduled = pick_or_new(&own, n).unwrap_or_else(|| ScheduledMessage {
                    id: ScheduledMessageId(self.next(IdKind::ScheduledMessage)),
                    realm_id: user.realm_id,
                    sender_id: user.id,
                    target: if direct {
                        ScheduledTarget::Direct { to: vec![user.id] }
                    } else {
                        ScheduledTarget::Stream { stream_id: stream.id, topic: "later".into() }
                    },
                    content: "later".into(),
                    rendered_content: "<p>later</p>".into(),
                    client: "website".into(),
                    deliver_at: 0,
                    read_by_sender: true,
                    reminder: None,
                    state: DeliveryState::Pending,
                });
                let state = match state % 3 {
                    0 => DeliveryState::Pending,
                    1 => DeliveryState::Failed { message: "Channel is archived".into() },
                    _ => DeliveryState::Delivered { message_id: MessageId(self.next(IdKind::Message)) },
                };
                let reminder =
                    self.message(n).filter(|_| direct).map(|m| ReminderOf { message_id: m.id, note: None });
                let deliver_at = one(&DELIVERY_TIMES, at);
                vec![Change::PutScheduledMessage(ScheduledMessage {
                    state,
                    deliver_at,
                    reminder,
                    ..scheduled
                })]
            }
            Op::Unschedule { pick: n } => {
                let all: Vec<ScheduledMessage> =
                    self.users().iter().flat_map(|u| self.scheduled_by(u.id)).collect();
                vec![Change::DeleteScheduledMessage(pick(&all, n)?.id)]
            }
            _ => return None,
        })
    }

    /// All of a user's scheduled messages, delivered ones included.
    fn scheduled_by(&self, user: UserId) -> Vec<ScheduledMessage> {
        (1..self.next(IdKind::ScheduledMessage))
            .filter_map(|id| ok(self.store.scheduled_message(ScheduledMessageId(id))))
            .filter(|s| s.sender_id == user)
            .collect()
    }
}
