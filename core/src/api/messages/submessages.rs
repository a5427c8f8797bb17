//! POST /submessage   process_submessage
//!
//! Adds a submessage to a message: a vote, a new option or a struck task of a widget (see
//! `crate::widgets`). Zulip's `zerver/views/submessage.py` and `do_add_submessage`; the endpoint
//! is not in Zulip's API documentation (its clients call it, the Python client through
//! `call_endpoint("submessage", ...)`), so the operation takes the view's name.

use serde_json::json;

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, MessageId, SubmessageId, UserId};
use crate::model::{Message, Submessage};
use crate::params::Params;
use crate::store::{Change, IdAllocator, Store};
use crate::widgets;

use super::access::readable_message;
use super::automatic_follow;

/// `POST /submessage`: `message_id`, `msg_type` and `content` (JSON text, kept as sent).
///
/// In Zulip's order: the message must be one the actor may read, in a channel that is not
/// archived; the first submessage of a message must come from its sender (only then may
/// others add theirs); the content must be JSON, and for a poll or a to-do list one of its
/// changes (`widgets::check_submessage_content`). Taking part may follow or unmute the topic
/// for the actor, as reacting does. Everyone who can see the message gets a `submessage` event.
pub fn process_submessage(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let content: String = params.required("content")?;
    let message_id: i64 = params.required("message_id")?;
    let msg_type: String = params.required("msg_type")?;
    let message = modifiable(store, actor, message_id)?;
    let existing = store.submessages(message.id)?;
    if actor.user.id != message.sender_id && !existing.iter().any(|s| s.sender_id == message.sender_id) {
        // Zulip's `verify_submessage_sender`: widgets are collaborative, but only once the
        // message's sender has started one.
        return Err(ApiError::bad_request("You cannot attach a submessage to this message."));
    }
    let widget_type = widgets::widget_type(&existing);
    let is_widget_author = message.sender_id == actor.user.id;
    widgets::check_submessage_content(widget_type.as_deref(), &content, is_widget_author)
        .map_err(ApiError::bad_request)?;

    let submessage = Submessage {
        id: SubmessageId(IdAllocator::new(store, IdKind::Submessage)?.take()),
        message_id: message.id,
        sender_id: actor.user.id,
        msg_type,
        content,
    };
    let automatic = automatic_follow::on_participation(store, actor, &message, now)?;
    let mut changes = vec![Change::AddSubmessage(submessage.clone())];
    changes.extend(automatic.changes);
    let mut events = automatic.events;
    let body = json!({
        "type": "submessage",
        "msg_type": submessage.msg_type,
        "message_id": submessage.message_id,
        "submessage_id": submessage.id,
        "sender_id": submessage.sender_id,
        "content": submessage.content,
    });
    events.push(Event::Other { users: action_event_users(store, &message)?, body });
    Ok(Outcome { changes, events, ..Outcome::default() })
}

/// The message, if the actor may read it and change what hangs off it (Zulip's
/// `access_message(..., is_modifying_message=True)`): a message in an archived channel is
/// answered as missing.
fn modifiable(store: &impl Store, actor: &Actor, id: i64) -> ApiResult<Message> {
    let id = u64::try_from(id).map(MessageId).map_err(|_| ApiError::invalid_message())?;
    let message = readable_message(store, actor, id)?;
    if let Some(stream) = message.stream_id().map(|s| store.stream(s)).transpose()?.flatten()
        && stream.is_archived
    {
        return Err(ApiError::invalid_message());
    }
    Ok(message)
}

/// Who hears of an action on a message (Zulip's `event_recipient_ids_for_action_on_messages`):
/// for a direct message, whoever received it; in a channel, its subscribers (active users),
/// and where its history is public also the non-guests with the message in their history
/// (received, starred, reacted), but where its history is protected only subscribers who
/// received it.
pub(crate) fn action_event_users(store: &impl Store, message: &Message) -> ApiResult<Vec<UserId>> {
    let holders = store.message_users(message.id)?;
    let Some(stream) = message.stream_id().map(|s| store.stream(s)).transpose()?.flatten() else {
        return Ok(holders);
    };
    let deactivated = store.deactivated_users(stream.realm_id)?;
    let mut subscribers: Vec<UserId> =
        store.stream_subscribers(stream.id)?.into_iter().filter(|u| !deactivated.contains(u)).collect();
    let mut users = if !stream.history_public_to_subscribers {
        subscribers.retain(|u| holders.contains(u));
        subscribers
    } else if !stream.is_public() {
        subscribers
    } else {
        for holder in holders {
            if store.user(holder)?.is_some_and(|u| !u.is_guest()) {
                subscribers.push(holder);
            }
        }
        subscribers
    };
    users.sort_unstable();
    users.dedup();
    Ok(users)
}
