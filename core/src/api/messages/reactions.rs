//! POST   /messages/{message_id}/reactions   add_reaction
//! DELETE /messages/{message_id}/reactions   remove_reaction
//!
//! Emoji reactions with Zulip's emoji triple (`emoji_name`, `emoji_code`, `reaction_type`) and
//! its checks, in its order (`zerver/views/reactions.py`, `zerver/lib/emoji.py`).

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{MessageId, UserId};
use crate::model::{Message, MessageFlags, Reaction};
use crate::params::Params;
use crate::store::{Change, Store};

use super::access::readable_message;
use super::automatic_follow;
use crate::api::emoji::{
    UNICODE_EMOJI, ZULIP_EMOJI, ZULIP_EXTRA_EMOJI, check_emoji, emoji_by_name, reaction_type,
};
use crate::markdown::unicode_emoji_name;

/// The message if the actor may read it, with the actor's flags (`None` for a channel message
/// they never received).
fn accessible(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
) -> ApiResult<(Message, Option<MessageFlags>)> {
    let message = readable_message(store, actor, id)?;
    let own = store.message_flags(actor.user.id, id)?;
    Ok((message, own))
}

/// `POST /messages/{message_id}/reactions`. Reacting is taking part in the message's topic,
/// which may follow or unmute it for the reactor (see `automatic_follow`).
pub fn add_reaction(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let emoji_name: String = params.required("emoji_name")?;
    let emoji_code: Option<String> = params.optional("emoji_code")?;
    let kind = params.optional::<String>("reaction_type")?.map(|t| reaction_type(&t)).transpose()?;
    let (message, own_flags) = accessible(store, actor, id)?;
    let (emoji_code, kind) = match (emoji_code, kind) {
        (Some(code), Some(kind)) => (code, kind),
        _ => emoji_by_name(store, actor.realm.id, &emoji_name)?,
    };
    let existing = store.reactions(id)?;
    let same_emoji = |r: &&Reaction| r.emoji_code == emoji_code && r.reaction_type == kind;
    if existing.iter().filter(same_emoji).any(|r| r.user_id == actor.user.id) {
        return Err(ApiError::new(ErrorCode::ReactionAlreadyExists, "Reaction already exists."));
    }
    // Joining a reaction someone already made needs no check: the emoji may have been renamed
    // since, and the client echoes what it was shown.
    if !existing.iter().any(|r| same_emoji(&r)) {
        check_emoji(store, actor.realm.id, &emoji_name, &emoji_code, kind)?;
    }
    let reaction = Reaction {
        message_id: id,
        user_id: actor.user.id,
        emoji_name,
        emoji_code,
        reaction_type: kind.to_owned(),
    };
    let mut changes = Vec::new();
    if own_flags.is_none() {
        // Reacting to channel history the user never received gives them a row, as Zulip's
        // `create_historical_user_messages` does.
        let flags = MessageFlags::READ.with(MessageFlags::HISTORICAL);
        changes.push(Change::SetMessageFlags { user: actor.user.id, message: id, flags });
    }
    let automatic = automatic_follow::on_participation(store, actor, &message, now)?;
    changes.extend(automatic.changes);
    let mut events = automatic.events;
    events.extend(reaction_event(store, actor, &message, &reaction, "add")?);
    changes.push(Change::AddReaction(reaction));
    Ok(Outcome { changes, events, ..Outcome::default() })
}

/// `DELETE /messages/{message_id}/reactions` (spec 4.13).
pub fn remove_reaction(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
) -> ApiResult<Outcome> {
    let emoji_name: Option<String> = params.optional("emoji_name")?;
    let emoji_code: Option<String> = params.optional("emoji_code")?;
    let kind =
        reaction_type(&params.optional::<String>("reaction_type")?.unwrap_or_else(|| UNICODE_EMOJI.into()))?;
    let (message, _) = accessible(store, actor, id)?;
    let emoji_code = match (emoji_code, &emoji_name) {
        (Some(code), _) => code,
        (None, Some(name)) => emoji_by_name(store, actor.realm.id, name)?.0,
        (None, None) => {
            return Err(ApiError::bad_request(
                "At least one of the following arguments must be present: emoji_name, emoji_code",
            ));
        }
    };
    let Some(reaction) = store
        .reactions(id)?
        .into_iter()
        .find(|r| r.user_id == actor.user.id && r.emoji_code == emoji_code && r.reaction_type == kind)
    else {
        let code_exists = match kind {
            UNICODE_EMOJI => unicode_emoji_name(&emoji_code).is_some(),
            ZULIP_EXTRA_EMOJI => emoji_code == ZULIP_EMOJI,
            _ => true,
        };
        return Err(if code_exists {
            ApiError::new(ErrorCode::ReactionDoesNotExist, "Reaction doesn't exist.")
        } else {
            ApiError::bad_request("Invalid emoji code")
        });
    };
    let events = reaction_event(store, actor, &message, &reaction, "remove")?;
    Ok(Outcome { changes: vec![Change::RemoveReaction(reaction)], events, ..Outcome::default() })
}

/// The `reaction` event, with the legacy `user` object zulip-terminal reads, for everyone who
/// has the message and, when the channel's history is open, its subscribers. Guests who
/// cannot see the reactor get that object as "Unknown user".
fn reaction_event(
    store: &impl Store,
    actor: &Actor,
    message: &Message,
    reaction: &Reaction,
    op: &str,
) -> ApiResult<Vec<Event>> {
    let mut users: Vec<UserId> = store.message_users(message.id)?;
    users.push(actor.user.id);
    if let Some(stream) = message.stream_id().map(|s| store.stream(s)).transpose()?.flatten()
        && stream.history_public_to_subscribers
    {
        users.extend(store.stream_subscribers(stream.id)?);
    }
    users.sort_unstable();
    users.dedup();
    let body: Value = json!({
        "type": "reaction",
        "op": op,
        "message_id": message.id,
        "emoji_name": reaction.emoji_name,
        "emoji_code": reaction.emoji_code,
        "reaction_type": reaction.reaction_type,
        "user_id": actor.user.id,
        "user": {
            "user_id": actor.user.id,
            "email": actor.user.email,
            "full_name": actor.user.full_name,
        },
    });
    let (seeing, unseeing) = crate::user_access::split_by_sight(store, &actor.realm, &actor.user, users)?;
    let mut events = Vec::new();
    if !unseeing.is_empty() {
        let mut hidden = body.clone();
        crate::wire::hide_reactor(&mut hidden, &actor.realm_url);
        events.push(Event::Other { users: unseeing, body: hidden });
    }
    events.push(Event::Other { users: seeing, body });
    Ok(events)
}
