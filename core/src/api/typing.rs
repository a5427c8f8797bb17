//! POST /typing   set_typing_status

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{StreamId, UserId};
use crate::model::User;
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

/// `POST /typing`: tells the other people in a conversation that the actor started or stopped
/// typing. Nothing is stored.
pub fn set_typing_status(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let op: String = params.required("op")?;
    if op != "start" && op != "stop" {
        return Err(ApiError::bad_request("Invalid op"));
    }
    let kind = params.or("type", "direct".to_owned())?;
    let event = match kind.as_str() {
        "direct" | "private" => {
            let Json(to) = params.required::<Json<Vec<Value>>>("to")?;
            if to.is_empty() {
                return Err(ApiError::bad_request("Empty 'to' list"));
            }
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
            Event::Other {
                users: users.iter().map(|u| u.id).filter(|id| *id != actor.user.id).collect(),
                body,
            }
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
            let topic: String = params.required("topic")?;
            let stream = stream_in_realm(store, actor, StreamId(stream_id))?
                .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false))
                .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
            let subscribers = store.stream_subscribers(stream.id)?;
            let users = if subscribers.len() > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS {
                Vec::new()
            } else {
                subscribers.into_iter().filter(|id| *id != actor.user.id).collect()
            };
            let body = json!({
                "type": "typing", "op": op, "message_type": "stream",
                "sender": who(&actor.user), "stream_id": stream.id, "topic": topic,
            });
            Event::Other { users, body }
        }
        _ => return Err(ApiError::bad_request("Invalid type")),
    };
    Ok(Outcome { events: vec![event], ..Outcome::default() })
}
