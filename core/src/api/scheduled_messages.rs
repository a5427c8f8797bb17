//! GET    /scheduled_messages                           get_scheduled_messages
//! POST   /scheduled_messages                           create_scheduled_message
//! PATCH  /scheduled_messages/{scheduled_message_id}    update_scheduled_message
//! DELETE /scheduled_messages/{scheduled_message_id}    delete_scheduled_message
//!
//! Messages a user asks the server to send later. Each is checked as if sent when scheduled
//! (and edited), kept with its rendering, shown only to its sender, and sent by the server at
//! its time (`scheduled_delivery`), when it is checked again.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, ScheduledMessageId, UserId};
use crate::model::{DeliveryState, MessageKind, ScheduledMessage, ScheduledTarget};
use crate::params::{BadValue, Params};
use crate::store::{Change, IdAllocator, Store};

use super::messages::{check_message, check_topic, interactive_client};

/// Zulip's `DeliveryTimeNotInFutureError`.
pub(crate) fn not_in_future() -> ApiError {
    ApiError::bad_request("Scheduled delivery time must be in the future.")
}

fn does_not_exist() -> ApiError {
    ApiError::bad_request("Scheduled message does not exist").with_status(404)
}

/// A scheduled message as clients see it (Zulip's `ScheduledMessage.to_dict`).
pub fn scheduled_message_json(scheduled: &ScheduledMessage) -> Value {
    let mut value = json!({
        "scheduled_message_id": scheduled.id,
        "content": scheduled.content,
        "rendered_content": scheduled.rendered_content,
        "scheduled_delivery_timestamp": scheduled.deliver_at,
        "failed": scheduled.is_failed(),
    });
    match &scheduled.target {
        ScheduledTarget::Stream { stream_id, topic } => {
            value["type"] = "stream".into();
            value["to"] = json!(stream_id);
            value["topic"] = json!(topic);
        }
        ScheduledTarget::Direct { to } => {
            value["type"] = "private".into();
            value["to"] = json!(to);
        }
    }
    value
}

/// The user's undelivered scheduled messages (not reminders), soonest first.
pub fn scheduled_messages_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    let mut list: Vec<ScheduledMessage> =
        store.user_scheduled_messages(user)?.into_iter().filter(|s| !s.is_reminder()).collect();
    list.sort_by_key(|s| (s.deliver_at, s.id));
    Ok(list.iter().map(scheduled_message_json).collect())
}

/// `GET /scheduled_messages`.
pub fn get_scheduled_messages(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("scheduled_messages", scheduled_messages_json(store, actor.user.id)?))
}

/// Channel or direct, as `type` says it (`channel` and `direct` are the newer names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Stream,
    Direct,
}

fn kind_of(raw: &str) -> ApiResult<Kind> {
    match raw {
        "stream" | "channel" => Ok(Kind::Stream),
        "direct" | "private" => Ok(Kind::Direct),
        _ => Err(BadValue::Invalid.error("type")),
    }
}

/// `to` as Zulip reads it here (`Json[int | list[int]]`): one id or a list of ids.
#[derive(Clone, Debug, PartialEq)]
enum To {
    One(i64),
    Many(Vec<i64>),
}

fn parse_to(raw: &str) -> ApiResult<To> {
    let value: Value = serde_json::from_str(raw).map_err(|_| BadValue::NotValidJson.error("to"))?;
    // Pydantic reports a value that is neither as the first alternative's failure.
    let not_an_integer = || BadValue::NotAnInteger.error("to[\"int\"]");
    match value {
        Value::Number(n) => n.as_i64().map(To::One).ok_or_else(not_an_integer),
        Value::Array(items) => items
            .iter()
            .map(Value::as_i64)
            .collect::<Option<Vec<_>>>()
            .map(To::Many)
            .ok_or_else(not_an_integer),
        _ => Err(not_an_integer()),
    }
}

/// The `to` of the send path for a kind: a channel id, or a JSON list of user ids (Zulip's
/// `extract_stream_id` and `extract_direct_message_recipient_ids`).
fn send_to(kind: Kind, to: &To) -> ApiResult<String> {
    match (kind, to) {
        (Kind::Stream, To::One(id)) => Ok(id.to_string()),
        (Kind::Stream, To::Many(_)) => Err(ApiError::bad_request("Invalid data type for channel ID")),
        (Kind::Direct, To::Many(ids)) => {
            let mut unique = ids.clone();
            unique.sort_unstable();
            unique.dedup();
            Ok(json!(unique).to_string())
        }
        (Kind::Direct, To::One(_)) => Err(ApiError::bad_request("Invalid data type for recipients")),
    }
}

/// A scheduled message's target, content and rendering, checked by the send path as if it
/// were sent now.
struct Checked {
    target: ScheduledTarget,
    content: String,
    rendered_content: String,
}

fn check(
    store: &impl Store,
    actor: &Actor,
    kind: Kind,
    to: String,
    topic: Option<&str>,
    content: &str,
    now: i64,
) -> ApiResult<Checked> {
    let mut pairs = vec![
        ("type".to_owned(), if kind == Kind::Stream { "stream" } else { "direct" }.to_owned()),
        ("to".to_owned(), to),
        ("content".to_owned(), content.to_owned()),
    ];
    if let (Kind::Stream, Some(topic)) = (kind, topic) {
        pairs.push(("topic".to_owned(), topic.to_owned()));
    }
    let message = check_message(store, actor, &Params::from_pairs(pairs), now)?;
    let target = match message.kind {
        MessageKind::Stream { stream_id, topic } => ScheduledTarget::Stream { stream_id, topic },
        MessageKind::Direct { participants } => {
            let others: Vec<UserId> = participants.iter().copied().filter(|u| *u != actor.user.id).collect();
            ScheduledTarget::Direct { to: if others.is_empty() { vec![actor.user.id] } else { others } }
        }
    };
    Ok(Checked { target, content: message.content, rendered_content: message.rendered_content.html() })
}

/// The topic sent as `topic`, or as its older name `subject`.
fn topic_param(params: &Params) -> ApiResult<Option<String>> {
    match params.optional::<String>("topic")? {
        Some(topic) => Ok(Some(topic)),
        None => params.optional::<String>("subject"),
    }
}

fn scheduled_event(actor: &Actor, body: Value) -> Event {
    Event::Other { users: vec![actor.user.id], body }
}

/// `POST /scheduled_messages`.
pub fn create_scheduled_message(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let kind = kind_of(&params.required::<String>("type")?)?;
    let to = parse_to(&params.required::<String>("to")?)?;
    let topic = topic_param(params)?;
    let content: String = params.required("content")?;
    let deliver_at: i64 = params.required("scheduled_delivery_timestamp")?;
    let read_by_sender = params.optional::<bool>("read_by_sender")?;
    if deliver_at <= now {
        return Err(not_in_future());
    }
    let checked = check(store, actor, kind, send_to(kind, &to)?, topic.as_deref(), &content, now)?;
    // Zulip's default: interactive clients read their own message, unless it is to oneself.
    let to_self = checked.target == ScheduledTarget::Direct { to: vec![actor.user.id] };
    let read_by_sender = read_by_sender.unwrap_or_else(|| interactive_client(&actor.client) && !to_self);
    let id = ScheduledMessageId(IdAllocator::new(store, IdKind::ScheduledMessage)?.take());
    let scheduled = ScheduledMessage {
        id,
        realm_id: actor.realm.id,
        sender_id: actor.user.id,
        target: checked.target,
        content: checked.content,
        rendered_content: checked.rendered_content,
        client: actor.client.clone(),
        deliver_at,
        read_by_sender,
        reminder: None,
        state: DeliveryState::Pending,
    };
    let event = scheduled_event(
        actor,
        json!({"type": "scheduled_messages", "op": "add", "scheduled_messages": [scheduled_message_json(&scheduled)]}),
    );
    Ok(Outcome {
        changes: vec![Change::PutScheduledMessage(scheduled)],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("scheduled_message_id", id.0))
}

/// The actor's own scheduled message (not a reminder); anyone else's, in this organization or
/// another, does not exist for them.
fn own_scheduled_message(
    store: &impl Store,
    actor: &Actor,
    id: ScheduledMessageId,
) -> ApiResult<ScheduledMessage> {
    store
        .scheduled_message(id)?
        .filter(|s| s.sender_id == actor.user.id && s.realm_id == actor.realm.id && !s.is_reminder())
        .ok_or_else(does_not_exist)
}

/// `PATCH /scheduled_messages/{scheduled_message_id}`: any of type (with `to`, and `topic`
/// for a channel), `to`, topic, content and time. A message that failed to send needs a new
/// time, which makes it pending again.
pub fn update_scheduled_message(
    store: &impl Store,
    actor: &Actor,
    id: ScheduledMessageId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let kind = params.optional::<String>("type")?.map(|raw| kind_of(&raw)).transpose()?;
    let to = params.optional::<String>("to")?;
    let topic = topic_param(params)?;
    let content = params.optional::<String>("content")?;
    let deliver_at = params.optional::<i64>("scheduled_delivery_timestamp")?;
    if kind.is_none() && to.is_none() && topic.is_none() && content.is_none() && deliver_at.is_none() {
        return Err(ApiError::bad_request("Nothing to change"));
    }
    if kind.is_some() && to.is_none() {
        return Err(ApiError::bad_request("Recipient required when updating type of scheduled message."));
    }
    if kind == Some(Kind::Stream) && topic.is_none() {
        return Err(ApiError::bad_request("Topic required when updating scheduled message type to channel."));
    }
    let to = to.map(|raw| parse_to(&raw)).transpose()?;
    if deliver_at.is_some_and(|at| at <= now) {
        return Err(not_in_future());
    }

    let mut scheduled = own_scheduled_message(store, actor, id)?;
    if !scheduled.is_undelivered() {
        return Err(ApiError::bad_request("Scheduled message was already sent"));
    }
    if scheduled.is_failed() && deliver_at.is_none() {
        return Err(not_in_future());
    }
    let (existing_kind, existing_to, existing_topic) = match &scheduled.target {
        ScheduledTarget::Stream { stream_id, topic } => {
            (Kind::Stream, To::One(stream_id.0 as i64), Some(topic))
        }
        ScheduledTarget::Direct { to } => {
            (Kind::Direct, To::Many(to.iter().map(|u| u.0 as i64).collect()), None)
        }
    };
    if kind.is_some() || to.is_some() || content.is_some() {
        let kind = kind.unwrap_or(existing_kind);
        let to = send_to(kind, to.as_ref().unwrap_or(&existing_to))?;
        let topic = topic.as_ref().or(existing_topic).map(String::as_str);
        let content = content.as_deref().unwrap_or(&scheduled.content);
        let checked = check(store, actor, kind, to, topic, content, now)?;
        scheduled.target = checked.target;
        scheduled.content = checked.content;
        scheduled.rendered_content = checked.rendered_content;
    } else if let (Some(topic), ScheduledTarget::Stream { stream_id, .. }) = (&topic, &scheduled.target) {
        // A new topic alone; a direct message's topic is ignored, as in Zulip.
        scheduled.target = ScheduledTarget::Stream { stream_id: *stream_id, topic: check_topic(topic)? };
    }
    if let Some(at) = deliver_at {
        scheduled.deliver_at = at;
    }
    scheduled.client = actor.client.clone();
    scheduled.state = DeliveryState::Pending;
    let event = scheduled_event(
        actor,
        json!({"type": "scheduled_messages", "op": "update", "scheduled_message": scheduled_message_json(&scheduled)}),
    );
    Ok(Outcome {
        changes: vec![Change::PutScheduledMessage(scheduled)],
        events: vec![event],
        ..Outcome::default()
    })
}

/// `DELETE /scheduled_messages/{scheduled_message_id}`: cancels it.
pub fn delete_scheduled_message(
    store: &impl Store,
    actor: &Actor,
    id: ScheduledMessageId,
) -> ApiResult<Outcome> {
    let scheduled = own_scheduled_message(store, actor, id)?;
    let event = scheduled_event(
        actor,
        json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": scheduled.id}),
    );
    Ok(Outcome {
        changes: vec![Change::DeleteScheduledMessage(scheduled.id)],
        events: vec![event],
        ..Outcome::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_is_one_id_or_a_list_of_ids() {
        assert_eq!(parse_to("7"), Ok(To::One(7)));
        assert_eq!(parse_to(" [3, 1] "), Ok(To::Many(vec![3, 1])));
        let msg = |raw: &str| parse_to(raw).map_err(|e| e.msg);
        assert_eq!(msg(r#"["a@example.com"]"#), Err("to[\"int\"] is not an integer".to_owned()));
        assert_eq!(msg("1.5"), Err("to[\"int\"] is not an integer".to_owned()));
        assert_eq!(msg("general"), Err("to is not valid JSON".to_owned()));
        assert_eq!(send_to(Kind::Direct, &To::Many(vec![5, 3, 5])).ok(), Some("[3,5]".to_owned()));
        assert_eq!(
            send_to(Kind::Stream, &To::Many(vec![1])).map_err(|e| e.msg),
            Err("Invalid data type for channel ID".to_owned())
        );
        assert_eq!(
            send_to(Kind::Direct, &To::One(1)).map_err(|e| e.msg),
            Err("Invalid data type for recipients".to_owned())
        );
    }
}
