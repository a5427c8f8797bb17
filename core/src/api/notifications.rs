//! What a command's events mean for the event queues, once its changes are committed: the
//! host calls [`notifications`] on a snapshot that includes them and hands the result to
//! [`crate::events::Registry::push`].

use std::collections::BTreeMap;

use serde_json::Value;

use crate::command::Event;
use crate::error::ApiResult;
use crate::events::{MessageVariants, Notification};
use crate::ids::{MessageId, RecipientId, UserId};
use crate::model::{MessageFlags, SendOrigin};
use crate::store::Store;
use crate::user_access::HiddenSender;
use crate::wire::{self, MessageOptions};

/// The notifications of committed events, in order. Events about something that no longer
/// exists (a message deleted by a later command of the same batch) are dropped.
pub fn notifications(store: &impl Store, events: &[Event]) -> ApiResult<Vec<Notification>> {
    let mut notifications = Vec::with_capacity(events.len());
    for event in events {
        match event {
            Event::Message { message, receivers, origin, hidden_sender } => {
                notifications.extend(message_notifications(
                    store,
                    *message,
                    receivers,
                    origin,
                    hidden_sender,
                )?);
            }
            Event::Other { users, body } => {
                let users = crate::user_access::narrow_audience(store, body, users)?;
                notifications.push(Notification::Other { users, body: body.clone() });
            }
            Event::OutgoingWebhook { .. } | Event::Email(_) | Event::EmailsScheduled { .. } => {}
        }
    }
    Ok(notifications)
}

/// A new message in the four shapes clients register for; each queue puts its user's flags
/// in. Receivers who see the message alike share one notification: only a 1:1 direct message
/// is seen differently, its receiver getting the sender's `recipient_id` (Zulip's
/// `is_incoming_1_to_1`, feature level 327), so that one id names the conversation on both
/// sides; and receivers who cannot see the sender get them as "Unknown user".
fn message_notifications(
    store: &impl Store,
    id: MessageId,
    receivers: &[(UserId, MessageFlags)],
    origin: &Option<SendOrigin>,
    hidden_sender: &Option<HiddenSender>,
) -> ApiResult<Vec<Notification>> {
    let Some(message) = store.message(id)? else { return Ok(Vec::new()) };
    let Some(realm) = store.realm(message.realm_id)? else { return Ok(Vec::new()) };
    type Audience = (UserId, Vec<(UserId, MessageFlags)>);
    let mut audiences: BTreeMap<(RecipientId, bool), Audience> = BTreeMap::new();
    let hidden_from = |user: UserId| hidden_sender.as_ref().is_some_and(|h| h.from.contains(&user));
    for &(user, flags) in receivers {
        let seen_as = wire::conversation_recipient(store, &message, user)?;
        let key = (seen_as, hidden_from(user));
        audiences.entry(key).or_insert_with(|| (user, Vec::new())).1.push((user, flags));
    }
    if audiences.is_empty() {
        // No receiver, but `all_public_streams` queues may still want it.
        audiences.insert((message.recipient_id, false), (message.sender_id, Vec::new()));
    }
    let stream = message.stream_id().map(|s| store.stream(s)).transpose()?.flatten();
    let mut notifications = Vec::with_capacity(audiences.len());
    for ((_, hidden), (viewer, receivers)) in audiences {
        let mut shapes: Vec<Value> = Vec::with_capacity(4);
        for apply_markdown in [false, true] {
            for client_gravatar in [false, true] {
                // Queues show the empty topic per their `empty_topic_name` capability.
                let options =
                    MessageOptions { apply_markdown, client_gravatar, allow_empty_topic_name: true };
                let mut shape =
                    wire::message(store, &realm, &message, viewer, MessageFlags::empty(), options)?;
                if let (true, Some(hidden_sender)) = (hidden, hidden_sender) {
                    wire::hide_sender(&mut shape, message.sender_id, "");
                    shape["sender_email"] = hidden_sender.email.clone().into();
                }
                shapes.push(shape);
            }
        }
        let variants = MessageVariants::new(|apply_markdown, client_gravatar| {
            shapes[usize::from(apply_markdown) * 2 + usize::from(client_gravatar)].clone()
        });
        notifications.push(Notification::Message {
            realm: realm.id,
            variants,
            receivers,
            stream_id: stream.as_ref().map(|s| s.id),
            public_stream: stream.as_ref().is_some_and(|s| s.is_public()),
            // The registry gives the echo only to the sender's own queue.
            origin: origin.clone(),
        });
    }
    Ok(notifications)
}
