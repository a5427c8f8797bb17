//! `POST /typing` and `POST /messages/{message_id}/typing` (someone is editing a message), as
//! Zulip's `zerver/actions/typing.py`: nothing is stored; the events go to the conversation's
//! active participants, the typist included, who have `receives_typing_notifications` on.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, StreamId, UserId};
use crate::model::{MessageKind, User};
use crate::params::{Json, Params};
use crate::store::Store;

use super::streams::{has_content_access, stream_in_realm};

/// Zulip's `MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS`: bigger channels get no typing events.
pub const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: usize = 100;

fn who(user: &User) -> Value {
    json!({"user_id": user.id, "email": user.email})
}

/// The users a direct typing notification names: ids (modern) or emails (legacy).
fn recipients(store: &impl Store, actor: &Actor, to: &[Value]) -> ApiResult<Vec<User>> {
    let mut users: Vec<User> = Vec::new();
    for entry in to {
        let user = match entry {
            Value::Number(n) => n.as_u64().map(UserId).map(|id| store.user(id)).transpose()?.flatten(),
            Value::String(email) => match crate::api::users::user_by_api_email(store, actor.realm.id, email)?
            {
                Some(id) => store.user(id)?,
                None => None,
            },
            _ => None,
        };
        let user = user
            .filter(|u| u.realm_id == actor.realm.id && u.is_active)
            .ok_or_else(|| ApiError::bad_request("Invalid user ID"))?;
        if !users.iter().any(|u| u.id == user.id) {
            users.push(user);
        }
    }
    Ok(users)
}

/// Whether a user wants typing events (`receives_typing_notifications`, feature level 253).
fn receives_typing(store: &impl Store, user: UserId) -> ApiResult<bool> {
    let settings = store.user_settings(user)?;
    Ok(crate::model::settings::user_setting(&settings, "receives_typing_notifications")
        != Some(Value::Bool(false)))
}

/// The sender's own switch for typing notices of one kind of conversation; off is an error.
fn check_sends_typing(store: &impl Store, actor: &Actor, channel: bool) -> ApiResult<()> {
    let (setting, what) = if channel {
        ("send_stream_typing_notifications", "channel messages")
    } else {
        ("send_private_typing_notifications", "direct messages")
    };
    let settings = store.user_settings(actor.user.id)?;
    if crate::model::settings::user_setting(&settings, setting) == Some(Value::Bool(false)) {
        return Err(ApiError::bad_request(format!("User has disabled typing notifications for {what}")));
    }
    Ok(())
}

/// Who hears of typing in a channel: its subscribers who want typing events, unless the
/// channel is too big for them.
fn channel_audience(store: &impl Store, stream: StreamId) -> ApiResult<Vec<UserId>> {
    let subscribers = store.stream_subscribers(stream)?;
    if subscribers.len() > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS {
        return Ok(Vec::new());
    }
    let mut audience = Vec::new();
    for id in subscribers {
        if store.user(id)?.is_some_and(|u| u.is_active) && receives_typing(store, id)? {
            audience.push(id);
        }
    }
    Ok(audience)
}

/// Who hears of typing in a direct conversation: its active participants who want typing events.
fn direct_audience(store: &impl Store, users: &[User]) -> ApiResult<Vec<UserId>> {
    let mut audience = Vec::new();
    for user in users.iter().filter(|u| u.is_active) {
        if receives_typing(store, user.id)? {
            audience.push(user.id);
        }
    }
    Ok(audience)
}

fn parse_op(params: &Params) -> ApiResult<String> {
    let op: String = params.required("op")?;
    if op != "start" && op != "stop" {
        return Err(ApiError::bad_request("Invalid op"));
    }
    Ok(op)
}

/// `POST /typing`: tells the other people in a conversation that the actor started or stopped
/// typing.
pub fn set_typing_status(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let op = parse_op(params)?;
    let kind = params.or("type", "direct".to_owned())?;
    let event = match kind.as_str() {
        "direct" | "private" => {
            let Json(to) = params.required::<Json<Vec<Value>>>("to")?;
            if to.is_empty() {
                return Err(ApiError::bad_request("Empty 'to' list"));
            }
            check_sends_typing(store, actor, false)?;
            let mut users = recipients(store, actor, &to)?;
            if !users.iter().any(|u| u.id == actor.user.id) {
                users.push(actor.user.clone());
            }
            users.sort_by_key(|u| u.id);
            let body = json!({
                "type": "typing", "op": op, "message_type": "direct",
                "sender": who(&actor.user),
                "recipients": users.iter().map(who).collect::<Vec<_>>(),
            });
            Event::Other { users: direct_audience(store, &users)?, body }
        }
        "stream" | "channel" => {
            // Modern clients send `stream_id`; older ones a one-element `to` list.
            let stream_id = match params.optional::<u64>("stream_id")? {
                Some(id) => id,
                None => match params.optional::<Json<Vec<u64>>>("to")? {
                    Some(Json(ids)) if ids.len() == 1 => ids[0],
                    _ => return Err(ApiError::missing_argument("stream_id")),
                },
            };
            let raw_topic: String =
                params.optional("topic")?.ok_or_else(|| ApiError::bad_request("Missing topic"))?;
            check_sends_typing(store, actor, true)?;
            let stream = stream_in_realm(store, actor, StreamId(stream_id))?
                .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false))
                .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
            // "(no topic)" and "general chat" name the empty topic, as messages store it
            // (feature level 372).
            let topic = super::messages::check_topic(&raw_topic)?;
            let body = json!({
                "type": "typing", "op": op, "message_type": "stream",
                "sender": who(&actor.user), "stream_id": stream.id, "topic": topic,
            });
            Event::Other { users: channel_audience(store, stream.id)?, body }
        }
        _ => return Err(ApiError::bad_request("Invalid type")),
    };
    Ok(Outcome { events: vec![event], ..Outcome::default() })
}

/// `POST /messages/{message_id}/typing` (feature level 351): the actor started or stopped
/// editing a message they may edit.
pub fn set_edit_typing_status(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let op = parse_op(params)?;
    let message = super::messages::readable_message(store, actor, id)?;
    super::messages::check_can_edit_content(actor, &message, now)?;
    let (users, recipient) = match &message.kind {
        MessageKind::Stream { stream_id, topic } => {
            check_sends_typing(store, actor, true)?;
            let recipient = json!({"type": "channel", "channel_id": stream_id, "topic": topic});
            (channel_audience(store, *stream_id)?, recipient)
        }
        MessageKind::Direct { participants } => {
            check_sends_typing(store, actor, false)?;
            let mut users = Vec::new();
            for id in participants {
                users.extend(store.user(*id)?);
            }
            let audience = direct_audience(store, &users)?;
            (audience.clone(), json!({"type": "direct", "user_ids": audience}))
        }
    };
    let body = json!({
        "type": "typing_edit_message", "op": op, "sender_id": actor.user.id,
        "message_id": id, "recipient": recipient,
    });
    Ok(Outcome { events: vec![Event::Other { users, body }], ..Outcome::default() })
}
