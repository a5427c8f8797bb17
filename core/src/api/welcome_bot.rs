//! POST /realm/test_welcome_bot_custom_message   test_welcome_bot_custom_message
//!
//! An administrator tries out the organization's `welcome_message_custom_text` (feature level
//! 416): Zulip has its Welcome Bot send the text to the administrator and answers with the
//! message's id. Confab has no Welcome Bot (it sends no onboarding messages), so the
//! organization's Notification Bot, its one system bot, sends it: the closest honest sender.

use crate::command::{Actor, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::model::realm_properties::MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH;
use crate::params::Params;
use crate::store::Store;

use super::messages::{NoticeIds, send_direct_notice};

/// Sends the given welcome text to the acting administrator; replies with `message_id`.
pub fn test_welcome_bot_custom_message(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let text: String = params.required("welcome_message_custom_text")?;
    if text.chars().count() > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH {
        return Err(ApiError::bad_request(format!(
            "welcome_message_custom_text is too long (limit: {MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} characters)"
        )));
    }
    if text.is_empty() {
        return Err(ApiError::bad_request("Message must not be empty"));
    }
    let mut outcome = Outcome::default();
    let mut ids = NoticeIds::new(store)?;
    let id = send_direct_notice(store, actor, &actor.user, text, now, &mut ids, &mut outcome)?
        .ok_or_else(|| ApiError::internal("the organization has no Notification Bot"))?;
    Ok(outcome.reply("message_id", id.0))
}
