//! Who may read a message, and with which flags.

use crate::command::Actor;
use crate::error::{ApiError, ApiResult};
use crate::ids::MessageId;
use crate::model::{Message, MessageFlags, User};
use crate::store::Store;

use super::super::streams::has_content_access;

/// The flags `viewer` sees on the message, or `None` if they may not read it. A channel message
/// the viewer never received is readable when its channel's history is open to them, and is
/// then `read` and `historical`, as in Zulip; a spectator sees only `read`, as Zulip answers
/// spectators: with no messages of their own, nothing is history to them.
pub fn visible_flags(store: &impl Store, viewer: &User, msg: &Message) -> ApiResult<Option<MessageFlags>> {
    if msg.realm_id != viewer.realm_id {
        return Ok(None);
    }
    if let Some(flags) = store.message_flags(viewer.id, msg.id)? {
        return Ok(Some(flags));
    }
    let Some(stream_id) = msg.stream_id() else { return Ok(None) };
    let Some(stream) = store.stream(stream_id)? else { return Ok(None) };
    if stream.history_public_to_subscribers && has_content_access(store, viewer, &stream)? {
        Ok(Some(if viewer.is_spectator() {
            MessageFlags::READ
        } else {
            MessageFlags::READ.with(MessageFlags::HISTORICAL)
        }))
    } else {
        Ok(None)
    }
}

/// The message if the actor may read it (Zulip's `access_message`); a missing message and one
/// the actor may not read answer alike, so the answer never tells which.
pub fn readable_message(store: &impl Store, actor: &Actor, id: MessageId) -> ApiResult<Message> {
    let message = store.message(id)?.ok_or_else(ApiError::invalid_message)?;
    if visible_flags(store, &actor.user, &message)?.is_none() {
        return Err(ApiError::invalid_message());
    }
    Ok(message)
}
