//! Messages and everything hanging off them: receivers' flags, edits, moves, reactions.

use confab_core::ids::{IdKind, MessageId, RecipientId, SubmessageId, UserId};
use confab_core::model::{
    Message, MessageFlags, MessageKind, Reaction, Recipient, RecipientKind, SendOrigin, Submessage, User,
    direct_group_key,
};
use confab_core::store::{Change, Store};

use super::{World, ok, pick};
use crate::parity::ops::Op;
use crate::parity::vocabulary::{CONTENTS, EMOJI, LOCAL_IDS, QUEUE_IDS, SUBMESSAGES, TOPICS, one};

/// Flags a user changes themselves.
const USER_FLAGS: MessageFlags =
    MessageFlags(MessageFlags::READ.0 | MessageFlags::STARRED.0 | MessageFlags::COLLAPSED.0);
/// Flags the server sets at send time from the content (mentions, alert words).
const CONTENT_FLAGS: MessageFlags = MessageFlags(
    MessageFlags::MENTIONED.0
        | MessageFlags::STREAM_WILDCARD_MENTIONED.0
        | MessageFlags::TOPIC_WILDCARD_MENTIONED.0
        | MessageFlags::GROUP_MENTIONED.0
        | MessageFlags::HAS_ALERT_WORD.0,
);

impl<S: Store> World<'_, S> {
    pub(super) fn messages_and_flags(&self, op: &Op, now: i64) -> Option<Vec<Change>> {
        let store = self.store;
        Some(match *op {
            Op::SendToChannel { sender, stream, topic, content, flags, origin } => {
                let sender = self.user(sender)?;
                let stream = pick(&self.streams(sender.realm_id), stream)?;
                let kind = MessageKind::Stream { stream_id: stream.id, topic: one(&TOPICS, topic).into() };
                let receivers = ok(store.stream_subscribers(stream.id));
                self.send(&sender, kind, stream.recipient_id, receivers, content, flags, origin, now)?
            }
            Op::SendDirect { sender, others, content, flags, origin } => {
                let sender = self.user(sender)?;
                let realm_users = ok(store.realm_users(sender.realm_id));
                let mut participants: Vec<&User> = realm_users
                    .iter()
                    .enumerate()
                    .filter(|(i, u)| u.id == sender.id || others & (1 << (i % 8)) != 0)
                    .map(|(_, u)| u)
                    .collect();
                participants.sort_by_key(|u| u.id);
                let ids: Vec<UserId> = participants.iter().map(|u| u.id).collect();
                let mut changes = Vec::new();
                // Addressed as core's `address_direct` does.
                let recipient = match participants.as_slice() {
                    [me] => me.personal_recipient,
                    [a, b] => {
                        if a.id == sender.id {
                            b.personal_recipient
                        } else {
                            a.personal_recipient
                        }
                    }
                    _ => match ok(store.direct_group(&direct_group_key(&ids))) {
                        Some(id) => id,
                        None => {
                            let id = RecipientId(self.next(IdKind::Recipient));
                            let kind = RecipientKind::DirectGroup(ids.clone());
                            changes.push(Change::PutRecipient(Recipient { id, kind }));
                            id
                        }
                    },
                };
                let kind = MessageKind::Direct { participants: ids.clone() };
                changes.extend(self.send(&sender, kind, recipient, ids, content, flags, origin, now)?);
                changes
            }
            Op::SetFlags { message, user, flags } => {
                let message = self.message(message)?;
                let holders = ok(store.message_users(message.id));
                let mut candidates = holders.clone();
                if !message.is_direct() {
                    // Starring or reacting to channel history gives a user a (historical) row.
                    candidates.extend(ok(store.realm_users(message.realm_id)).iter().map(|u| u.id));
                }
                let user = pick(&candidates, user)?;
                let before = ok(store.message_flags(user, message.id))
                    .unwrap_or(MessageFlags::READ.with(MessageFlags::HISTORICAL));
                let after = MessageFlags((before.0 & !USER_FLAGS.0) | (u32::from(flags) & USER_FLAGS.0));
                vec![Change::SetMessageFlags { user, message: message.id, flags: after }]
            }
            Op::DropFlags { message, user } => {
                let message = self.stream_message(message)?;
                let user = pick(&ok(store.message_users(message.id)), user)?;
                vec![Change::DeleteMessageFlags { user, message: message.id }]
            }
            Op::Edit { message, content, topic } => {
                let mut message = self.message(message)?;
                message.content = one(&CONTENTS, content).into();
                message.rendered_content = format!("<p>{}</p>", message.content).into();
                if let MessageKind::Stream { topic: t, .. } = &mut message.kind {
                    *t = one(&TOPICS, topic).into();
                }
                message.last_edit_timestamp = Some(now);
                vec![Change::UpdateMessage(message)]
            }
            Op::Move { message, stream, topic } => {
                let message = self.stream_message(message)?;
                let stream = pick(&self.streams(message.realm_id), stream)?;
                let kind = MessageKind::Stream { stream_id: stream.id, topic: one(&TOPICS, topic).into() };
                let moved = Message {
                    kind,
                    recipient_id: stream.recipient_id,
                    last_moved_timestamp: Some(now),
                    ..message
                };
                vec![Change::UpdateMessage(moved)]
            }
            Op::Delete { message } => vec![Change::DeleteMessage(self.message(message)?.id)],
            Op::React { message, user, emoji } => {
                let message = self.message(message)?;
                let holders = ok(store.message_users(message.id));
                let user = if message.is_direct() {
                    pick(&holders, user)?
                } else {
                    pick(&ok(store.realm_users(message.realm_id)), user)?.id
                };
                let (name, code, kind) = one(&EMOJI, emoji);
                let reactions = ok(store.reactions(message.id));
                // Core refuses the same emoji (by code) twice from one user, whatever its name.
                if reactions
                    .iter()
                    .any(|r| r.user_id == user && r.emoji_code == code && r.reaction_type == kind)
                {
                    return None;
                }
                let mut changes = Vec::new();
                if !holders.contains(&user) {
                    let flags = MessageFlags::READ.with(MessageFlags::HISTORICAL);
                    changes.push(Change::SetMessageFlags { user, message: message.id, flags });
                }
                changes.push(Change::AddReaction(Reaction {
                    message_id: message.id,
                    user_id: user,
                    emoji_name: name.into(),
                    emoji_code: code.into(),
                    reaction_type: kind.into(),
                }));
                changes
            }
            Op::Unreact { reaction } => {
                let reactions: Vec<Reaction> =
                    self.messages().iter().flat_map(|m| ok(store.reactions(m.id))).collect();
                vec![Change::RemoveReaction(pick(&reactions, reaction)?)]
            }
            Op::AddSubmessage { message, user, content } => {
                let message = self.message(message)?;
                // Core takes the first from the message's sender, later ones from its readers.
                let sender = if ok(store.submessages(message.id)).is_empty() {
                    message.sender_id
                } else {
                    pick(&ok(store.message_users(message.id)), user)?
                };
                let (msg_type, content) = one(&SUBMESSAGES, content);
                vec![Change::AddSubmessage(Submessage {
                    id: SubmessageId(self.next(IdKind::Submessage)),
                    message_id: message.id,
                    sender_id: sender,
                    msg_type: msg_type.into(),
                    content: content.into(),
                })]
            }
            _ => return None,
        })
    }

    /// A new message with its receivers' flags: content flags vary by receiver, the sender's
    /// own copy starts read; a remembered send is written with it.
    #[allow(clippy::too_many_arguments)]
    fn send(
        &self,
        sender: &User,
        kind: MessageKind,
        recipient_id: RecipientId,
        receivers: Vec<UserId>,
        content: u8,
        flags: u16,
        origin: Option<u8>,
        now: i64,
    ) -> Option<Vec<Change>> {
        let id = MessageId(self.next(IdKind::Message));
        let origin = origin.map(|o| SendOrigin {
            sender: sender.id,
            queue_id: one(&QUEUE_IDS, o).into(),
            local_id: one(&LOCAL_IDS, o / 2).into(),
        });
        if let Some(origin) = &origin
            && ok(self.store.sent_message(origin)).is_some()
        {
            // A retry: core answers it with the message the first send posted.
            return None;
        }
        let content = one(&CONTENTS, content).to_owned();
        let message = Message {
            id,
            realm_id: sender.realm_id,
            sender_id: sender.id,
            recipient_id,
            rendered_content: format!("<p>{content}</p>").into(),
            content,
            timestamp: now,
            client: "website".into(),
            is_me_message: false,
            has_link: false,
            has_image: false,
            has_attachment: false,
            last_edit_timestamp: None,
            last_moved_timestamp: None,
            edit_history: Vec::new(),
            kind,
        };
        let base = if message.is_direct() { MessageFlags::IS_PRIVATE } else { MessageFlags::empty() };
        let receivers = receivers
            .into_iter()
            .enumerate()
            .map(|(i, user)| {
                let content_flags =
                    MessageFlags(u32::from(flags).rotate_left(i as u32 * 3) & CONTENT_FLAGS.0);
                let own = if user == sender.id { MessageFlags::READ } else { MessageFlags::empty() };
                (user, base.with(content_flags).with(own))
            })
            .collect();
        let mut changes = vec![Change::InsertMessage { message, receivers }];
        if let Some(origin) = origin {
            changes.push(Change::PutSentMessage { origin, message: id });
        }
        Some(changes)
    }
}
