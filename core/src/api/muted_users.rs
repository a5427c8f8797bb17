//! POST   /users/me/muted_users/{muted_user_id}   mute_user
//! DELETE /users/me/muted_users/{muted_user_id}   unmute_user
//!
//! Muting a user (Zulip's `MutedUser`): their messages arrive already read for whoever muted
//! them, and muting marks what they sent before as read too. Clients hide them.

use std::ops::Bound;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{IndexedFlag, MessageFlags, RecordKind};
use crate::store::{Change, Direction, MessageIndex, Store};

use super::records::records;

/// Register's `muted_users`, and the list `muted_users` events carry.
pub fn muted_users_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    Ok(records(store, user, RecordKind::MutedUser)?
        .into_iter()
        .map(|(id, muted)| json!({"id": id, "timestamp": muted["timestamp"]}))
        .collect())
}

/// Whether `user` muted `sender`.
pub fn has_muted(store: &impl Store, user: UserId, sender: UserId) -> ApiResult<bool> {
    Ok(records(store, user, RecordKind::MutedUser)?.iter().any(|(id, _)| *id == sender.0))
}

/// The user named by the path: anyone of the organization, deactivated users and bots too.
fn target(store: &impl Store, actor: &Actor, id: UserId) -> ApiResult<UserId> {
    let user = store.user(id)?.filter(|u| u.realm_id == actor.realm.id);
    Ok(user.ok_or_else(|| ApiError::bad_request("No such user"))?.id)
}

fn changed_event(actor: &Actor, list: Value) -> Event {
    Event::Other { users: vec![actor.user.id], body: json!({"type": "muted_users", "muted_users": list}) }
}

/// `POST /users/me/muted_users/{muted_user_id}`.
pub fn mute_user(store: &impl Store, actor: &Actor, id: UserId, now: i64) -> ApiResult<Outcome> {
    if id == actor.user.id {
        return Err(ApiError::bad_request("Cannot mute self"));
    }
    let muted = target(store, actor, id)?;
    if has_muted(store, actor.user.id, muted)? {
        return Err(ApiError::bad_request("User already muted"));
    }
    let me = actor.user.id;
    let mut outcome = Outcome::default();
    outcome.changes.push(Change::PutRecord {
        user: me,
        kind: RecordKind::MutedUser,
        id: muted.0,
        value: json!({"timestamp": now}),
    });
    // What they sent that is still unread becomes read, as in Zulip.
    let mut read = Vec::new();
    let unread = MessageIndex::UserFlag(me, IndexedFlag::Unread);
    for message in store.message_ids(&unread, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)? {
        let message = message?;
        let (Some(found), Some(flags)) = (store.message(message)?, store.message_flags(me, message)?) else {
            continue;
        };
        if found.sender_id == muted {
            outcome.changes.push(Change::SetMessageFlags {
                user: me,
                message,
                flags: flags.with(MessageFlags::READ),
            });
            read.push(message.0);
        }
    }
    let mut list: Vec<Value> = muted_users_json(store, me)?.as_array().cloned().unwrap_or_default();
    list.push(json!({"id": muted, "timestamp": now}));
    // Zulip tells the flags first, then the list.
    if !read.is_empty() {
        let body = json!({"type": "update_message_flags", "op": "add", "operation": "add", "flag": "read", "messages": read, "all": false});
        outcome.events.push(Event::Other { users: vec![me], body });
    }
    outcome.events.push(changed_event(actor, Value::Array(list)));
    Ok(outcome)
}

/// `DELETE /users/me/muted_users/{muted_user_id}`.
pub fn unmute_user(store: &impl Store, actor: &Actor, id: UserId) -> ApiResult<Outcome> {
    let muted = target(store, actor, id)?;
    if !has_muted(store, actor.user.id, muted)? {
        return Err(ApiError::bad_request("User is not muted"));
    }
    let list: Vec<Value> = muted_users_json(store, actor.user.id)?
        .as_array()
        .map(|all| all.iter().filter(|m| m["id"] != muted.0).cloned().collect())
        .unwrap_or_default();
    Ok(Outcome {
        changes: vec![Change::DeleteRecord { user: actor.user.id, kind: RecordKind::MutedUser, id: muted.0 }],
        events: vec![changed_event(actor, Value::Array(list))],
        ..Outcome::default()
    })
}
