//! `GET /users/{user_id}/subscriptions/{stream_id}`: whether a user is subscribed to a channel,
//! as Zulip's `get_subscription_backend` answers it.

use serde_json::json;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{StreamId, UserId};
use crate::store::Store;

use super::streams::{has_content_access, is_subscribed, stream_in_realm};

/// The target is any active user of the organization; the channel one the actor can read, or
/// any channel for an administrator.
pub fn get_subscription_status(
    store: &impl Store,
    actor: &Actor,
    user: UserId,
    stream: StreamId,
) -> ApiResult<Outcome> {
    let target = store
        .user(user)?
        .filter(|u| u.realm_id == actor.realm.id && u.is_active)
        .ok_or_else(ApiError::no_such_user)?;
    let stream = stream_in_realm(store, actor, stream)?
        .filter(|s| actor.user.is_admin() || has_content_access(store, &actor.user, s).unwrap_or(false))
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    let subscribed = is_subscribed(store, target.id, stream.id)?;
    Ok(Outcome::default().reply("is_subscribed", json!(subscribed)))
}
