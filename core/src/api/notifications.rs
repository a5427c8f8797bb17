//! What a command's events mean for the event queues, once its changes are committed: the
//! host calls [`notifications`] on a snapshot that includes them and hands the result to
//! [`crate::events::Registry::push`].

use serde_json::Value;

use crate::command::Event;
use crate::error::ApiResult;
use crate::events::{MessageVariants, Notification};
use crate::ids::{MessageId, UserId};
use crate::model::{MessageFlags, SendOrigin};
use crate::store::Store;
use crate::wire::{self, MessageOptions};

/// The notifications of committed events, in order. Events about something that no longer
/// exists (a message deleted by a later command of the same batch) are dropped.
pub fn notifications(store: &impl Store, events: &[Event]) -> ApiResult<Vec<Notification>> {
    let mut notifications = Vec::with_capacity(events.len());
    for event in events {
        match event {
            Event::Message { message, receivers, origin } => {
                if let Some(notification) = message_notification(store, *message, receivers, origin)? {
                    notifications.push(notification);
                }
            }
            Event::Other { users, body } => {
                notifications.push(Notification::Other { users: users.clone(), body: body.clone() });
            }
            Event::OutgoingWebhook { .. } | Event::InvitationLink { .. } => {}
        }
    }
    Ok(notifications)
}

/// A new message in the four shapes clients register for. Shapes are made as the sender sees
/// the message (for a 1:1 direct message, `recipient_id` is then the message's own, as in
/// Zulip's events); each queue puts its user's flags in.
fn message_notification(
    store: &impl Store,
    id: MessageId,
    receivers: &[(UserId, MessageFlags)],
    origin: &Option<SendOrigin>,
) -> ApiResult<Option<Notification>> {
    let Some(message) = store.message(id)? else { return Ok(None) };
    let Some(realm) = store.realm(message.realm_id)? else { return Ok(None) };
    let mut shapes: Vec<Value> = Vec::with_capacity(4);
    for apply_markdown in [false, true] {
        for client_gravatar in [false, true] {
            // Queues show the empty topic per their `empty_topic_name` capability.
            let options = MessageOptions { apply_markdown, client_gravatar, allow_empty_topic_name: true };
            shapes.push(wire::message(
                store,
                &realm,
                &message,
                message.sender_id,
                MessageFlags::empty(),
                options,
            )?);
        }
    }
    let variants = MessageVariants::new(|apply_markdown, client_gravatar| {
        shapes[usize::from(apply_markdown) * 2 + usize::from(client_gravatar)].clone()
    });
    let stream = message.stream_id().map(|s| store.stream(s)).transpose()?.flatten();
    Ok(Some(Notification::Message {
        realm: realm.id,
        variants,
        receivers: receivers.to_vec(),
        stream_id: stream.as_ref().map(|s| s.id),
        public_stream: stream.is_some_and(|s| s.is_public()),
        origin: origin.clone(),
    }))
}
