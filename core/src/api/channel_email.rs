//! `GET /streams/{stream_id}/email_address` (feature level 226).
//!
//! Zulip hands out an address of its email gateway, whose mail becomes messages in the
//! channel. Confab has no email gateway, so there is no address to give: after Zulip's access
//! checks (the channel, and the `sender_id` the address would post as), the answer says so.
//! Zulip itself, on a server without a gateway (`EMAIL_GATEWAY_PATTERN` empty), fails inside
//! its address encoder with a server error; a clear refusal serves clients better.

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{StreamId, UserId};
use crate::params::Params;
use crate::store::Store;

use super::streams::{has_content_access, stream_in_realm};

/// The refusal every reachable request ends in.
pub const NO_EMAIL_GATEWAY: &str = "This server has no email gateway: channels have no email address.";

pub fn get_stream_email_address(
    store: &impl Store,
    actor: &Actor,
    stream: StreamId,
    params: &Params,
) -> ApiResult<Outcome> {
    stream_in_realm(store, actor, stream)?
        .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false))
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    // The sender: the actor, or one of the bots the actor may manage (Zulip's `access_bot_by_id`).
    if let Some(sender) = params.optional::<u64>("sender_id")?.map(UserId)
        && sender != actor.user.id
    {
        let bot = store.user(sender)?.filter(|u| u.realm_id == actor.realm.id && u.is_bot());
        let may_manage =
            bot.as_ref().is_some_and(|b| actor.user.is_admin() || b.bot_owner_id == Some(actor.user.id));
        if !may_manage {
            return Err(ApiError::bad_request("No such bot"));
        }
    }
    Err(ApiError::bad_request(NO_EMAIL_GATEWAY))
}
