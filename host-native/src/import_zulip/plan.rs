//! The checked export as Confab's own writes: every row gets a new id from the store's
//! counters (Zulip's ids are remapped, as its own import does), and becomes the `Change`s the
//! server's commands write, grouped in phases so that progress can be shown.

use std::collections::{BTreeMap, HashMap, HashSet};

use confab_core::api::subscriptions::stream_color;
use confab_core::groups::system_group_changes;
use confab_core::ids::{IdKind, MessageId, RealmId, RecipientId, StreamId, UserGroupId, UserId};
use confab_core::model::*;
use confab_core::store::{Change, IdAllocator, Store};
use confab_core::{ApiError, ApiResult};

use super::export::Export;
use super::format::{self, EditRow, MessageRow, NamedGroupRow, UserRow};
use super::rewrite::{password_phc, remap_attribute, remap_uploads};
use super::settings;

/// The `Change`s of one phase, named for the progress lines.
pub struct Phase {
    pub name: &'static str,
    pub changes: Vec<Change>,
}

/// What the files phase kept, which the records name: avatars' and emoji's stored names.
#[derive(Debug, Default)]
pub struct KeptFiles {
    /// Old user id → the avatar's path under `/user_avatars/`.
    pub avatars: HashMap<u64, String>,
    /// Attachment path id → its new path id.
    pub uploads: HashMap<String, String>,
    /// Attachment path id → the image thumbnailed, as an upload's is.
    pub images: HashMap<String, ImageAttachment>,
}

/// What was imported, counted for the summary.
#[derive(Debug, Default)]
pub struct Counts {
    pub users: usize,
    pub channels: usize,
    pub subscriptions: usize,
    pub messages: usize,
    pub reactions: usize,
    pub user_groups: usize,
    pub custom_emoji: usize,
    pub uploads: usize,
    pub avatars: usize,
    /// Users with a password hash that could not be kept (not argon2).
    pub passwords_dropped: usize,
}

pub struct Plan {
    pub realm: Realm,
    /// Messages the export did not render (Zulip leaves `rendered_content` null when its own
    /// rendering failed, and imports from other products have none): the writing phase renders
    /// them once their senders, channels and emoji are stored.
    pub unrendered: HashSet<MessageId>,
    pub phases: Vec<Phase>,
    pub counts: Counts,
}

/// Users' new API keys, drawn by the host.
pub type ApiKeys = HashMap<u64, String>;

/// Remaps the export into changes against the store's counters. The organization is written
/// deactivated; the caller's last change activates it (see `mod.rs`).
pub fn plan(
    store: &impl Store,
    export: &Export,
    subdomain: &str,
    kept: &KeptFiles,
    api_keys: &ApiKeys,
) -> ApiResult<Plan> {
    confab_core::subdomains::check_subdomain_available(store, subdomain)?;
    let row = export.realm.zerver_realm.first().ok_or_else(|| ApiError::internal("no organization"))?;
    let mut user_ids = IdAllocator::new(store, IdKind::User)?;
    let mut recipient_ids = IdAllocator::new(store, IdKind::Recipient)?;
    let mut group_ids = IdAllocator::new(store, IdKind::UserGroup)?;
    let mut stream_ids = IdAllocator::new(store, IdKind::Stream)?;
    let mut message_ids = IdAllocator::new(store, IdKind::Message)?;
    let mut emoji_ids = IdAllocator::new(store, IdKind::RealmEmoji)?;
    let mut attachment_ids = IdAllocator::new(store, IdKind::Attachment)?;
    let mut linkifier_ids = IdAllocator::new(store, IdKind::Linkifier)?;
    let mut record_ids = IdAllocator::new(store, IdKind::Record)?;
    let realm_id = RealmId(IdAllocator::new(store, IdKind::Realm)?.take());
    let mut counts = Counts::default();

    // The organization, its system groups and its notification bot, which also stands for
    // Zulip's system bots (they live in another organization there).
    let mut organization = Vec::new();
    let bot = UserId(user_ids.take());
    let bot_recipient = RecipientId(recipient_ids.take());
    let realm = Realm {
        id: realm_id,
        subdomain: subdomain.to_owned(),
        name: row.name.clone(),
        description: row.description.clone(),
        date_created: row.date_created as i64,
        deactivated: true,
        notification_bot: Some(bot),
        settings: Default::default(),
    };
    organization.push(Change::PutRealm(realm.clone()));
    organization
        .push(Change::PutRecipient(Recipient { id: bot_recipient, kind: RecipientKind::Personal(bot) }));
    organization.push(Change::PutUser(User {
        id: bot,
        realm_id,
        email: format!("notification-bot@{}", confab_core::api::realm::NOTIFICATION_BOT_DOMAIN),
        delivery_email: format!("notification-bot@{}", confab_core::api::realm::NOTIFICATION_BOT_DOMAIN),
        email_address_visibility: EmailVisibility::Everyone,
        full_name: "Notification Bot".to_owned(),
        role: Role::Member,
        bot_type: Some(BotType::Generic),
        bot_owner_id: None,
        is_active: true,
        date_joined: realm.date_created,
        timezone: String::new(),
        avatar_version: 1,
        avatar: None,
        personal_recipient: bot_recipient,
    }));
    let system_groups = system_group_changes(realm_id, &mut group_ids);
    let system_by_name: HashMap<String, UserGroupId> = system_groups
        .iter()
        .filter_map(|change| match change {
            Change::PutUserGroup(group) => Some((group.name.clone(), group.id)),
            _ => None,
        })
        .collect();
    organization.extend(system_groups);
    let mut linkifiers: Vec<_> = export.realm.zerver_realmfilter.iter().collect();
    linkifiers.sort_by_key(|l| l.order);
    for (order, linkifier) in linkifiers.into_iter().enumerate() {
        organization.push(Change::PutLinkifier(Linkifier {
            id: linkifier_ids.take(),
            realm_id,
            pattern: linkifier.pattern.clone(),
            url_template: linkifier.url_template.clone(),
            order: order as u64,
        }));
    }

    // Users.
    let mut users: HashMap<u64, UserId> = HashMap::new();
    let mut personal: HashMap<u64, RecipientId> = HashMap::new();
    let mut rows: Vec<&UserRow> = export.user_rows().collect();
    rows.sort_by_key(|u| u.id);
    for user in &rows {
        users.insert(user.id, UserId(user_ids.take()));
    }
    for crossrealm in &export.realm.zerver_userprofile_crossrealm {
        users.insert(crossrealm.id, bot);
    }
    let mirrors: HashSet<u64> = export.realm.zerver_userprofile_mirrordummy.iter().map(|u| u.id).collect();
    let mut people = Vec::new();
    for user in rows {
        let id = users[&user.id];
        let recipient = RecipientId(recipient_ids.take());
        personal.insert(user.id, recipient);
        let visibility = user
            .email_address_visibility
            .and_then(EmailVisibility::from_value)
            .unwrap_or(EmailVisibility::Everyone);
        let email = match visibility {
            EmailVisibility::Everyone => user.delivery_email.clone(),
            _ => format!("user{}@{}", id.0, user.email.rsplit('@').next().unwrap_or("localhost")),
        };
        let password_hash = user.password.as_deref().and_then(password_phc);
        if user.password.as_deref().is_some_and(|p| !p.starts_with('!') && password_hash.is_none()) {
            counts.passwords_dropped += 1;
        }
        people.push(Change::PutRecipient(Recipient { id: recipient, kind: RecipientKind::Personal(id) }));
        people.push(Change::PutUser(User {
            id,
            realm_id,
            email,
            delivery_email: user.delivery_email.clone(),
            email_address_visibility: visibility,
            full_name: user.full_name.clone(),
            role: Role::from_value(user.role).unwrap_or(Role::Member),
            bot_type: if user.is_bot {
                user.bot_type.and_then(BotType::from_value).or(Some(BotType::Generic))
            } else {
                None
            },
            bot_owner_id: user.bot_owner.and_then(|o| users.get(&o).copied()),
            is_active: user.is_active && !mirrors.contains(&user.id),
            date_joined: user.date_joined as i64,
            timezone: user.timezone.clone(),
            avatar_version: 1,
            avatar: kept.avatars.get(&user.id).cloned(),
            personal_recipient: recipient,
        }));
        let api_key = api_keys.get(&user.id).cloned().ok_or_else(|| ApiError::internal("no API key"))?;
        people.push(Change::PutCredentials(id, Credentials { api_key, password_hash }));
        let changed = settings::user_settings(&user.rest);
        if !changed.is_empty() {
            people.push(Change::PutUserSettings(id, changed));
        }
        counts.users += 1;
    }
    counts.avatars = kept.avatars.len();

    // User groups: Zulip's system groups are Confab's own; the others get new ids.
    let named: HashMap<u64, &NamedGroupRow> =
        export.realm.zerver_namedusergroup.iter().filter_map(|g| g.group_id().map(|id| (id, g))).collect();
    let mut groups: HashMap<u64, UserGroupId> = HashMap::new();
    for (&old, group) in &named {
        let id = match system_by_name.get(&group.name).filter(|_| group.is_system_group) {
            Some(&system) => system,
            None => UserGroupId(group_ids.take()),
        };
        groups.insert(old, id);
    }
    let mut members: HashMap<u64, Vec<UserId>> = HashMap::new();
    for m in &export.realm.zerver_usergroupmembership {
        members.entry(m.user_group).or_default().push(users[&m.user_profile]);
    }
    let mut subgroups: HashMap<u64, Vec<UserGroupId>> = HashMap::new();
    for n in &export.realm.zerver_groupgroupmembership {
        if let Some(&sub) = groups.get(&n.subgroup) {
            subgroups.entry(n.supergroup).or_default().push(sub);
        }
    }
    // A group setting names a named group, or an anonymous group by its members.
    let group_setting = |old: u64| -> GroupSetting {
        match groups.get(&old) {
            Some(&named) => GroupSetting::Named(named),
            None => GroupSetting::Anonymous {
                direct_members: members.get(&old).cloned().unwrap_or_default(),
                direct_subgroups: subgroups.get(&old).cloned().unwrap_or_default(),
            },
        }
    };
    let setting = |old: Option<u64>, default: &str| -> GroupSetting {
        old.map(group_setting).unwrap_or_else(|| GroupSetting::Named(system_by_name[default]))
    };
    let mut user_groups = Vec::new();
    let mut ordered: Vec<(&u64, &&NamedGroupRow)> = named.iter().collect();
    ordered.sort_by_key(|(old, _)| **old);
    for (old, group) in ordered {
        if group.is_system_group && system_by_name.contains_key(&group.name) {
            continue;
        }
        let nobody = SystemGroup::Nobody.name();
        user_groups.push(Change::PutUserGroup(Box::new(UserGroup {
            id: groups[old],
            realm_id,
            name: group.name.clone(),
            description: group.description.clone(),
            creator_id: group.creator.and_then(|c| users.get(&c).copied()),
            date_created: group.date_created.map(|d| d as i64),
            system: None,
            direct_members: members.get(old).cloned().unwrap_or_default(),
            direct_subgroups: subgroups.get(old).cloned().unwrap_or_default(),
            deactivated: group.deactivated,
            can_add_members_group: setting(group.can_add_members_group, nobody),
            can_join_group: setting(group.can_join_group, nobody),
            can_leave_group: setting(group.can_leave_group, SystemGroup::Everyone.name()),
            can_manage_group: setting(group.can_manage_group, nobody),
            can_mention_group: setting(group.can_mention_group, SystemGroup::Everyone.name()),
            can_remove_members_group: setting(group.can_remove_members_group, nobody),
        })));
        counts.user_groups += 1;
    }

    // Channels, direct-message groups and subscriptions.
    let mut channels = Vec::new();
    let mut streams: HashMap<u64, (StreamId, RecipientId)> = HashMap::new();
    for stream in &export.realm.zerver_stream {
        streams.insert(stream.id, (StreamId(stream_ids.take()), RecipientId(recipient_ids.take())));
    }
    // Recipient id in the export → what it addresses here.
    let mut recipients: HashMap<u64, Target> = HashMap::new();
    for crossrealm in &export.realm.zerver_userprofile_crossrealm {
        recipients.insert(crossrealm.recipient_id, Target::Person(bot, bot_recipient));
    }
    let mut dm_members: BTreeMap<u64, Vec<UserId>> = BTreeMap::new();
    for sub in &export.realm.zerver_subscription {
        dm_members.entry(sub.recipient).or_default().push(users[&sub.user_profile]);
    }
    for recipient in &export.realm.zerver_recipient {
        let target = match recipient.kind {
            format::PERSONAL => Target::Person(users[&recipient.type_id], personal[&recipient.type_id]),
            format::STREAM => {
                let (stream, recipient) = streams[&recipient.type_id];
                Target::Channel(stream, recipient)
            }
            _ => {
                let mut members = dm_members.get(&recipient.id).cloned().unwrap_or_default();
                members.sort();
                members.dedup();
                let id = RecipientId(recipient_ids.take());
                channels.push(Change::PutRecipient(Recipient {
                    id,
                    kind: RecipientKind::DirectGroup(members.clone()),
                }));
                Target::Group(id, members)
            }
        };
        recipients.insert(recipient.id, target);
    }
    let mut messages: Vec<&MessageRow> = export.message_rows().collect();
    messages.sort_by_key(|m| m.id);
    let new_message_ids: HashMap<u64, MessageId> =
        messages.iter().map(|m| (m.id, MessageId(message_ids.take()))).collect();
    let stream_numbers: HashMap<u64, u64> = streams.iter().map(|(o, (n, _))| (*o, n.0)).collect();
    let defaults: HashSet<u64> = export.realm.zerver_defaultstream.iter().map(|d| d.stream).collect();
    for stream in &export.realm.zerver_stream {
        let (id, recipient_id) = streams[&stream.id];
        let old_recipient =
            export.realm.zerver_recipient.iter().find(|r| r.kind == format::STREAM && r.type_id == stream.id);
        let first_message_id = old_recipient
            .and_then(|r| messages.iter().find(|m| m.recipient == r.id))
            .map(|m| new_message_ids[&m.id]);
        channels.push(Change::PutRecipient(Recipient { id: recipient_id, kind: RecipientKind::Stream(id) }));
        channels.push(Change::PutStream(Stream {
            id,
            realm_id,
            name: stream.name.clone(),
            description: stream.description.clone(),
            rendered_description: match &stream.rendered_description {
                Some(html) => remap_attribute(html, "data-stream-id", &stream_numbers),
                None => paragraph(&stream.description),
            },
            date_created: stream.date_created as i64,
            creator_id: stream.creator.and_then(|c| users.get(&c).copied()),
            invite_only: stream.invite_only,
            is_web_public: stream.is_web_public,
            history_public_to_subscribers: stream.history_public_to_subscribers,
            message_retention_days: stream.message_retention_days,
            is_archived: stream.deactivated,
            recipient_id,
            first_message_id,
            is_recently_active: true,
            topics_policy: "inherit".to_owned(),
            is_default: defaults.contains(&stream.id),
            folder_id: None,
            permissions: Box::new(settings::channel_permissions(&stream.rest, group_setting)),
        }));
        counts.channels += 1;
    }
    for (n, sub) in export.realm.zerver_subscription.iter().enumerate() {
        let Some(Target::Channel(stream, _)) = recipients.get(&sub.recipient) else { continue };
        let color = if sub.color.is_empty() { stream_color(n) } else { sub.color.clone() };
        channels.push(Change::PutSubscription(Subscription {
            active: sub.active,
            is_muted: sub.is_muted,
            pin_to_top: sub.pin_to_top,
            desktop_notifications: sub.desktop_notifications,
            audible_notifications: sub.audible_notifications,
            push_notifications: sub.push_notifications,
            email_notifications: sub.email_notifications,
            wildcard_mentions_notify: sub.wildcard_mentions_notify,
            ..Subscription::new(users[&sub.user_profile], *stream, color)
        }));
        counts.subscriptions += 1;
    }

    // Custom emoji: same file names, under the new organization's folder.
    let mut emoji = Vec::new();
    let mut emoji_codes: HashMap<String, String> = HashMap::new();
    for row in &export.realm.zerver_realmemoji {
        let Some(file_name) = &row.file_name else { continue };
        let id = emoji_ids.take();
        emoji_codes.insert(row.id.to_string(), id.to_string());
        emoji.push(Change::PutRealmEmoji(RealmEmoji {
            id,
            realm_id,
            name: row.name.clone(),
            file_name: file_name.clone(),
            author_id: row.author.and_then(|a| users.get(&a).copied()),
            deactivated: row.deactivated,
        }));
        counts.custom_emoji += 1;
    }

    // Messages, in id order, with their flags, then reactions and uploads.
    let clients: HashMap<u64, &str> =
        export.realm.zerver_client.iter().map(|c| (c.id, c.name.as_str())).collect();
    let mut flags: HashMap<u64, Vec<(UserId, MessageFlags)>> = HashMap::new();
    for row in export.messages.iter().flat_map(|f| &f.zerver_usermessage) {
        let bits = match (&row.flags_mask, &row.flags) {
            (Some(mask), _) => MessageFlags((*mask as u32) & KEPT_FLAG_BITS),
            (None, Some(names)) => names
                .iter()
                .filter_map(|n| MessageFlags::from_name(n))
                .fold(MessageFlags::empty(), MessageFlags::with),
            (None, None) => MessageFlags::empty(),
        };
        flags.entry(row.message).or_default().push((users[&row.user_profile], bits));
    }
    let paths: Vec<(String, String)> = kept.uploads.iter().map(|(o, n)| (o.clone(), n.clone())).collect();
    let ids = IdMaps {
        users: users.iter().map(|(o, n)| (*o, n.0)).collect(),
        streams: streams.iter().map(|(o, (n, _))| (*o, n.0)).collect(),
        groups: groups.iter().map(|(o, n)| (*o, n.0)).collect(),
    };
    let mut inserts = Vec::new();
    let mut unrendered = HashSet::new();
    for message in &messages {
        let id = new_message_ids[&message.id];
        let sender = users[&message.sender];
        let (recipient_id, kind) = match &recipients[&message.recipient] {
            Target::Channel(stream, recipient) => {
                (*recipient, MessageKind::Stream { stream_id: *stream, topic: message.subject.clone() })
            }
            Target::Person(user, recipient) => {
                let mut participants = vec![sender, *user];
                participants.sort();
                participants.dedup();
                (*recipient, MessageKind::Direct { participants })
            }
            Target::Group(recipient, members) => {
                let mut participants = members.clone();
                participants.push(sender);
                participants.sort();
                participants.dedup();
                (*recipient, MessageKind::Direct { participants })
            }
        };
        let direct = matches!(kind, MessageKind::Direct { .. });
        let receivers = flags
            .remove(&message.id)
            .unwrap_or_default()
            .into_iter()
            .map(|(user, f)| {
                (
                    user,
                    if direct {
                        f.with(MessageFlags::IS_PRIVATE)
                    } else {
                        f.without(MessageFlags::IS_PRIVATE)
                    },
                )
            })
            .collect();
        let content = remap_uploads(&message.content, &paths);
        let html = match &message.rendered_content {
            Some(html) => ids.html(&remap_uploads(html, &paths)),
            None => {
                unrendered.insert(id);
                paragraph(&content)
            }
        };
        inserts.push(Change::InsertMessage {
            message: Message {
                id,
                realm_id,
                sender_id: sender,
                recipient_id,
                kind,
                is_me_message: content.starts_with("/me ") && !content.contains('\n'),
                content,
                rendered_content: StoredHtml::new(&html),
                timestamp: message.date_sent as i64,
                client: message.sending_client.and_then(|c| clients.get(&c)).unwrap_or(&"Zulip").to_string(),
                has_link: message.has_link,
                has_image: message.has_image,
                has_attachment: message.has_attachment,
                last_edit_timestamp: message.last_edit_time.map(|t| t as i64),
                last_moved_timestamp: None,
                edit_history: edit_history(message, &ids, &paths),
            },
            receivers,
        });
        counts.messages += 1;
    }
    let mut extras = Vec::new();
    for reaction in &export.realm.zerver_reaction {
        let emoji_code = match reaction.reaction_type.as_str() {
            "realm_emoji" => emoji_codes[&reaction.emoji_code].clone(),
            _ => reaction.emoji_code.clone(),
        };
        extras.push(Change::AddReaction(Reaction {
            message_id: new_message_ids[&reaction.message],
            user_id: users[&reaction.user_profile],
            emoji_name: reaction.emoji_name.clone(),
            emoji_code,
            reaction_type: reaction.reaction_type.clone(),
        }));
        counts.reactions += 1;
    }
    let mut uploads = Vec::new();
    for attachment in &export.attachments {
        let Some(path_id) = kept.uploads.get(&attachment.path_id) else { continue };
        uploads.push(Change::PutAttachment(Attachment {
            id: attachment_ids.take(),
            realm_id,
            owner_id: users[&attachment.owner],
            path_id: path_id.clone(),
            file_name: attachment.file_name.clone(),
            size: attachment.size,
            content_type: content_type(attachment),
            create_time: attachment.create_time as i64,
            message_ids: attachment.messages.iter().map(|m| new_message_ids[m]).collect(),
            image: kept.images.get(&attachment.path_id).cloned(),
        }));
        counts.uploads += 1;
    }

    // What users keep for themselves: alert words, muted users, topic preferences.
    let mut personal_records = Vec::new();
    let mut words: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
    for word in &export.realm.zerver_alertword {
        words.entry(users[&word.user_profile]).or_default().push(word.word.clone());
    }
    personal_records.extend(words.into_iter().map(|(user, words)| Change::PutAlertWords(user, words)));
    for muted in &export.realm.zerver_muteduser {
        personal_records.push(Change::PutRecord {
            user: users[&muted.user_profile],
            kind: RecordKind::MutedUser,
            id: users[&muted.muted_user].0,
            value: serde_json::json!({"timestamp": muted.date_muted as i64}),
        });
    }
    // A policy of 0 (inherit) is no preference.
    for topic in export.realm.zerver_usertopic.iter().filter(|t| t.visibility_policy != 0) {
        let stream = streams[&topic.stream].0;
        personal_records.push(Change::PutRecord {
            user: users[&topic.user_profile],
            kind: RecordKind::UserTopic,
            id: record_ids.take(),
            value: serde_json::json!({
                "stream_id": stream,
                "topic_name": topic.topic_name,
                "last_updated": topic.last_updated as i64,
                "visibility_policy": topic.visibility_policy,
            }),
        });
    }

    let phases = vec![
        Phase { name: "organization", changes: organization },
        Phase { name: "users", changes: people },
        Phase { name: "user groups", changes: user_groups },
        Phase { name: "channels and subscriptions", changes: channels },
        Phase { name: "custom emoji", changes: emoji },
        Phase { name: "messages", changes: inserts },
        Phase { name: "reactions", changes: extras },
        Phase { name: "alert words, muted users and topics", changes: personal_records },
        Phase { name: "uploads", changes: uploads },
    ];
    let settings =
        settings::realm_settings(&row.rest, |old| streams.get(&old).map(|(new, _)| new.0), group_setting);
    Ok(Plan { realm: Realm { deactivated: false, settings, ..realm }, unrendered, phases, counts })
}

/// The flag bits Confab keeps: Zulip's `UserMessage` bits up to `is_private`; the next,
/// `active_mobile_push_notification`, is about the old server's push notifications.
const KEPT_FLAG_BITS: u32 = (1 << 12) - 1;

/// What an export's recipient addresses.
enum Target {
    /// A user and their personal recipient.
    Person(UserId, RecipientId),
    Channel(StreamId, RecipientId),
    /// A direct-message group's recipient and its members.
    Group(RecipientId, Vec<UserId>),
}

/// Old ids → new ones, for the ids rendered HTML carries.
struct IdMaps {
    users: HashMap<u64, u64>,
    streams: HashMap<u64, u64>,
    groups: HashMap<u64, u64>,
}

impl IdMaps {
    fn html(&self, html: &str) -> String {
        let html = remap_attribute(html, "data-user-id", &self.users);
        let html = remap_attribute(&html, "data-stream-id", &self.streams);
        remap_attribute(&html, "data-user-group-id", &self.groups)
    }
}

fn edit_history(message: &MessageRow, ids: &IdMaps, paths: &[(String, String)]) -> Vec<EditRecord> {
    let Some(history) = &message.edit_history else { return Vec::new() };
    // Checked by `Export::read`.
    let mut edits: Vec<EditRow> = serde_json::from_str(history).unwrap_or_default();
    edits.sort_by(|a, b| a.timestamp.total_cmp(&b.timestamp));
    edits
        .into_iter()
        .map(|edit| EditRecord {
            user_id: UserId(edit.user_id.and_then(|u| ids.users.get(&u).copied()).unwrap_or(0)),
            timestamp: edit.timestamp as i64,
            prev_content: edit.prev_content.map(|c| remap_uploads(&c, paths)),
            prev_rendered_content: edit.prev_rendered_content.map(|h| ids.html(&remap_uploads(&h, paths))),
            prev_stream: edit.prev_stream.and_then(|s| ids.streams.get(&s)).map(|s| StreamId(*s)),
            stream: edit.stream.and_then(|s| ids.streams.get(&s)).map(|s| StreamId(*s)),
            prev_topic: edit.prev_topic,
            topic: edit.topic,
        })
        .collect()
}

/// An upload's content type: as recorded, else an image's guessed from its name (as Zulip's
/// import guesses), else unknown.
pub fn content_type(attachment: &format::AttachmentRow) -> String {
    attachment
        .content_type
        .clone()
        .or_else(|| {
            confab_core::images::ImageFormat::from_extension(&attachment.file_name)
                .map(|f| f.content_type().to_owned())
        })
        .unwrap_or_else(|| "application/octet-stream".to_owned())
}

/// Text shown as one HTML paragraph: what a message the renderer refuses shows.
pub fn paragraph(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    format!("<p>{escaped}</p>")
}
