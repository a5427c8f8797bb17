//! GET /messages        get_messages
//! GET /messages/{id}   get_message

use std::ops::Bound;

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, UserId};
use crate::model::{Message, MessageFlags};
use crate::params::{Json, Params};
use crate::store::{Direction, Store};
use crate::user_access::UserAccess;
use crate::wire::{self, MessageOptions};

use super::super::narrow::{self, Narrow};
use super::access::visible_flags;

/// Zulip's `LARGER_THAN_MAX_MESSAGE_ID`: the anchor that means "newest".
pub const LARGER_THAN_MAX_MESSAGE_ID: u64 = 10_000_000_000_000_000;
/// Zulip's `MAX_MESSAGES_PER_FETCH`.
pub const MAX_MESSAGES_PER_FETCH: u64 = 5000;

/// Parameters that select a range, refused together with `message_ids`.
const RANGE_PARAMETERS: [&str; 5] =
    ["anchor", "include_anchor", "num_before", "num_after", "use_first_unread_anchor"];

fn message_options(params: &Params) -> ApiResult<MessageOptions> {
    Ok(MessageOptions {
        apply_markdown: params.or("apply_markdown", true)?,
        client_gravatar: params.or("client_gravatar", params.or("client_autoavatar", true)?)?,
        allow_empty_topic_name: params.or("allow_empty_topic_name", false)?,
    })
}

/// A message the viewer may read that matches the narrow, with the viewer's flags.
pub(super) struct Match {
    pub message: Message,
    pub flags: MessageFlags,
}

/// Loads a message and checks it against the narrow and the viewer's access.
fn check_candidate(
    store: &impl Store,
    actor: &Actor,
    narrow: &Narrow,
    id: MessageId,
) -> ApiResult<Option<Match>> {
    let Some(message) = store.message(id)? else { return Ok(None) };
    let received = store.message_flags(actor.user.id, id)?;
    let flags = match received {
        Some(flags) => flags,
        None if narrow.include_history => match visible_flags(store, &actor.user, &message)? {
            Some(flags) => flags,
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    let facts = narrow::facts(store, narrow, &message)?;
    Ok(narrow.matches(&message, &facts).then_some(Match { message, flags }))
}

/// The most candidates a walk reads together (see [`Store::prefetch_messages`]).
const CANDIDATES_AT_ONCE: u64 = 256;

/// Walks the narrow's index from a bound, collecting up to `limit` matches.
fn collect(
    store: &impl Store,
    actor: &Actor,
    narrow: &Narrow,
    from: Bound<MessageId>,
    to: Bound<MessageId>,
    direction: Direction,
    limit: u64,
) -> ApiResult<Vec<Match>> {
    let mut found = Vec::new();
    let mut ids = store.message_ids(&narrow.index(), from, to, direction)?;
    // As many candidates at a time as matches are still wanted (every one matches, in most
    // narrows), so that the store reads them together; never more than a chunk.
    while (found.len() as u64) < limit {
        let wanted = (limit - found.len() as u64).min(CANDIDATES_AT_ONCE) as usize;
        let candidates: Vec<MessageId> = ids.by_ref().take(wanted).collect::<ApiResult<_>>()?;
        if candidates.is_empty() {
            break;
        }
        store.prefetch_messages(actor.user.id, &candidates)?;
        for id in candidates {
            if let Some(m) = check_candidate(store, actor, narrow, id)? {
                found.push(m);
            }
        }
    }
    Ok(found)
}

fn parse_anchor(raw: &str) -> ApiResult<AnchorSpec> {
    Ok(match raw {
        "newest" => AnchorSpec::Id(LARGER_THAN_MAX_MESSAGE_ID),
        "oldest" => AnchorSpec::Id(0),
        "first_unread" => AnchorSpec::FirstUnread,
        other => match other.trim().parse::<i64>() {
            Ok(n) => AnchorSpec::Id((n.max(0) as u64).min(LARGER_THAN_MAX_MESSAGE_ID)),
            Err(_) => return Err(ApiError::bad_request("Invalid anchor")),
        },
    })
}

enum AnchorSpec {
    Id(u64),
    FirstUnread,
}

/// The oldest unread message matching the narrow, or "newest" when there is none. Muted
/// conversations are passed over, as in Zulip (`Narrow::without_muted`).
fn first_unread(store: &impl Store, actor: &Actor, narrow: &Narrow) -> ApiResult<u64> {
    let mut unread_narrow = narrow.clone().without_muted(store)?;
    unread_narrow.include_history = false;
    unread_narrow
        .terms
        .push(narrow::Term { condition: narrow::Condition::Is(narrow::IsOperand::Unread), negated: false });
    let found =
        collect(store, actor, &unread_narrow, Bound::Unbounded, Bound::Unbounded, Direction::Ascending, 1)?;
    Ok(found.first().map_or(LARGER_THAN_MAX_MESSAGE_ID, |m| m.message.id.0))
}

fn render(
    store: &impl Store,
    actor: &Actor,
    matches: Vec<Match>,
    options: MessageOptions,
) -> ApiResult<Vec<u8>> {
    let access = UserAccess::of(store, &actor.realm, &actor.user)?;
    let ids: Vec<MessageId> = matches.iter().map(|m| m.message.id).collect();
    store.prefetch_message_extras(&ids)?;
    let page = matches
        .into_iter()
        .map(|m| {
            let mut shown =
                wire::page_message(store, &actor.realm, m.message, actor.user.id, m.flags, options)?;
            hide_unseen_people(store, &access, shown.fields_mut(), &actor.realm_url)?;
            Ok(shown)
        })
        .collect::<ApiResult<Vec<_>>>()?;
    wire::page_json(&page).map_err(ApiError::internal)
}

/// Shows the people of a message a viewer cannot see (a limited guest) as "Unknown user": its
/// sender, and those who reacted to it.
fn hide_unseen_people(
    store: &impl Store,
    access: &UserAccess,
    fields: &mut Value,
    realm_url: &str,
) -> ApiResult<()> {
    if access.sees_all() {
        return Ok(());
    }
    let visible = |id: Option<u64>| -> ApiResult<bool> {
        let Some(id) = id else { return Ok(true) };
        Ok(store.user(UserId(id))?.is_some_and(|user| access.can_see(&user)))
    };
    let sender = fields["sender_id"].as_u64();
    if !visible(sender)? {
        wire::hide_sender(fields, UserId(sender.unwrap_or_default()), realm_url);
    }
    for reaction in fields["reactions"].as_array_mut().into_iter().flatten() {
        if !visible(reaction["user_id"].as_u64())? {
            wire::hide_reactor(reaction, realm_url);
        }
    }
    Ok(())
}

/// A range of matches around an anchor, with Zulip's `found_*` facts.
pub(super) struct Range {
    pub anchor: u64,
    pub matches: Vec<Match>,
    pub found_anchor: bool,
    pub found_oldest: bool,
    pub found_newest: bool,
}

/// Reads `anchor` (or the legacy `use_first_unread_anchor`) and resolves it against the narrow.
pub(super) fn resolve_anchor(
    store: &impl Store,
    actor: &Actor,
    narrow: &Narrow,
    params: &Params,
) -> ApiResult<u64> {
    let use_first_unread = params.or("use_first_unread_anchor", false)?;
    let anchor_raw = params.optional::<String>("anchor")?;
    let spec = match (anchor_raw, use_first_unread) {
        (_, true) => AnchorSpec::FirstUnread,
        (Some(raw), false) => parse_anchor(&raw)?,
        (None, false) => return Err(ApiError::missing_argument("anchor")),
    };
    match spec {
        AnchorSpec::Id(id) => Ok(id),
        AnchorSpec::FirstUnread => first_unread(store, actor, narrow),
    }
}

/// The matches of `narrow` around `anchor`, as Zulip's `limit_query_to_range` and
/// `post_process_limited_query` select them.
pub(super) fn fetch_range(
    store: &impl Store,
    actor: &Actor,
    narrow: &Narrow,
    anchor: u64,
    num_before: u64,
    num_after: u64,
    include_anchor: bool,
) -> ApiResult<Range> {
    let anchored_left = anchor == 0;
    let anchored_right = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
    let num_after = if anchored_right { 0 } else { num_after };
    let before = collect(
        store,
        actor,
        narrow,
        Bound::Unbounded,
        Bound::Excluded(MessageId(anchor)),
        Direction::Descending,
        num_before,
    )?;
    let (anchor_row, after) = if anchored_right {
        (None, Vec::new())
    } else {
        let mut after = collect(
            store,
            actor,
            narrow,
            Bound::Included(MessageId(anchor)),
            Bound::Unbounded,
            Direction::Ascending,
            num_after + 1,
        )?;
        let anchor_row = match after.first() {
            Some(m) if m.message.id.0 == anchor => Some(after.remove(0)),
            _ => None,
        };
        after.truncate(num_after as usize);
        (anchor_row, after)
    };
    let found_anchor = anchor_row.is_some() && include_anchor;
    let found_oldest = anchored_left || (before.len() as u64) < num_before;
    let found_newest = anchored_right || (after.len() as u64) < num_after;
    let mut matches: Vec<Match> = before.into_iter().rev().collect();
    if include_anchor {
        matches.extend(anchor_row);
    }
    matches.extend(after);
    Ok(Range { anchor, matches, found_anchor, found_oldest, found_newest })
}

/// Parses the `narrow` parameter (absent means all of the user's messages).
pub(super) fn parse_narrow(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Narrow> {
    let raw = match narrow::narrow_param(params)? {
        Some(value) => narrow::parse_terms(&value)?,
        None => Vec::new(),
    };
    narrow::resolve(store, actor, &raw)
}

/// `GET /messages` (spec 4.5).
pub fn get_messages(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    // A page of messages names the same channels and senders again and again.
    let store = &crate::memo::Memo::new(store);
    let options = message_options(params)?;
    let narrow = parse_narrow(store, actor, params)?;
    if let Some(Json(ids)) = params.optional::<Json<Vec<u64>>>("message_ids")? {
        let conflicting: Vec<&str> = RANGE_PARAMETERS.iter().copied().filter(|p| params.has(p)).collect();
        if !conflicting.is_empty() {
            let mut names = vec!["message_ids"];
            names.extend(conflicting);
            return Err(ApiError::bad_request(format!(
                "Unsupported parameter combination: {}",
                names.join(", ")
            )));
        }
        let mut ids = ids;
        ids.sort_unstable();
        ids.dedup();
        let mut lenient = narrow.clone();
        lenient.include_history = true;
        let mut matches = Vec::new();
        for id in ids {
            if let Some(m) = check_candidate(store, actor, &lenient, MessageId(id))? {
                matches.push(m);
            }
        }
        return Ok(Outcome::default()
            .reply("found_anchor", false)
            .reply("found_oldest", false)
            .reply("found_newest", false)
            .reply("history_limited", false)
            .reply_json("messages", render(store, actor, matches, options)?));
    }
    let anchor = resolve_anchor(store, actor, &narrow, params)?;
    let num_before: u64 = params.required("num_before")?;
    let num_after: u64 = params.required("num_after")?;
    let include_anchor = params.or("include_anchor", true)?;
    if num_before.saturating_add(num_after) > MAX_MESSAGES_PER_FETCH {
        return Err(ApiError::bad_request(format!(
            "Too many messages requested (maximum {MAX_MESSAGES_PER_FETCH})."
        )));
    }
    let range = fetch_range(store, actor, &narrow, anchor, num_before, num_after, include_anchor)?;
    Ok(Outcome::default()
        .reply("anchor", range.anchor)
        .reply("found_anchor", range.found_anchor)
        .reply("found_oldest", range.found_oldest)
        .reply("found_newest", range.found_newest)
        .reply("history_limited", false)
        .reply_json("messages", render(store, actor, range.matches, options)?))
}

/// `GET /messages/{message_id}`: one message, with its Markdown as `raw_content`.
pub fn get_message(store: &impl Store, actor: &Actor, id: MessageId, params: &Params) -> ApiResult<Outcome> {
    one_message(store, actor, id, params, ApiError::invalid_message)
}

/// One message the actor may read; any other id (missing, another organization's, or one they
/// may not read) answers `unreadable`, so the answer tells nothing of which.
pub(crate) fn one_message(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
    unreadable: fn() -> ApiError,
) -> ApiResult<Outcome> {
    let options = message_options(params)?;
    let message = store.message(id)?.ok_or_else(unreadable)?;
    let flags = visible_flags(store, &actor.user, &message)?.ok_or_else(unreadable)?;
    let mut shown = wire::message(store, &actor.realm, &message, actor.user.id, flags, options)?;
    let access = UserAccess::of(store, &actor.realm, &actor.user)?;
    hide_unseen_people(store, &access, &mut shown, &actor.realm_url)?;
    Ok(Outcome::default().reply("raw_content", message.content.clone()).reply("message", shown))
}
