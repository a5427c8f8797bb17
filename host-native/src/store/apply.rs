//! Applying core's `Change`s to the writer's tables. Each primary row and all of its index rows
//! are written here together, in the same transaction.

use confab_core::ApiResult;
use confab_core::ids::{IdKind, RecipientId, UserId};
use confab_core::model::{
    IndexedFlag, Message, MessageFlags, MessageKind, RecipientKind, RecordKind, ScheduledMessage, User,
};
use confab_core::search::message_words;
use confab_core::store::Change;

use super::codec::{decode, decode_message, encode, encode_message};
use super::tables::WriteTables;
use super::view::storage;

/// The meta key of an id counter.
pub fn counter_key(kind: IdKind) -> String {
    format!("next:{}", kind.key())
}

impl WriteTables<'_> {
    /// Reads an id counter; ids start at 1.
    pub fn counter(&self, kind: IdKind) -> ApiResult<u64> {
        Ok(self.meta.get(counter_key(kind).as_str()).map_err(storage)?.map_or(1, |v| v.value()))
    }

    /// Moves a counter past an id that is now in use.
    fn bump(&mut self, kind: IdKind, used: u64) -> ApiResult<()> {
        if self.counter(kind)? <= used {
            self.meta.insert(counter_key(kind).as_str(), used + 1).map_err(storage)?;
        }
        Ok(())
    }

    /// Applies one change with all its index rows.
    pub fn apply(&mut self, change: &Change) -> ApiResult<()> {
        match change {
            Change::PutRealm(realm) => {
                if let Some(old) = self.realms.get(realm.id.0).map_err(storage)? {
                    let old: confab_core::model::Realm = decode(old.value())?;
                    self.subdomains.remove(old.subdomain.as_str()).map_err(storage)?;
                }
                self.realms.insert(realm.id.0, encode(realm)?.as_slice()).map_err(storage)?;
                self.subdomains.insert(realm.subdomain.as_str(), realm.id.0).map_err(storage)?;
                self.bump(IdKind::Realm, realm.id.0)
            }
            Change::PutUser(user) => {
                if let Some(old) = self.users.get(user.id.0).map_err(storage)? {
                    let old: User = decode(old.value())?;
                    self.emails
                        .remove((old.realm_id.0, old.delivery_email.to_lowercase().as_str()))
                        .map_err(storage)?;
                }
                let email = user.delivery_email.to_lowercase();
                self.emails.insert((user.realm_id.0, email.as_str()), user.id.0).map_err(storage)?;
                self.realm_users.insert((user.realm_id.0, user.id.0), ()).map_err(storage)?;
                let key = (user.realm_id.0, user.id.0);
                if user.is_active {
                    self.deactivated.remove(key).map_err(storage)?;
                } else {
                    self.deactivated.insert(key, ()).map_err(storage)?;
                }
                self.users.insert(user.id.0, encode(user)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::User, user.id.0)
            }
            Change::PutCredentials(user, credentials) => {
                self.credentials.insert(user.0, encode(credentials)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::PutRecipient(recipient) => {
                if let RecipientKind::DirectGroup(members) = &recipient.kind {
                    let key = confab_core::model::direct_group_key(members);
                    self.direct_groups.insert(key.as_str(), recipient.id.0).map_err(storage)?;
                }
                self.recipients.insert(recipient.id.0, encode(recipient)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::Recipient, recipient.id.0)
            }
            Change::PutStream(stream) => {
                if let Some(old) = self.streams.get(stream.id.0).map_err(storage)? {
                    let old: confab_core::model::Stream = decode(old.value())?;
                    self.stream_names
                        .remove((old.realm_id.0, old.name.to_lowercase().as_str()))
                        .map_err(storage)?;
                }
                let name = stream.name.to_lowercase();
                self.stream_names.insert((stream.realm_id.0, name.as_str()), stream.id.0).map_err(storage)?;
                self.realm_streams.insert((stream.realm_id.0, stream.id.0), ()).map_err(storage)?;
                self.streams.insert(stream.id.0, encode(stream)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::Stream, stream.id.0)
            }
            Change::PutSubscription(sub) => {
                let key = (sub.user_id.0, sub.stream_id.0);
                self.subscriptions.insert(key, encode(sub)?.as_slice()).map_err(storage)?;
                if sub.active {
                    self.subscribers.insert((sub.stream_id.0, sub.user_id.0), ()).map_err(storage)?;
                } else {
                    self.subscribers.remove((sub.stream_id.0, sub.user_id.0)).map_err(storage)?;
                }
                Ok(())
            }
            Change::InsertMessage { message, receivers } => self.insert_message(message, receivers),
            Change::DeleteMessageFlags { user, message } => self.delete_user_message(*user, message.0),
            Change::PutSentMessage { origin, message } => {
                let key = (origin.sender.0, origin.queue_id.as_str(), origin.local_id.as_str());
                self.sent.insert(key, message.0).map_err(storage)?;
                Ok(())
            }
            Change::UpdateMessage(message) => self.update_message(message),
            Change::DeleteMessage(id) => self.delete_message(id.0),
            Change::AddReaction(reaction) => {
                let id = reaction.message_id.0;
                let seq = match self.reactions.range((id, 0)..=(id, u64::MAX)).map_err(storage)?.next_back() {
                    Some(row) => row.map_err(storage)?.0.value().1 + 1,
                    None => 0,
                };
                self.reactions.insert((id, seq), encode(reaction)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::RemoveReaction(reaction) => {
                let id = reaction.message_id.0;
                let mut found = None;
                for row in self.reactions.range((id, 0)..=(id, u64::MAX)).map_err(storage)? {
                    let (key, value) = row.map_err(storage)?;
                    let stored: confab_core::model::Reaction = decode(value.value())?;
                    if stored == *reaction {
                        found = Some(key.value());
                    }
                }
                if let Some(key) = found {
                    self.reactions.remove(key).map_err(storage)?;
                }
                Ok(())
            }
            Change::AddSubmessage(submessage) => {
                let key = (submessage.message_id.0, submessage.id.0);
                self.submessages.insert(key, encode(submessage)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::Submessage, submessage.id.0)
            }
            Change::PutLinkifier(linkifier) => {
                let key = (linkifier.realm_id.0, linkifier.id);
                self.linkifiers.insert(key, encode(linkifier)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::Linkifier, linkifier.id)
            }
            Change::PutBotService(service) => {
                self.bot_services.insert(service.bot_id.0, encode(service)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::PutAlertWords(user, words) => {
                self.alert_words.insert(user.0, encode(words)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::PutUserSettings(user, settings) => {
                self.user_settings.insert(user.0, encode(settings)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::PutUserGroup(group) => {
                let key = (group.realm_id.0, group.id.0);
                self.user_groups.insert(key, encode(group)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::UserGroup, group.id.0)
            }
            Change::PutPresence(presence) => {
                if let Some(old) = self.presences.get(presence.user_id.0).map_err(storage)? {
                    let old: confab_core::model::Presence = decode(old.value())?;
                    self.presence_changes.remove((old.realm_id.0, old.last_update_id)).map_err(storage)?;
                }
                let change = (presence.realm_id.0, presence.last_update_id);
                self.presence_changes.insert(change, presence.user_id.0).map_err(storage)?;
                self.presences.insert(presence.user_id.0, encode(presence)?.as_slice()).map_err(storage)?;
                Ok(())
            }
            Change::PutAttachment(attachment) => {
                self.attachments.insert(attachment.id, encode(attachment)?.as_slice()).map_err(storage)?;
                self.attachment_paths.insert(attachment.path_id.as_str(), attachment.id).map_err(storage)?;
                self.user_attachments.insert((attachment.owner_id.0, attachment.id), ()).map_err(storage)?;
                self.bump(IdKind::Attachment, attachment.id)
            }
            Change::DeleteAttachment(attachment) => {
                self.attachments.remove(attachment.id).map_err(storage)?;
                self.attachment_paths.remove(attachment.path_id.as_str()).map_err(storage)?;
                self.user_attachments.remove((attachment.owner_id.0, attachment.id)).map_err(storage)?;
                Ok(())
            }
            Change::PutRecord { user, kind, id, value } => {
                if *kind == RecordKind::MutedUser {
                    // Who muted a sender is read on every send: indexed by the muted user.
                    self.muters.insert((*id, user.0), ()).map_err(storage)?;
                }
                if *kind == RecordKind::UserTopic {
                    self.unfile_topic_preference(*user, *id)?;
                    self.file_topic_preference(*user, *id, value)?;
                }
                self.records.insert((user.0, kind.key(), *id), encode(value)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::Record, *id)
            }
            Change::DeleteRecord { user, kind, id } => {
                if *kind == RecordKind::MutedUser {
                    self.muters.remove((*id, user.0)).map_err(storage)?;
                }
                if *kind == RecordKind::UserTopic {
                    self.unfile_topic_preference(*user, *id)?;
                }
                self.records.remove((user.0, kind.key(), *id)).map_err(storage)?;
                Ok(())
            }
            Change::PutInvitation(invitation) => {
                let key = (invitation.realm_id.0, invitation.id);
                self.invitations.insert(key, encode(invitation)?.as_slice()).map_err(storage)?;
                self.invitation_keys.insert(invitation.key.as_str(), key).map_err(storage)?;
                self.bump(IdKind::Invitation, invitation.id)
            }
            Change::PutChannelFolder(folder) => {
                let key = (folder.realm_id.0, folder.id);
                self.channel_folders.insert(key, encode(folder)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::ChannelFolder, folder.id)
            }
            Change::PutScheduledMessage(scheduled) => {
                self.unindex_scheduled(scheduled.id.0)?;
                if scheduled.is_undelivered() {
                    self.user_scheduled
                        .insert((scheduled.sender_id.0, scheduled.id.0), ())
                        .map_err(storage)?;
                }
                if scheduled.is_pending() {
                    self.deliveries.insert((scheduled.deliver_at, scheduled.id.0), ()).map_err(storage)?;
                }
                self.scheduled.insert(scheduled.id.0, encode(scheduled)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::ScheduledMessage, scheduled.id.0)
            }
            Change::DeleteScheduledMessage(id) => {
                self.unindex_scheduled(id.0)?;
                self.scheduled.remove(id.0).map_err(storage)?;
                Ok(())
            }
            Change::DeleteLinkifier { realm, id } => {
                self.linkifiers.remove((realm.0, *id)).map_err(storage)?;
                Ok(())
            }
            Change::PutRealmEmoji(emoji) => {
                let key = (emoji.realm_id.0, emoji.id);
                self.realm_emoji.insert(key, encode(emoji)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::RealmEmoji, emoji.id)
            }
            Change::PutProfileField(field) => {
                let key = (field.realm_id.0, field.id);
                self.profile_fields.insert(key, encode(field)?.as_slice()).map_err(storage)?;
                self.bump(IdKind::ProfileField, field.id)
            }
            Change::DeleteProfileField { realm, id } => {
                self.profile_fields.remove((realm.0, *id)).map_err(storage)?;
                Ok(())
            }
            Change::PutProfileValue { user, field, value } => {
                let key = (user.0, *field);
                match value {
                    Some(value) => self.profile_values.insert(key, encode(value)?.as_slice()),
                    None => self.profile_values.remove(key).map(|_old| ()),
                }
                .map_err(storage)
            }
            Change::SetMessageFlags { user, message, flags } => {
                let old =
                    self.flags.get((user.0, message.0)).map_err(storage)?.map(|v| MessageFlags(v.value()));
                // No row yet: a historical message the user now stars or otherwise touches.
                self.index_flags(*user, message.0, old, *flags)?;
                if old.is_none() {
                    // A new row is in the user's conversation index like a received one (the
                    // memory store's answer, and `MessageIndex::UserConversation`'s meaning):
                    // the index holds exactly the user's rows of direct messages.
                    let row = self.messages.get(message.0).map_err(storage)?;
                    let stored: Option<Message> = row.map(|g| decode_message(g.value())).transpose()?;
                    if let Some(stored) = stored {
                        self.file_in_conversation(*user, &stored)?;
                    }
                    // An existing row is there already. Rewriting it cost most of marking
                    // 127,501 messages read: its keys are by message, scattered over the table.
                    self.message_users.insert((message.0, user.0), ()).map_err(storage)?;
                }
                self.flags.insert((user.0, message.0), flags.0).map_err(storage)?;
                Ok(())
            }
        }
    }

    /// Removes a stored scheduled message's index rows (its owner's list, the delivery queue).
    fn unindex_scheduled(&mut self, id: u64) -> ApiResult<()> {
        let Some(old) = self.scheduled.get(id).map_err(storage)? else { return Ok(()) };
        let old: ScheduledMessage = decode(old.value())?;
        self.user_scheduled.remove((old.sender_id.0, id)).map_err(storage)?;
        self.deliveries.remove((old.deliver_at, id)).map_err(storage)?;
        Ok(())
    }

    /// Files a topic preference under its channel and topic, for `Store::topic_preference`.
    pub(super) fn file_topic_preference(
        &mut self,
        user: UserId,
        id: u64,
        value: &serde_json::Value,
    ) -> ApiResult<()> {
        if let Some((stream, topic)) = confab_core::model::topic_preference_place(value) {
            self.topic_preferences.insert((user.0, stream.0, topic.as_str()), id).map_err(storage)?;
        }
        Ok(())
    }

    /// Removes the index row of the topic preference stored under `id`, if there is one.
    fn unfile_topic_preference(&mut self, user: UserId, id: u64) -> ApiResult<()> {
        let kind = RecordKind::UserTopic.key();
        let old: Option<serde_json::Value> =
            self.records.get((user.0, kind, id)).map_err(storage)?.map(|v| decode(v.value())).transpose()?;
        if let Some((stream, topic)) = old.as_ref().and_then(confab_core::model::topic_preference_place) {
            self.topic_preferences.remove((user.0, stream.0, topic.as_str())).map_err(storage)?;
        }
        Ok(())
    }

    fn insert_message(&mut self, message: &Message, receivers: &[(UserId, MessageFlags)]) -> ApiResult<()> {
        let id = message.id.0;
        self.messages.insert(id, encode_message(message)?.as_slice()).map_err(storage)?;
        self.by_recipient.insert((message.recipient_id.0, id), ()).map_err(storage)?;
        self.by_sender.insert((message.sender_id.0, id), ()).map_err(storage)?;
        self.by_realm.insert((message.realm_id.0, id), ()).map_err(storage)?;
        if let MessageKind::Stream { topic, .. } = &message.kind {
            let topic = topic.to_lowercase();
            self.by_topic.insert((message.recipient_id.0, topic.as_str(), id), ()).map_err(storage)?;
        }
        for word in message_words(&message.content, message.topic()) {
            self.words.insert((message.realm_id.0, word.as_str(), id), ()).map_err(storage)?;
        }
        for (user, flags) in receivers {
            self.flags.insert((user.0, id), flags.0).map_err(storage)?;
            self.message_users.insert((id, user.0), ()).map_err(storage)?;
            self.index_flags(*user, id, None, *flags)?;
            self.file_in_conversation(*user, message)?;
        }
        self.bump(IdKind::Message, id)
    }

    /// Adds a user's new row for a direct message to their conversation index.
    fn file_in_conversation(&mut self, user: UserId, message: &Message) -> ApiResult<()> {
        if let Some(conversation) = self.conversation_of(message, user)? {
            self.conversations.insert((user.0, conversation.0, message.id.0), ()).map_err(storage)?;
        }
        Ok(())
    }

    /// The conversation a direct message is filed under for `user`: an incoming 1:1 message
    /// under its sender, matching the `recipient_id` the API shows. `None` for channel messages.
    fn conversation_of(&self, message: &Message, user: UserId) -> ApiResult<Option<RecipientId>> {
        let MessageKind::Direct { participants } = &message.kind else { return Ok(None) };
        if participants.len() == 2 && user != message.sender_id {
            let sender = self.users.get(message.sender_id.0).map_err(storage)?;
            let sender: Option<User> = sender.map(|g| decode(g.value())).transpose()?;
            if let Some(sender) = sender {
                return Ok(Some(sender.personal_recipient));
            }
        }
        Ok(Some(message.recipient_id))
    }

    fn read_message(&self, id: u64) -> ApiResult<Message> {
        let row = self.messages.get(id).map_err(storage)?;
        let message: Option<Message> = row.map(|g| decode_message(g.value())).transpose()?;
        message.ok_or_else(|| confab_core::ApiError::internal(format!("message {id} missing")))
    }

    /// Removes one user's row for a message with its flag and conversation index rows.
    fn delete_user_message(&mut self, user: UserId, id: u64) -> ApiResult<()> {
        let old = self.flags.remove((user.0, id)).map_err(storage)?.map(|v| MessageFlags(v.value()));
        if let Some(old) = old {
            for flag in IndexedFlag::ALL {
                if flag.holds(old) {
                    self.flag_index.remove((user.0, flag.code(), id)).map_err(storage)?;
                }
            }
        }
        self.message_users.remove((id, user.0)).map_err(storage)?;
        let message = self.read_message(id)?;
        if let Some(conversation) = self.conversation_of(&message, user)? {
            self.conversations.remove((user.0, conversation.0, id)).map_err(storage)?;
        }
        Ok(())
    }

    /// Re-files an edited or moved message under its new channel, topic and words.
    fn update_message(&mut self, message: &Message) -> ApiResult<()> {
        let id = message.id.0;
        let old = self.read_message(id)?;
        if old.recipient_id != message.recipient_id {
            self.by_recipient.remove((old.recipient_id.0, id)).map_err(storage)?;
            self.by_recipient.insert((message.recipient_id.0, id), ()).map_err(storage)?;
        }
        let (old_topic, new_topic) = (old.topic().to_lowercase(), message.topic().to_lowercase());
        if old.recipient_id != message.recipient_id || old_topic != new_topic {
            if !old.is_direct() {
                self.by_topic.remove((old.recipient_id.0, old_topic.as_str(), id)).map_err(storage)?;
            }
            if !message.is_direct() {
                self.by_topic
                    .insert((message.recipient_id.0, new_topic.as_str(), id), ())
                    .map_err(storage)?;
            }
        }
        let old_words = message_words(&old.content, old.topic());
        let new_words = message_words(&message.content, message.topic());
        for word in old_words.difference(&new_words) {
            self.words.remove((old.realm_id.0, word.as_str(), id)).map_err(storage)?;
        }
        for word in new_words.difference(&old_words) {
            self.words.insert((message.realm_id.0, word.as_str(), id), ()).map_err(storage)?;
        }
        self.messages.insert(id, encode_message(message)?.as_slice()).map_err(storage)?;
        Ok(())
    }

    /// Deletes a message and everything that refers to it.
    fn delete_message(&mut self, id: u64) -> ApiResult<()> {
        let old = self.read_message(id)?;
        let mut users = Vec::new();
        for row in self.message_users.range((id, 0)..=(id, u64::MAX)).map_err(storage)? {
            users.push(UserId(row.map_err(storage)?.0.value().1));
        }
        for user in users {
            self.delete_user_message(user, id)?;
        }
        let mut reactions = Vec::new();
        for row in self.reactions.range((id, 0)..=(id, u64::MAX)).map_err(storage)? {
            reactions.push(row.map_err(storage)?.0.value());
        }
        for key in reactions {
            self.reactions.remove(key).map_err(storage)?;
        }
        let mut submessages = Vec::new();
        for row in self.submessages.range((id, 0)..=(id, u64::MAX)).map_err(storage)? {
            submessages.push(row.map_err(storage)?.0.value());
        }
        for key in submessages {
            self.submessages.remove(key).map_err(storage)?;
        }
        self.by_recipient.remove((old.recipient_id.0, id)).map_err(storage)?;
        self.by_sender.remove((old.sender_id.0, id)).map_err(storage)?;
        self.by_realm.remove((old.realm_id.0, id)).map_err(storage)?;
        if !old.is_direct() {
            let topic = old.topic().to_lowercase();
            self.by_topic.remove((old.recipient_id.0, topic.as_str(), id)).map_err(storage)?;
        }
        for word in message_words(&old.content, old.topic()) {
            self.words.remove((old.realm_id.0, word.as_str(), id)).map_err(storage)?;
        }
        self.messages.remove(id).map_err(storage)?;
        Ok(())
    }

    /// Keeps the per-user flag indexes in step with a flags change.
    fn index_flags(
        &mut self,
        user: UserId,
        message: u64,
        old: Option<MessageFlags>,
        new: MessageFlags,
    ) -> ApiResult<()> {
        for flag in IndexedFlag::ALL {
            let was = old.is_some_and(|o| flag.holds(o));
            let is = flag.holds(new);
            let key = (user.0, flag.code(), message);
            if is && !was {
                self.flag_index.insert(key, ()).map_err(storage)?;
            } else if was && !is {
                self.flag_index.remove(key).map_err(storage)?;
            }
        }
        Ok(())
    }
}
