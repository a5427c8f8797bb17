//! Channels with their folders, recipients and subscriptions, and direct-message groups, whose
//! members are their subscribers in Zulip.

use std::collections::{BTreeMap, HashMap, HashSet};

use confab_core::api::subscriptions::stream_color;
use confab_core::ids::{RecipientId, StreamId, UserId};
use confab_core::model::{ChannelFolder, Recipient, RecipientKind, Stream, Subscription};
use confab_core::store::Change;

use super::messages::paragraph;
use super::{Planner, Target};
use crate::import_zulip::format;
use crate::import_zulip::rewrite::remap_attribute;
use crate::import_zulip::settings;

impl Planner<'_> {
    pub(super) fn channels(&mut self) -> Vec<Change> {
        let realm = &self.export.realm;
        for stream in &realm.zerver_stream {
            let ids = (StreamId(self.ids.stream.take()), RecipientId(self.ids.recipient.take()));
            self.streams.insert(stream.id, ids);
        }
        let mut changes = self.recipients();
        let mut folders = HashMap::new();
        for folder in &realm.zerver_channelfolder {
            let id = self.ids.folder.take();
            folders.insert(folder.id, id);
            changes.push(Change::PutChannelFolder(ChannelFolder {
                id,
                realm_id: self.realm.id,
                name: folder.name.clone(),
                description: folder.description.clone(),
                rendered_description: folder.rendered_description.clone(),
                order: folder.order,
                date_created: folder.date_created as i64,
                creator_id: self.user(folder.creator),
                is_archived: folder.is_archived,
            }));
        }
        let stream_numbers: HashMap<u64, u64> =
            self.streams.iter().map(|(old, (new, _))| (*old, new.0)).collect();
        let defaults: HashSet<u64> = realm.zerver_defaultstream.iter().map(|d| d.stream).collect();
        let first_messages = self.first_messages();
        for stream in &realm.zerver_stream {
            let (id, recipient_id) = self.streams[&stream.id];
            changes
                .push(Change::PutRecipient(Recipient { id: recipient_id, kind: RecipientKind::Stream(id) }));
            changes.push(Change::PutStream(Stream {
                id,
                realm_id: self.realm.id,
                name: stream.name.clone(),
                description: stream.description.clone(),
                rendered_description: match &stream.rendered_description {
                    Some(html) => remap_attribute(html, "data-stream-id", &stream_numbers),
                    None => paragraph(&stream.description),
                },
                date_created: stream.date_created as i64,
                creator_id: self.user(stream.creator),
                invite_only: stream.invite_only,
                is_web_public: stream.is_web_public,
                history_public_to_subscribers: stream.history_public_to_subscribers,
                message_retention_days: stream.message_retention_days,
                is_archived: stream.deactivated,
                recipient_id,
                first_message_id: first_messages.get(&stream.id).copied(),
                is_recently_active: true,
                topics_policy: "inherit".to_owned(),
                is_default: defaults.contains(&stream.id),
                folder_id: stream.folder.map(|old| folders[&old]),
                permissions: Box::new(settings::channel_permissions(&stream.rest, |old| {
                    self.group_setting(old)
                })),
            }));
            self.counts.channels += 1;
        }
        for (n, sub) in realm.zerver_subscription.iter().enumerate() {
            let Some(Target::Channel(stream, _)) = self.recipients.get(&sub.recipient) else { continue };
            let color = if sub.color.is_empty() { stream_color(n) } else { sub.color.clone() };
            changes.push(Change::PutSubscription(Subscription {
                active: sub.active,
                is_muted: sub.is_muted,
                pin_to_top: sub.pin_to_top,
                desktop_notifications: sub.desktop_notifications,
                audible_notifications: sub.audible_notifications,
                push_notifications: sub.push_notifications,
                email_notifications: sub.email_notifications,
                wildcard_mentions_notify: sub.wildcard_mentions_notify,
                ..Subscription::new(self.users[&sub.user_profile], *stream, color)
            }));
            self.counts.subscriptions += 1;
        }
        changes
    }

    /// What each of the export's recipients addresses here; the changes for the new
    /// direct-message groups.
    fn recipients(&mut self) -> Vec<Change> {
        let realm = &self.export.realm;
        for crossrealm in &realm.zerver_userprofile_crossrealm {
            self.recipients.insert(crossrealm.recipient_id, Target::Person(self.bot, self.bot_recipient));
        }
        let mut subscribers: BTreeMap<u64, Vec<UserId>> = BTreeMap::new();
        for sub in &realm.zerver_subscription {
            subscribers.entry(sub.recipient).or_default().push(self.users[&sub.user_profile]);
        }
        let mut changes = Vec::new();
        for recipient in &realm.zerver_recipient {
            let target = match recipient.kind {
                format::PERSONAL => {
                    Target::Person(self.users[&recipient.type_id], self.personal[&recipient.type_id])
                }
                format::STREAM => {
                    let (stream, recipient) = self.streams[&recipient.type_id];
                    Target::Channel(stream, recipient)
                }
                _ => {
                    let mut members = subscribers.remove(&recipient.id).unwrap_or_default();
                    members.sort();
                    members.dedup();
                    let id = RecipientId(self.ids.recipient.take());
                    changes.push(Change::PutRecipient(Recipient {
                        id,
                        kind: RecipientKind::DirectGroup(members.clone()),
                    }));
                    Target::Group(id, members)
                }
            };
            self.recipients.insert(recipient.id, target);
        }
        changes
    }

    /// Each channel's first message, by old channel id: one pass over the messages.
    fn first_messages(&self) -> HashMap<u64, confab_core::ids::MessageId> {
        let channel_of: HashMap<u64, u64> = self
            .export
            .realm
            .zerver_recipient
            .iter()
            .filter(|r| r.kind == format::STREAM)
            .map(|r| (r.id, r.type_id))
            .collect();
        let mut first = HashMap::new();
        for message in self.export.message_rows() {
            let Some(&channel) = channel_of.get(&message.recipient) else { continue };
            let id = self.messages[&message.id];
            first
                .entry(channel)
                .and_modify(|f: &mut confab_core::ids::MessageId| *f = (*f).min(id))
                .or_insert(id);
        }
        first
    }
}
