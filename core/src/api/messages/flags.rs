//! POST /messages/flags          update_message_flags
//! POST /messages/flags/narrow   update_message_flags_for_narrow
//! POST /mark_all_as_read        mark_all_as_read
//! POST /mark_stream_as_read     mark_stream_as_read
//! POST /mark_topic_as_read      mark_topic_as_read

use std::collections::BTreeSet;
use std::ops::Bound;

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, StreamId, UserId};
use crate::model::{IndexedFlag, Message, MessageFlags, MessageKind};
use crate::params::{Json, Params};
use crate::store::{Change, Direction, MessageIndex, Store};

use super::super::streams::{is_subscribed, stream_in_realm};
use super::super::user_topics::TopicPolicies;
use super::access::visible_flags;
use super::fetch::{MAX_MESSAGES_PER_FETCH, fetch_range, parse_narrow, resolve_anchor};

/// Whether a flag is being added or removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagOp {
    Add,
    Remove,
}

impl FlagOp {
    fn parse(raw: &str) -> ApiResult<FlagOp> {
        match raw {
            "add" => Ok(FlagOp::Add),
            "remove" => Ok(FlagOp::Remove),
            other => Err(ApiError::bad_request(format!("Invalid message flag operation: '{other}'"))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            FlagOp::Add => "add",
            FlagOp::Remove => "remove",
        }
    }
}

/// A checked flag change request.
#[derive(Clone, Copy, Debug)]
struct FlagChange {
    op: FlagOp,
    name: &'static str,
    flag: MessageFlags,
}

fn parse_flag_change(params: &Params) -> ApiResult<FlagChange> {
    let op = FlagOp::parse(&params.required::<String>("op")?)?;
    let raw: String = params.required("flag")?;
    let flag = MessageFlags::from_name(&raw)
        .ok_or_else(|| ApiError::bad_request(format!("Invalid flag: '{raw}'")))?;
    if !MessageFlags::is_user_editable(&raw) {
        return Err(ApiError::bad_request(format!("Flag not editable: '{raw}'")));
    }
    let name = MessageFlags::from_name(&raw).and_then(|f| f.names().into_iter().next()).unwrap_or("read");
    Ok(FlagChange { op, name, flag })
}

/// The result of applying a flag change to a set of messages.
#[derive(Default)]
struct Applied {
    changes: Vec<Change>,
    changed: Vec<MessageId>,
    ignored_channels: BTreeSet<StreamId>,
    /// `message_details` of the event when `read` is removed.
    details: Map<String, Value>,
}

/// The per-message detail Zulip sends with a `remove read` event, so clients can rebuild their
/// unread counts without fetching the message.
/// `muted` tells whether a channel message's conversation is muted for the user: its wildcard
/// mentions are then no mention, as in register's `unread_msgs`.
fn unread_detail(actor: &Actor, message: &Message, flags: MessageFlags, muted: bool) -> Value {
    let wildcard = flags
        .intersects(MessageFlags::STREAM_WILDCARD_MENTIONED.with(MessageFlags::TOPIC_WILDCARD_MENTIONED));
    let mentioned =
        flags.intersects(MessageFlags::MENTIONED.with(MessageFlags::GROUP_MENTIONED)) || (wildcard && !muted);
    let mut detail = match &message.kind {
        MessageKind::Direct { participants } => {
            let others: Vec<u64> =
                participants.iter().filter(|u| **u != actor.user.id).map(|u| u.0).collect();
            json!({"type": "private", "user_ids": others})
        }
        MessageKind::Stream { stream_id, topic } => {
            json!({"type": "stream", "stream_id": stream_id, "topic": topic, "unmuted_stream_msg": !muted})
        }
    };
    if mentioned {
        detail["mentioned"] = true.into();
    }
    detail
}

/// Applies a flag change to messages, as Zulip's `do_update_message_flags` does: messages
/// already in the target state are left alone; a message the user never received gets a
/// `historical` row only when that changes something; `read` is never removed from messages of
/// channels the user is not subscribed to (unread messages live only in subscribed channels).
fn apply_change(
    store: &impl Store,
    actor: &Actor,
    change: FlagChange,
    ids: &[MessageId],
) -> ApiResult<Applied> {
    let mut applied = Applied::default();
    let historical_default = MessageFlags::READ.with(MessageFlags::HISTORICAL);
    let marking_unread = change.op == FlagOp::Remove && change.flag == MessageFlags::READ;
    // Only marking unread asks whether a topic is muted.
    let policies =
        if marking_unread { TopicPolicies::load(store, actor.user.id)? } else { TopicPolicies::default() };
    for &id in ids {
        // A received message's row says all a change needs but marking it unread: the message
        // itself, the costliest read, is read only when its row is not enough (marking 100,000
        // messages read reads no message).
        let received = store.message_flags(actor.user.id, id)?;
        let mut message = None;
        let current = match received {
            Some(flags) => flags,
            None => {
                let read = message.insert(store.message(id)?.ok_or_else(ApiError::invalid_message)?);
                visible_flags(store, &actor.user, read)?.ok_or_else(ApiError::invalid_message)?
            }
        };
        let target = match change.op {
            FlagOp::Add => current.with(change.flag),
            FlagOp::Remove => current.without(change.flag),
        };
        if target == current || (received.is_none() && target == historical_default) {
            continue;
        }
        if marking_unread {
            let message = match message {
                Some(message) => message,
                None => store.message(id)?.ok_or_else(ApiError::invalid_message)?,
            };
            let mut muted = false;
            if let MessageKind::Stream { stream_id, topic } = &message.kind {
                let Some(sub) = store.subscription(actor.user.id, *stream_id)?.filter(|s| s.active) else {
                    applied.ignored_channels.insert(*stream_id);
                    continue;
                };
                muted = policies.of(*stream_id, topic).mutes(sub.is_muted);
            }
            applied.details.insert(id.0.to_string(), unread_detail(actor, &message, current, muted));
        }
        applied.changes.push(Change::SetMessageFlags { user: actor.user.id, message: id, flags: target });
        applied.changed.push(id);
    }
    Ok(applied)
}

fn flags_event(actor: &Actor, change: FlagChange, applied: &Applied) -> Event {
    let mut body = json!({
        "type": "update_message_flags",
        "op": change.op.name(),
        "operation": change.op.name(),
        "flag": change.name,
        "messages": applied.changed,
        "all": false,
    });
    if change.op == FlagOp::Remove && change.flag == MessageFlags::READ {
        body["message_details"] = Value::Object(applied.details.clone());
    }
    Event::Other { users: vec![actor.user.id], body }
}

fn reports_ignored(change: FlagChange) -> bool {
    change.op == FlagOp::Remove && change.flag == MessageFlags::READ
}

/// `POST /messages/flags` (spec 4.11).
pub fn update_message_flags(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let Json(ids) = params.required::<Json<Vec<u64>>>("messages")?;
    let change = parse_flag_change(params)?;
    let mut ids: Vec<MessageId> = ids.into_iter().map(MessageId).collect();
    ids.sort_unstable();
    ids.dedup();
    let applied = apply_change(store, actor, change, &ids)?;
    let event = flags_event(actor, change, &applied);
    let mut outcome =
        Outcome { events: vec![event], ..Outcome::default() }.reply("messages", json!(applied.changed));
    if reports_ignored(change) {
        outcome = outcome.reply("ignored_because_not_subscribed_channels", json!(applied.ignored_channels));
    }
    outcome.changes = applied.changes;
    Ok(outcome)
}

/// `POST /messages/flags/narrow` (spec 4.9): the same change over a range of a narrow.
pub fn update_message_flags_for_narrow(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
) -> ApiResult<Outcome> {
    let change = parse_flag_change(params)?;
    let narrow = parse_narrow(store, actor, params)?;
    let anchor = resolve_anchor(store, actor, &narrow, params)?;
    let include_anchor = params.or("include_anchor", true)?;
    let requested_before: u64 = params.required("num_before")?;
    let requested_after: u64 = params.required("num_after")?;
    // Zulip bounds one request's work the same way.
    let num_before = requested_before
        .min((MAX_MESSAGES_PER_FETCH - requested_after.min(MAX_MESSAGES_PER_FETCH)).max(2500));
    let num_after = requested_after.min(MAX_MESSAGES_PER_FETCH - num_before);
    let range = fetch_range(store, actor, &narrow, anchor, num_before, num_after, include_anchor)?;
    let ids: Vec<MessageId> = range.matches.iter().map(|m| m.message.id).collect();
    let applied = apply_change(store, actor, change, &ids)?;
    let event = flags_event(actor, change, &applied);
    let mut outcome = Outcome { events: vec![event], ..Outcome::default() }
        .reply("processed_count", ids.len())
        .reply("updated_count", applied.changed.len())
        .reply("first_processed_id", ids.first().map(|id| id.0))
        .reply("last_processed_id", ids.last().map(|id| id.0))
        .reply("found_oldest", range.found_oldest)
        .reply("found_newest", range.found_newest);
    if reports_ignored(change) {
        outcome = outcome.reply("ignored_because_not_subscribed_channels", json!(applied.ignored_channels));
    }
    outcome.changes = applied.changes;
    Ok(outcome)
}

/// The user's unread messages, oldest first, that satisfy `keep` (all of them without one, and
/// then no message is read).
fn unread_ids(
    store: &impl Store,
    actor: &Actor,
    keep: Option<&dyn Fn(&Message) -> bool>,
) -> ApiResult<Vec<MessageId>> {
    let index = MessageIndex::UserFlag(actor.user.id, IndexedFlag::Unread);
    let unread = store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)?;
    let Some(keep) = keep else { return unread.collect() };
    let mut ids = Vec::new();
    for id in unread {
        let id = id?;
        if let Some(message) = store.message(id)?
            && keep(&message)
        {
            ids.push(id);
        }
    }
    Ok(ids)
}

fn mark_read(store: &impl Store, actor: &Actor, ids: &[MessageId]) -> ApiResult<Outcome> {
    let change = FlagChange { op: FlagOp::Add, name: "read", flag: MessageFlags::READ };
    let applied = apply_change(store, actor, change, ids)?;
    let event = flags_event(actor, change, &applied);
    Ok(Outcome { changes: applied.changes, events: vec![event], ..Outcome::default() })
}

/// What leaving a channel does to the user's unread messages there: they are marked read, as
/// Zulip's unsubscribing does (register leaves them out meanwhile, and coming back does not
/// bring them back unread). The changes and the user's event, if any were unread.
pub fn read_on_leaving(
    store: &impl Store,
    user: UserId,
    stream: StreamId,
) -> ApiResult<Option<(Vec<Change>, Event)>> {
    let index = MessageIndex::UserFlag(user, IndexedFlag::Unread);
    let mut changes = Vec::new();
    let mut ids = Vec::new();
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)? {
        let id = id?;
        if store.message(id)?.is_none_or(|m| m.stream_id() != Some(stream)) {
            continue;
        }
        if let Some(flags) = store.message_flags(user, id)? {
            changes.push(Change::SetMessageFlags {
                user,
                message: id,
                flags: flags.with(MessageFlags::READ),
            });
            ids.push(id);
        }
    }
    if ids.is_empty() {
        return Ok(None);
    }
    let event = Event::Other {
        users: vec![user],
        body: json!({"type": "update_message_flags", "op": "add", "operation": "add", "flag": "read", "messages": ids, "all": false}),
    };
    Ok(Some((changes, event)))
}

/// `POST /mark_all_as_read`.
pub fn mark_all_as_read(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    let ids = unread_ids(store, actor, None)?;
    Ok(mark_read(store, actor, &ids)?.reply("complete", true))
}

/// `POST /mark_stream_as_read` with `stream_id`.
pub fn mark_stream_as_read(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let stream_id = StreamId(params.required::<u64>("stream_id")?);
    let stream = stream_in_realm(store, actor, stream_id)?
        .filter(|s| s.is_public() || is_subscribed(store, actor.user.id, s.id).unwrap_or(false))
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    let ids = unread_ids(store, actor, Some(&|m| m.stream_id() == Some(stream.id)))?;
    mark_read(store, actor, &ids)
}

/// `POST /mark_topic_as_read` with `stream_id` and `topic_name`.
pub fn mark_topic_as_read(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let stream_id = StreamId(params.required::<u64>("stream_id")?);
    let topic: String = params.required("topic_name")?;
    let stream = stream_in_realm(store, actor, stream_id)?
        .filter(|s| s.is_public() || is_subscribed(store, actor.user.id, s.id).unwrap_or(false))
        .ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    let wanted = super::send::check_topic(&topic)?.to_lowercase();
    let index = MessageIndex::Topic(stream.recipient_id, wanted.clone());
    let exists =
        store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)?.next().is_some();
    if !exists {
        return Err(ApiError::bad_request(format!("No such topic '{topic}'")));
    }
    let ids = unread_ids(
        store,
        actor,
        Some(&|m| m.stream_id() == Some(stream.id) && m.topic().to_lowercase() == wanted),
    )?;
    mark_read(store, actor, &ids)
}
