//! DELETE /messages/{message_id}              delete_message
//! POST   /streams/{stream_id}/delete_topic   delete_topic
//! GET    /users/me/{stream_id}/topics        get_stream_topics

use std::collections::BTreeMap;
use std::ops::Bound;

use serde_json::json;

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, StreamId, UserId};
use crate::model::{Message, MessageKind, Stream};
use crate::params::Params;
use crate::permissions;
use crate::store::{Change, Direction, MessageIndex, Store};

use super::super::streams::{has_content_access, stream_in_realm};
use super::access::visible_flags;

/// The changes and events that delete a set of messages of one conversation.
fn deletion(store: &impl Store, actor: &Actor, messages: &[Message], outcome: &mut Outcome) -> ApiResult<()> {
    let Some(first) = messages.first() else { return Ok(()) };
    let mut users: Vec<UserId> = vec![actor.user.id];
    for message in messages {
        for user in store.message_users(message.id)? {
            if !users.contains(&user) {
                users.push(user);
            }
        }
        outcome.changes.push(Change::DeleteMessage(message.id));
    }
    // The channel's subscribers hear of it too, holders of the messages or not (Zulip's
    // `do_delete_messages`): one who read the channel's history may show them.
    if let Some(stream_id) = first.stream_id() {
        for user in super::edit::active_subscribers(store, stream_id)? {
            if !users.contains(&user) {
                users.push(user);
            }
        }
    }
    let ids: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let body = match &first.kind {
        MessageKind::Stream { stream_id, topic } => {
            json!({"type": "delete_message", "message_type": "stream", "message_ids": ids, "stream_id": stream_id, "topic": topic})
        }
        MessageKind::Direct { .. } => {
            json!({"type": "delete_message", "message_type": "private", "message_ids": ids})
        }
    };
    outcome.events.push(Event::Other { users: users.clone(), body });
    // A channel whose first message goes gets its next one as `first_message_id`, and the
    // same users hear of it (Zulip's `check_update_first_message_id`).
    if let Some(stream_id) = first.stream_id()
        && let Some(stream) = store.stream(stream_id)?
        && stream.first_message_id.is_some_and(|id| ids.contains(&id))
    {
        let next = store
            .message_ids(
                &MessageIndex::Recipient(stream.recipient_id),
                Bound::Unbounded,
                Bound::Unbounded,
                Direction::Ascending,
            )?
            .map(|id| id.ok())
            .find(|id| id.is_some_and(|id| !ids.contains(&id)))
            .flatten();
        let body = json!({"type": "stream", "op": "update", "property": "first_message_id", "value": next.map(|id| id.0), "stream_id": stream.id, "name": stream.name});
        outcome.events.push(Event::Other { users, body });
        outcome.changes.push(Change::PutStream(Stream { first_message_id: next, ..stream }));
    }
    Ok(())
}

/// `DELETE /messages/{message_id}`: administrators delete any message; others their own (and
/// their bots'), within the organization's delete limit.
pub fn delete_message(store: &impl Store, actor: &Actor, id: MessageId, now: i64) -> ApiResult<Outcome> {
    let message = store.message(id)?.ok_or_else(ApiError::invalid_message)?;
    if visible_flags(store, &actor.user, &message)?.is_none() {
        return Err(ApiError::invalid_message());
    }
    let allowed = permissions::Permissions::load(store, actor)?;
    let stream = message.stream_id().map(|id| store.stream(id)).transpose()?.flatten();
    if !allowed.can_delete_any_message(stream.as_ref())? {
        let sender = store.user(message.sender_id)?;
        let own = message.sender_id == actor.user.id
            || sender.is_some_and(|s| s.bot_owner_id == Some(actor.user.id));
        if !own || !allowed.can_delete_own_message(stream.as_ref())? {
            return Err(ApiError::bad_request("You don't have permission to delete this message"));
        }
        if let Some(limit) = actor.realm.settings.message_content_delete_limit_seconds
            && now - message.timestamp > limit
        {
            return Err(ApiError::bad_request("The time limit for deleting this message has passed"));
        }
    }
    let mut outcome = Outcome::default();
    deletion(store, actor, &[message], &mut outcome)?;
    Ok(outcome)
}

/// `POST /streams/{stream_id}/delete_topic`: administrators delete a whole topic.
pub fn delete_topic(
    store: &impl Store,
    actor: &Actor,
    stream_id: StreamId,
    params: &Params,
) -> ApiResult<Outcome> {
    let topic: String = params.required("topic_name")?;
    if !permissions::is_realm_admin(&actor.user) {
        return Err(ApiError::administrator_required());
    }
    let stream = stream_in_realm(store, actor, stream_id)?
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    let index = MessageIndex::Topic(stream.recipient_id, topic.trim().to_lowercase());
    let mut messages = Vec::new();
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)? {
        if let Some(message) = store.message(id?)?
            && visible_flags(store, &actor.user, &message)?.is_some()
        {
            messages.push(message);
        }
    }
    let mut outcome = Outcome::default();
    deletion(store, actor, &messages, &mut outcome)?;
    Ok(outcome.reply("complete", true))
}

/// `GET /users/me/{stream_id}/topics`: the channel's topics the user can see, most recent
/// first, each with its newest message id.
pub fn get_stream_topics(
    store: &impl Store,
    actor: &Actor,
    stream_id: StreamId,
    params: &Params,
) -> ApiResult<Outcome> {
    let allow_empty_topic_name = params.or("allow_empty_topic_name", false)?;
    let stream = stream_in_realm(store, actor, stream_id)?
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    if !has_content_access(store, &actor.user, &stream)? {
        return Err(ApiError::bad_request("Invalid channel ID"));
    }
    let mut newest: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let index = MessageIndex::Recipient(stream.recipient_id);
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Descending)? {
        let id = id?;
        let Some(message) = store.message(id)? else { continue };
        let key = message.topic().to_lowercase();
        if newest.contains_key(&key) || visible_flags(store, &actor.user, &message)?.is_none() {
            continue;
        }
        newest.insert(key, (id.0, message.topic().to_owned()));
    }
    let mut topics: Vec<(u64, String)> = newest.into_values().collect();
    topics.sort_by_key(|t| std::cmp::Reverse(t.0));
    let shown = |t: String| {
        if t.is_empty() && !allow_empty_topic_name {
            crate::wire::EMPTY_TOPIC_DISPLAY_NAME.to_owned()
        } else {
            t
        }
    };
    let topics: Vec<_> =
        topics.into_iter().map(|(max_id, name)| json!({"name": shown(name), "max_id": max_id})).collect();
    Ok(Outcome::default().reply("topics", topics))
}
