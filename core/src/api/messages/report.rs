//! POST /messages/{message_id}/report   report_message_to_moderators
//!
//! The spec names the parameters `report_type` and `description`; Zulip's server and clients
//! say `reason` and `explanation`. Both are accepted.

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, MessageId};
use crate::links::silent_mention;
use crate::model::MessageKind;
use crate::params::Params;
use crate::store::{IdAllocator, Store};

use super::access::readable_message;
use super::send::notify;

/// The reasons a message can be reported for.
pub const REPORT_TYPES: [&str; 5] = ["spam", "harassment", "inappropriate", "norms", "other"];
/// Zulip's `MAX_REPORT_MESSAGE_EXPLANATION_LENGTH`.
pub const MAX_DESCRIPTION_LENGTH: usize = 1000;
/// How much of the reported message the notice quotes, leaving room for the rest of it.
const MAX_SNIPPET_LENGTH: usize = super::MAX_MESSAGE_LENGTH - MAX_DESCRIPTION_LENGTH - 500;

/// The first of two parameter names that was sent, with its value.
fn either(params: &Params, names: [&'static str; 2]) -> ApiResult<Option<(&'static str, String)>> {
    for name in names {
        if let Some(value) = params.optional::<String>(name)? {
            return Ok(Some((name, value)));
        }
    }
    Ok(None)
}

/// `POST /messages/{message_id}/report` (spec 4.14): posts a notice to the organization's
/// moderation request channel, in a topic about the reported user.
pub fn report_message(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let (_, report_type) = either(params, ["report_type", "reason"])?
        .ok_or_else(|| ApiError::missing_argument("report_type"))?;
    if !REPORT_TYPES.contains(&report_type.as_str()) {
        return Err(ApiError::bad_request("Invalid report_type"));
    }
    let description = either(params, ["description", "explanation"])?;
    if let Some((name, text)) = &description
        && text.chars().count() > MAX_DESCRIPTION_LENGTH
    {
        return Err(ApiError::bad_request(format!(
            "{name} is too long (limit: {MAX_DESCRIPTION_LENGTH} characters)"
        )));
    }
    let description = description.map(|(_, text)| text).unwrap_or_default();
    let channel_id = actor.realm.settings.moderation_request_channel_id.ok_or_else(|| {
        ApiError::bad_request("Moderation request channel must be specified to enable message reporting.")
    })?;
    if report_type == "other" && description.trim().is_empty() {
        return Err(ApiError::bad_request("For reason=other, an explanation must be provided."));
    }
    let message = readable_message(store, actor, id)?;
    let channel = store.stream(channel_id)?.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    let reported = store.user(message.sender_id)?.ok_or_else(ApiError::invalid_message)?;
    let reporter_mention = silent_mention(&actor.user.full_name, actor.user.id);
    let reported_mention = silent_mention(&reported.full_name, reported.id);
    let sent_to = match &message.kind {
        MessageKind::Stream { stream_id, topic } => {
            let name = store.stream(*stream_id)?.map(|s| s.name).unwrap_or_default();
            format!("reported #**{name}>{topic}@{id}** sent by {reported_mention}")
        }
        MessageKind::Direct { participants } => {
            let mut mentions = Vec::new();
            for user in participants.iter().filter(|u| **u != message.sender_id) {
                if let Some(user) = store.user(*user)? {
                    mentions.push(silent_mention(&user.full_name, user.id));
                }
            }
            let recipients = match mentions.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{}, and {last}", rest.join(", ")),
                Some((last, _)) => last.clone(),
                None => reporter_mention.clone(),
            };
            format!("reported a DM sent by {reported_mention} to {recipients}")
        }
    };
    let snippet: String = if message.content.chars().count() > MAX_SNIPPET_LENGTH {
        let mut cut: String = message.content.chars().take(MAX_SNIPPET_LENGTH - 20).collect();
        cut.push_str("\n[message truncated]");
        cut
    } else {
        message.content.clone()
    };
    let content = format!(
        "{reporter_mention} {sent_to}.\n- Reason: **{report_type}**\n- Notes:\n```quote\n{description}\n```\n``` spoiler **Message sent by {reported_mention}**\n{snippet}\n```"
    );
    let topic = format!("{}'s moderation requests", reported.full_name);
    let topic = super::send::check_topic(&topic)?;
    let mut ids = IdAllocator::new(store, IdKind::Message)?;
    let mut outcome = Outcome::default();
    if let Some(notice) = notify(store, actor, channel, topic, content, now, &mut ids)? {
        outcome.changes = notice.changes;
        outcome.events.push(notice.event);
        outcome.events.extend(notice.followups);
    }
    Ok(outcome)
}
