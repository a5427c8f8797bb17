//! The unread summary (`unread_msgs` in register), computed from the unread index.

use std::collections::BTreeMap;
use std::ops::Bound;

use serde_json::{Value, json};

use crate::error::ApiResult;
use crate::ids::{StreamId, UserId};
use crate::model::{IndexedFlag, MessageFlags, MessageKind, User};
use crate::store::{Direction, MessageIndex, Store};
use crate::wire::EMPTY_TOPIC_DISPLAY_NAME;

use super::user_topics::TopicPolicies;

/// Zulip's `MAX_UNREAD_MESSAGES`: the summary covers at most this many, newest first.
pub const MAX_UNREAD_MESSAGES: usize = 50_000;

/// Zulip's `unread_msgs`: direct messages by conversation, channel messages by (channel, topic)
/// with topics grouped case-insensitively, group conversations by member list, and mentions.
/// Messages in channels the user has left are not unread; muted conversations (a muted topic,
/// or a muted channel's topic not unmuted or followed) do not count, and their wildcard
/// mentions are not mentions.
pub fn unread_msgs(store: &impl Store, user: &User, empty_topic_name: bool) -> ApiResult<Value> {
    let policies = TopicPolicies::load(store, user.id)?;
    let index = MessageIndex::UserFlag(user.id, IndexedFlag::Unread);
    let mut pms: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    let mut streams: BTreeMap<(u64, String), (String, Vec<u64>)> = BTreeMap::new();
    let mut huddles: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut mentions: Vec<u64> = Vec::new();
    let mut count = 0usize;
    let mut seen = 0usize;
    let mut subscription_state: BTreeMap<StreamId, Option<bool>> = BTreeMap::new();
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Descending)? {
        if seen == MAX_UNREAD_MESSAGES {
            break;
        }
        let id = id?;
        let Some(kind) = store.message_kind(id)? else { continue };
        let flags = store.message_flags(user.id, id)?.unwrap_or_default();
        seen += 1;
        let mentioned =
            flags.contains(MessageFlags::MENTIONED) || flags.contains(MessageFlags::GROUP_MENTIONED);
        let wildcard = flags
            .intersects(MessageFlags::STREAM_WILDCARD_MENTIONED.with(MessageFlags::TOPIC_WILDCARD_MENTIONED));
        match &kind {
            MessageKind::Direct { participants } => {
                let others: Vec<UserId> = participants.iter().copied().filter(|u| *u != user.id).collect();
                if participants.len() <= 2 {
                    let other = others.first().copied().unwrap_or(user.id);
                    pms.entry(other.0).or_default().push(id.0);
                } else {
                    let key = participants.iter().map(|u| u.0.to_string()).collect::<Vec<_>>().join(",");
                    huddles.entry(key).or_default().push(id.0);
                }
                count += 1;
                if mentioned || wildcard {
                    mentions.push(id.0);
                }
            }
            MessageKind::Stream { stream_id, topic } => {
                // `Some(muted)` for an active subscription, `None` for a channel the user left.
                let state = match subscription_state.get(stream_id) {
                    Some(state) => *state,
                    None => {
                        let state =
                            store.subscription(user.id, *stream_id)?.filter(|s| s.active).map(|s| s.is_muted);
                        subscription_state.insert(*stream_id, state);
                        state
                    }
                };
                let Some(channel_muted) = state else { continue };
                let muted = policies.of(*stream_id, topic).mutes(channel_muted);
                let shown =
                    if topic.is_empty() && !empty_topic_name { EMPTY_TOPIC_DISPLAY_NAME } else { topic };
                let entry = streams
                    .entry((stream_id.0, topic.to_lowercase()))
                    .or_insert_with(|| (shown.to_owned(), Vec::new()));
                // Walking newest first, the last spelling seen is the oldest: Zulip keeps the first seen in id order.
                entry.0 = shown.to_owned();
                entry.1.push(id.0);
                if !muted {
                    count += 1;
                }
                if mentioned || (wildcard && !muted) {
                    mentions.push(id.0);
                }
            }
        }
    }
    let ascending = |mut ids: Vec<u64>| {
        ids.reverse();
        ids
    };
    mentions.reverse();
    Ok(json!({
        "count": count,
        "pms": pms.into_iter().map(|(other, ids)| json!({"other_user_id": other, "sender_id": other, "unread_message_ids": ascending(ids)})).collect::<Vec<_>>(),
        "streams": streams.into_iter().map(|((stream_id, _), (topic, ids))| json!({"stream_id": stream_id, "topic": topic, "unread_message_ids": ascending(ids)})).collect::<Vec<_>>(),
        "huddles": huddles.into_iter().map(|(key, ids)| json!({"user_ids_string": key, "unread_message_ids": ascending(ids)})).collect::<Vec<_>>(),
        "mentions": mentions,
        "old_unreads_missing": seen == MAX_UNREAD_MESSAGES,
    }))
}
